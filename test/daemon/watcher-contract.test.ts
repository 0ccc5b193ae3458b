// The report-only watcher's contract on real files (chokidar): a file several specs read names them
// all in one line; a file no spec had when watching began is reported once it appears; ready()
// resolves once the first scan is done; a change counts once the file has been quiet for the delay
// given, not chokidar's default two seconds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SpecWatcher } from '../../src/daemon/watcher.ts';
import { until } from './support.ts';

const dirs: string[] = [];
const watchers: SpecWatcher[] = [];
after(async () => {
  await Promise.all(watchers.map((w) => w.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function setup(delayMs = 50): { dir: string; logs: string[]; changes: [string, readonly string[]][]; watcher: SpecWatcher } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-watch-contract-'));
  dirs.push(dir);
  const logs: string[] = [];
  const changes: [string, readonly string[]][] = [];
  const watcher = new SpecWatcher({ log: (l) => logs.push(l), onChange: (f, s) => changes.push([f, s]), delayMs });
  watchers.push(watcher);
  return { dir, logs, changes, watcher };
}

test('a file two specs read: one line names both, and both are pending', async () => {
  const { dir, logs, changes, watcher } = setup();
  const shared = join(dir, 'common.yaml');
  writeFileSync(shared, 'a: 1\n');
  watcher.setFiles(new Map([[shared, ['pets', 'store']]]));
  const ready = watcher.ready();
  assert.ok(ready instanceof Promise);
  await ready;
  writeFileSync(shared, 'a: 2\n');
  await until(() => changes.length > 0, 10_000, 'the change reported');
  assert.deepEqual(changes[0], [shared, ['pets', 'store']]);
  assert.deepEqual(logs, [`${shared} changed (spec pets, store); still serving the version loaded before, run \`svc update\` to apply it`]);
  assert.deepEqual([...watcher.pending().specs], [['pets', [shared]], ['store', [shared]]]);
});

test('a file that is not there yet is reported once it appears', async () => {
  const { dir, changes, watcher } = setup();
  const late = join(dir, 'late.yaml');
  watcher.setFiles(new Map([[late, ['late']]]));
  await watcher.ready();
  writeFileSync(late, 'a: 1\n');
  await until(() => changes.length > 0, 10_000, 'the new file reported');
  assert.deepEqual(changes[0], [late, ['late']]);
  assert.deepEqual([...watcher.pending().specs], [['late', [late]]]);
});

test('with a delay of 50 ms a change is reported well before chokidar\'s default quiet time of 2 s', async () => {
  const { dir, changes, watcher } = setup(50);
  const spec = join(dir, 'spec.yaml');
  writeFileSync(spec, 'a: 1\n');
  watcher.setFiles(new Map([[spec, ['spec']]]));
  await watcher.ready();
  const start = Date.now();
  writeFileSync(spec, 'a: 2\n');
  await until(() => changes.length > 0, 10_000, 'the change reported');
  assert.ok(Date.now() - start < 1900, `reported after ${Date.now() - start} ms`);
});
