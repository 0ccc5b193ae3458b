// The import worker's lifetime (src/daemon/import-pool.ts): at start the daemon ends the worker as
// soon as no import is queued or running (a job runs until its late part, the snapshot, is done),
// so its heap is given back; while jobs wait, it stays.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ImportPool } from '../../src/daemon/import-pool.ts';
import type { ImportOptions } from '../../src/import/index.ts';

const SPEC = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');
const options = (name: string): ImportOptions => ({ name, collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 });

describe('import worker lifetime', () => {
  it('release ends an idle worker at once, and the next job starts a new one', async () => {
    const pool = new ImportPool();
    try {
      const built = await pool.run(SPEC, options('a'));
      assert.equal(built.kind, 'built');
      pool.release();
      assert.equal(pool.running, true, 'a job whose late part is not done keeps the worker');
      await pool.idle();
      assert.equal(pool.running, true, 'the worker waits for more work after a job');
      pool.release();
      assert.equal(pool.running, false);
      assert.equal((await pool.run(SPEC, options('b'))).kind, 'built');
    } finally {
      await pool.close();
    }
  });

  it('release leaves the worker up while a job is queued or running', async () => {
    const pool = new ImportPool();
    try {
      const first = pool.run(SPEC, options('a'));
      const second = pool.run(SPEC, options('b'));
      assert.equal((await first).kind, 'built');
      pool.release();
      assert.equal(pool.running, true, 'a queued job keeps the worker');
      assert.equal((await second).kind, 'built');
      await pool.idle();
      pool.release();
      assert.equal(pool.running, false);
    } finally {
      await pool.close();
    }
  });
});
