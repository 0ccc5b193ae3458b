// The report-only watcher's rules on real files: which changes count (confirmed ones), which files
// are watched (exactly the owners given, plus svc.yaml always), and that nothing is recorded after close.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, test } from 'node:test';
import { SpecWatcher, WATCH_DELAY_MS } from '../../src/daemon/watcher.ts';

const QUIET = 50;
let dir: string;
let watchers: SpecWatcher[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-watch-rules-'));
});
afterEach(async () => {
  await Promise.all(watchers.map((w) => w.close()));
  watchers = [];
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text = 'x: 1\n'): string {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

async function started(options: ConstructorParameters<typeof SpecWatcher>[0], owners: Map<string, string[]>): Promise<SpecWatcher> {
  const w = new SpecWatcher({ delayMs: QUIET, ...options });
  watchers.push(w);
  w.setFiles(owners);
  await w.ready();
  await sleep(100);
  return w;
}

test('only the specs the confirm step returns are pending; a confirm that fails counts every owner', async () => {
  const a = file('a.yaml');
  const b = file('b.yaml');
  const asked: string[][] = [];
  const changes: [string, readonly string[]][] = [];
  let failing = false;
  const logs: string[] = [];
  const w = await started(
    {
      log: (l) => logs.push(l),
      onChange: (f, specs) => changes.push([f, specs]),
      confirm: async (specs) => {
        asked.push([...specs]);
        if (failing) throw new Error('cannot tell');
        return specs.filter((s) => s !== 'quiet');
      },
    },
    new Map([[a, ['quiet']], [b, ['loud', 'quiet']]]),
  );
  writeFileSync(a, 'x: 2\n');
  await until(() => asked.length >= 1);
  await sleep(WATCH_DELAY_MS);
  assert.equal(w.pending().specs.size, 0, 'a change no spec confirms is not pending');
  assert.deepEqual(changes, [], 'nor reported');
  assert.deepEqual(logs, []);

  writeFileSync(b, 'x: 2\n');
  await until(() => w.pending().specs.has('loud'));
  assert.deepEqual([...w.pending().specs], [['loud', [b]]]);
  assert.deepEqual(changes, [[b, ['loud']]]);
  assert.equal(logs.length, 1);
  assert.equal(logs[0], `${b} changed (spec loud); still serving the version loaded before, run \`svc update\` to apply it`);

  failing = true;
  writeFileSync(a, 'x: 3\n');
  await until(() => w.pending().specs.has('quiet'));
  assert.deepEqual(w.pending().specs.get('quiet'), [a]);
  assert.match(logs[1]!, /\(spec quiet\)/);
});

test('a deleted spec file is a change; files no spec reads are not', async () => {
  const a = file('a.yaml');
  const stray = file('stray.yaml');
  const w = await started({}, new Map([[a, ['a']]]));
  writeFileSync(stray, 'x: 2\n');
  unlinkSync(a);
  await until(() => w.pending().specs.has('a'));
  assert.deepEqual([...w.pending().specs.keys()], ['a']);
  assert.equal(w.pending().config, false);
});

test('svc.yaml is always watched, logged once until cleared, and reported with no specs', async () => {
  const config = file('svc.yaml');
  const a = file('a.yaml');
  const logs: string[] = [];
  const changes: [string, readonly string[]][] = [];
  // The config file among the owners and then dropped from them: it must stay watched.
  const w = await started({ configFile: config, log: (l) => logs.push(l), onChange: (f, s) => changes.push([f, s]) }, new Map([[config, ['x']], [a, ['a']]]));
  w.setFiles(new Map([[a, ['a']]]));
  await sleep(100);
  writeFileSync(config, 'x: 2\n');
  await until(() => w.pending().config);
  writeFileSync(config, 'x: 3\n');
  await until(() => changes.length >= 2);
  assert.deepEqual(logs, [`${config} changed; run \`svc update\` to apply it`]);
  assert.deepEqual(changes, [[config, []], [config, []]]);
  assert.equal(w.pending().specs.size, 0);
  w.clearPending();
  writeFileSync(config, 'x: 4\n');
  await until(() => w.pending().config);
  assert.equal(logs.length, 2, 'logged again after an update');
});

test('pending lists each spec\'s changed files sorted, once each', async () => {
  const z = file('z.yaml');
  const m = file('m.yaml');
  const logs: string[] = [];
  const w = await started({ log: (l) => logs.push(l) }, new Map([[z, ['s']], [m, ['s']]]));
  writeFileSync(z, 'x: 2\n');
  await until(() => w.pending().specs.get('s')?.length === 1);
  writeFileSync(m, 'x: 2\n');
  await until(() => w.pending().specs.get('s')?.length === 2);
  writeFileSync(z, 'x: 3\n');
  await sleep(WATCH_DELAY_MS);
  assert.deepEqual(w.pending().specs.get('s'), [m, z]);
  assert.deepEqual(logs, [`${z} changed (spec s); still serving the version loaded before, run \`svc update\` to apply it`], 'once per spec, not per file');
});

test('after close nothing is watched or recorded, and setFiles does nothing', async () => {
  const a = file('a.yaml');
  const b = file('b.yaml');
  let confirmed = 0;
  const w = await started({ confirm: async (s) => (confirmed++, s) }, new Map([[a, ['a']]]));
  await w.close();
  w.setFiles(new Map([[b, ['b']]]));
  writeFileSync(a, 'x: 2\n');
  writeFileSync(b, 'x: 2\n');
  await sleep(WATCH_DELAY_MS * 2);
  assert.equal(w.pending().specs.size, 0);
  assert.equal(confirmed, 0);
});

test('a change confirmed only after close is dropped', async () => {
  const a = file('a.yaml');
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  const w = await started(
    {
      confirm: async (s) => {
        asked = true;
        await gate;
        return s;
      },
    },
    new Map([[a, ['a']]]),
  );
  writeFileSync(a, 'x: 2\n');
  await until(() => asked);
  await w.close();
  release();
  await sleep(50);
  assert.equal(w.pending().specs.size, 0);
});
