// The watcher only reports: changes mark specs pending and are logged once per spec.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SpecWatcher, WATCH_DELAY_MS } from '../../src/daemon/watcher.ts';

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

test('a change in place and a save by rename both mark the owning specs pending, logged once per spec', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-watch-'));
  const a = join(dir, 'a.yaml');
  const shared = join(dir, 'shared.yaml');
  const config = join(dir, 'svc.yaml');
  for (const f of [a, shared, config]) writeFileSync(f, 'x: 1\n');
  const logs: string[] = [];
  const watcher = new SpecWatcher({ configFile: config, log: (l) => logs.push(l) });
  try {
    watcher.setFiles(new Map([[a, ['a']], [shared, ['a', 'b']]]));
    await watcher.ready();
    await sleep(100);
    writeFileSync(a, 'x: 2\n');
    await until(() => watcher.pending().specs.has('a'));
    assert.deepEqual([...watcher.pending().specs.keys()], ['a']);
    // An editor's atomic save: write a temp file, rename over the original.
    writeFileSync(join(dir, '.shared.tmp'), 'x: 3\n');
    renameSync(join(dir, '.shared.tmp'), shared);
    await until(() => watcher.pending().specs.has('b'));
    assert.deepEqual(watcher.pending().specs.get('a'), [a, shared].sort());
    writeFileSync(a, 'x: 4\n');
    await sleep(WATCH_DELAY_MS * 3);
    assert.equal(logs.filter((l) => l.includes('(spec a')).length, 1, `logged once for a: ${logs.join('\n')}`);
    assert.equal(logs.filter((l) => /spec b\)/.test(l)).length, 1);
    assert.match(logs[0]!, /svc update/);

    writeFileSync(config, 'x: 9\n');
    await until(() => watcher.pending().config);

    watcher.clearPending();
    assert.equal(watcher.pending().specs.size, 0);
    assert.equal(watcher.pending().config, false);
    writeFileSync(a, 'x: 5\n');
    await until(() => watcher.pending().specs.has('a'));
    assert.equal(logs.filter((l) => l.includes('(spec a')).length, 2, 'after an update the next change is logged again');

    // Files no spec reads any more are not reported.
    watcher.setFiles(new Map([[shared, ['b']]]));
    watcher.clearPending();
    writeFileSync(a, 'x: 6\n');
    await sleep(WATCH_DELAY_MS * 3);
    assert.equal(watcher.pending().specs.size, 0);
  } finally {
    await watcher.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
