// With SVC_TRACE_START=1 the loader, the import pool and the import worker's job handling each
// trace their steps of a start, in order (test/daemon/start-trace.test.ts reads them off a real
// daemon; this is the same in this process). The trace is read once, when its module loads, so
// every module here is loaded after the setting and after stderr is watched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { after, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import type { WorkerMessage } from '../../src/daemon/import-pool.ts';

const original = fs.writeSync;
let lines: string[] = [];
fs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
  if (fd === 2 && String(data).startsWith('svc-trace ')) {
    lines.push(String(data));
    return String(data).length;
  }
  return (original as (...a: unknown[]) => number)(fd, data, ...rest);
}) as typeof fs.writeSync;
syncBuiltinESMExports();
const before = process.env['SVC_TRACE_START'];
process.env['SVC_TRACE_START'] = '1';
const { SpecLoader } = await import('../../src/daemon/loader.ts');
const { FileDigests } = await import('../../src/daemon/digests.ts');
const { ImportPool, prestartImportWorker } = await import('../../src/daemon/import-pool.ts');
const { serveJobs } = await import('../../src/daemon/import-worker.ts');
const { temp } = await import('../snapshot/support.ts');
// The worker threads started below trace nothing of their own (they would write to the real stderr).
if (before === undefined) delete process.env['SVC_TRACE_START'];
else process.env['SVC_TRACE_START'] = before;

const tmp = temp();
after(() => {
  fs.writeSync = original;
  syncBuiltinESMExports();
  tmp.cleanup();
});
const FILE = path.resolve(import.meta.dirname, '../fixtures/import/multi-file/openapi.yaml');
const OPTIONS = { name: 'm', collection: 'default' };

/** The steps traced since the last call, without their times. */
function steps(): string[] {
  const out = lines.map((l) => /^svc-trace \d+\.\d main (.+?)(?: \(cpu \d+\))?\n$/.exec(l)?.[1] ?? `unreadable: ${l}`);
  lines = [];
  return out;
}

it('the import worker traces loading its modules, then each step of a job', async () => {
  assert.deepEqual(steps(), ['worker modules loaded']);
  const { port1, port2 } = new MessageChannel();
  serveJobs(port1);
  const replies: WorkerMessage[] = [];
  const done = new Promise<void>((resolve) =>
    port2.on('message', (m: WorkerMessage) => {
      replies.push(m);
      if (m.kind === 'late') resolve();
    }),
  );
  port2.postMessage({ id: 1, file: FILE, options: OPTIONS, snapshot: { dir: path.join(tmp.dir, 'jobs'), key: 'k' } });
  await done;
  port1.close();
  assert.deepEqual(steps(), ['job received', 'imported', 'index built', 'core encoded', 'late encoded', 'snapshot written']);
});

it('the loader traces a cold start and a warm one, and the pool where its worker came from', async () => {
  const dir = path.join(tmp.dir, 'cache');
  const cold = new SpecLoader({ dir, svcVersion: '1', digests: new FileDigests() });
  assert.ok((await cold.load(FILE, OPTIONS, true)).ok);
  await cold.settled();
  await cold.close();
  assert.deepEqual(steps(), ['snapshot read start', 'snapshot read', 'worker starting', 'reply received', 'core decoded', 'spec prepared', 'late part applied']);

  const warm = new SpecLoader({ dir, svcVersion: '1', digests: new FileDigests() });
  assert.ok((await warm.load(FILE, OPTIONS, true)).ok);
  await warm.close();
  assert.deepEqual(steps(), ['snapshot read start', 'snapshot read', 'snapshot decoded']);

  prestartImportWorker();
  assert.deepEqual(steps(), ['worker starting ahead']);
  const pool = new ImportPool();
  const reply = await pool.run(FILE, OPTIONS);
  if (reply.kind === 'built') await reply.late;
  await pool.close();
  assert.deepEqual(steps(), ['worker taken (started ahead)']);
});
