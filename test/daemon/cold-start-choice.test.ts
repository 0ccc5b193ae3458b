// Which specs a cold start sends ahead and which snapshots it reads ahead (src/daemon/cold-start.ts),
// from its contract over generated starts: among the first 8 specs in config order, a spec whose
// snapshot file is there has it read, one without has its import sent to the worker, at most 2 of
// each, and it stops looking once both are full (with snapshots off: once 2 imports are sent).
// The loader takes each job and each read once. Real snapshot folder and real pool (closed at once,
// so the jobs come back without a worker: which jobs were sent is what this checks).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import fc from 'fast-check';
import { ColdStart, type StartSpec } from '../../src/daemon/cold-start.ts';
import type { ImportOptions } from '../../src/import/index.ts';
import { snapshotFile, snapshotKey } from '../../src/snapshot/index.ts';

const VERSION = '7.0.0';
const FILE = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');
const opts = (name: string): ImportOptions => ({ name, collection: 'default' });
const keyOf = (s: StartSpec) => snapshotKey({ svcVersion: VERSION, importKey: JSON.stringify([s.file, s.options]) });

/** What the contract says is sent and read ahead, in order. */
function expected(snapshots: boolean, has: readonly boolean[]): { jobs: number[]; reads: number[] } {
  const jobs: number[] = [];
  const reads: number[] = [];
  for (const [i, there] of has.slice(0, 8).entries()) {
    if (jobs.length >= 2 && (!snapshots || reads.length >= 2)) break;
    if (snapshots && there) {
      if (reads.length < 2) reads.push(i);
    } else if (jobs.length < 2) jobs.push(i);
  }
  return { jobs, reads };
}

it('reads the first snapshots that are there and sends the first specs without one, at most two of each, among the first eight', async () => {
  await fc.assert(
    fc.asyncProperty(fc.boolean(), fc.array(fc.boolean(), { maxLength: 12 }), async (snapshots, has) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'svc-ahead-'));
      try {
        const specs = has.map((_, i) => ({ file: FILE, options: opts(`s${i}`) }));
        // Only whether the file is there counts here; what a read finds is the loader's to judge.
        for (const [i, there] of has.entries()) if (there) writeFileSync(snapshotFile(dir, keyOf(specs[i]!)), 'x');
        const cold = new ColdStart();
        cold.begin(snapshots ? dir : undefined, VERSION, specs);
        const closed = cold.pool.close();
        const want = expected(snapshots, has);
        const taken: Promise<unknown>[] = [];
        for (const [i, s] of specs.entries()) {
          const job = cold.take(keyOf(s));
          const read = cold.takeRead(keyOf(s));
          assert.equal(job !== undefined, want.jobs.includes(i), `spec ${i} sent ahead`);
          assert.equal(read !== undefined, want.reads.includes(i), `spec ${i} read ahead`);
          assert.equal(cold.take(keyOf(s)), undefined, 'taken once');
          assert.equal(cold.takeRead(keyOf(s)), undefined, 'taken once');
          if (job) taken.push(job.then((r) => assert.equal(r.kind, 'inline')));
          if (read) taken.push(read.then((r) => assert.equal(r.ok, false)));
        }
        await Promise.all([...taken, closed]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: 60 },
  );
});
