// The import worker started ahead (src/daemon/import-pool.ts, prestartImportWorker): bin/svc.js
// starts it before anything else loads on a new build's first start. Through real worker threads:
// the first pool that needs a worker runs its job on that very thread, a start that needs none ends
// it, and one that died meanwhile is replaced, never waited for.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { ColdStart } from '../../src/daemon/cold-start.ts';
import { dropPrestartedWorker, ImportPool, prestartImportWorker } from '../../src/daemon/import-pool.ts';
import type { ImportOptions } from '../../src/import/index.ts';
import { within } from './support.ts';

const SPEC = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');
const options = (name: string): ImportOptions => ({ name, collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 });

/** Counts the messages a worker sends (the pool's replies to its jobs). */
function messages(worker: Worker): { count: number } {
  const seen = { count: 0 };
  worker.on('message', () => seen.count++);
  return seen;
}


describe('the import worker started ahead', () => {
  it("runs the first pool's job on the thread started ahead", async () => {
    const early = prestartImportWorker();
    const seen = messages(early);
    const pool = new ImportPool();
    try {
      const reply = await pool.run(SPEC, options('a'));
      assert.equal(reply.kind, 'built');
      await pool.idle();
      assert.ok(seen.count >= 2, 'the core and the late part came from the thread started ahead');
      const exited = once(early, 'exit');
      await pool.close();
      await within(exited, 'the thread ends with its pool');
    } finally {
      await pool.close();
    }
  });

  it('is ended when the start sends no job (every snapshot there), and is not left for a later pool', async () => {
    const early = prestartImportWorker();
    const exited = once(early, 'exit');
    const cold = new ColdStart();
    try {
      cold.begin(undefined, '9.9.9', []);
      await within(exited, 'the unused thread ends');
      const seen = messages(early);
      const reply = await cold.pool.run(SPEC, options('b'));
      assert.equal(reply.kind, 'built', 'a later job gets a thread of its own');
      assert.equal(seen.count, 0);
    } finally {
      await cold.pool.close();
    }
  });

  it('takes the thread for the jobs a cold start sends at once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-ahead-'));
    const early = prestartImportWorker();
    const seen = messages(early);
    const cold = new ColdStart();
    try {
      cold.begin(dir, '9.9.9', [{ file: SPEC, options: options('c') }]);
      await cold.pool.idle();
      assert.ok(seen.count >= 2, 'the job ran on the thread started ahead');
    } finally {
      await cold.pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is replaced when it ended before a pool needed it, and dropping twice is harmless', async () => {
    const early = prestartImportWorker();
    const exited = once(early, 'exit');
    await early.terminate();
    await exited;
    const pool = new ImportPool();
    try {
      assert.equal((await pool.run(SPEC, options('d'))).kind, 'built');
    } finally {
      await pool.close();
    }
    prestartImportWorker();
    await dropPrestartedWorker();
    await dropPrestartedWorker();
  });
});
