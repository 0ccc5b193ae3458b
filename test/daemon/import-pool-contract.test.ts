// The import worker pool from its contract, with the real worker thread and real spec files: a good
// spec comes back built, its core first and then its late part (its detail inline, or in the
// snapshot file it wrote, or inline with the write error), a bad one as the importer's failure,
// jobs in order; a closed pool, or one whose
// worker stops mid-job, answers `inline` with the reason, so the caller imports on its own thread.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ImportPool } from '../../src/daemon/import-pool.ts';
import { openapi } from './support.ts';

/** Starting a worker thread under load takes seconds; a job that never answers fails here. */
const HANG_MS = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'svc-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const good = join(dir, 'pets.yaml');
writeFileSync(good, openapi('Pets', [{ method: 'GET', path: '/pets' }]));
const bad = join(dir, 'bad.yaml');
writeFileSync(bad, 'openapi: 3.0.3\ninfo: [\n');
const options = (name: string) => ({ name, collection: 'default' });

describe('import pool', { timeout: HANG_MS }, () => {
  it('builds a good spec, fails a bad one, and answers jobs in the order they came', { timeout: HANG_MS }, async () => {
    const pool = new ImportPool();
    pool.warm();
    try {
      const order: number[] = [];
      const jobs = [pool.run(good, options('a')), pool.run(bad, options('b')), pool.run(good, options('c'))].map((p, i) => p.then((r) => (order.push(i), r)));
      const [a, b, c] = await Promise.all(jobs);
      assert.deepEqual(order, [0, 1, 2]);
      assert.ok(a!.kind === 'built' && a!.core.byteLength > 0);
      const aLate = await a!.late;
      assert.ok(aLate.detail !== undefined && aLate.prints !== undefined && aLate.written === undefined && aLate.writeError === undefined);
      assert.ok(b!.kind === 'failed' && !b!.outcome.ok && b!.outcome.errors.length > 0 && b!.outcome.file === bad);
      assert.ok(c!.kind === 'built');
      assert.ok(a!.id < b!.id && b!.id < c!.id);
    } finally {
      await pool.close();
    }
  });

  it('writes the snapshot when asked, and keeps the detail inline with the reason when it cannot', { timeout: HANG_MS }, async () => {
    const pool = new ImportPool();
    try {
      const snaps = join(dir, 'snaps');
      const built = await pool.run(good, options('a'), { dir: snaps, key: 'k1' });
      assert.ok(built.kind === 'built');
      const saved = await built.late;
      assert.equal(saved.detail, undefined);
      assert.ok(saved.written !== undefined && existsSync(saved.written.file));
      assert.equal(typeof saved.written.detailOffset, 'number');
      const blocked = join(dir, 'a-file');
      writeFileSync(blocked, '');
      const unbuilt = await pool.run(good, options('a'), { dir: blocked, key: 'k2' });
      assert.ok(unbuilt.kind === 'built');
      const unsaved = await unbuilt.late;
      assert.ok(unsaved.detail !== undefined && unsaved.written === undefined);
      assert.equal(typeof unsaved.writeError, 'string');
    } finally {
      await pool.close();
    }
  });

  it('a closed pool answers inline, and a job cut off by close comes back inline with why', { timeout: HANG_MS }, async () => {
    const pool = new ImportPool();
    const running = pool.run(good, options('a'));
    const queued = pool.run(good, options('b'));
    await new Promise((r) => setTimeout(r, 5));
    await pool.close();
    const first = await running;
    assert.ok(first.kind === 'inline' || first.kind === 'built', first.kind);
    if (first.kind === 'inline') assert.match(first.reason, /^the import worker (stopped \(exit \d+\)|failed: |is closed)/);
    // Built before the close: its late part comes all the same, made or with why not.
    if (first.kind === 'built') {
      const late = await first.late;
      assert.ok(late.detail !== undefined || /^the import worker (stopped \(exit \d+\)|failed: )/.test(late.writeError ?? ''), JSON.stringify(late.writeError));
    }
    const second = await queued;
    assert.deepEqual(second, { id: second.id, kind: 'inline', reason: 'the import worker is closed' });
    assert.deepEqual(await pool.run(good, options('c')), { id: 3, kind: 'inline', reason: 'the import worker is closed' });
    pool.warm(); // nothing to start once closed
    await pool.close();
  });
});
