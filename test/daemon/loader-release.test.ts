// At start the loader lets the import worker go as soon as the start's imports are done (the
// daemon then decodes and serves without the worker's heap on top: a lower peak), whether the
// import succeeded or failed; an update keeps the worker for the imports that tend to follow. With
// the real worker thread, real spec files and a real snapshot folder, in this process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { ColdStart } from '../../src/daemon/cold-start.ts';
import { FileDigests } from '../../src/daemon/digests.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { temp } from '../snapshot/support.ts';

const GOOD = path.resolve(import.meta.dirname, '../fixtures/import/multi-file/openapi.yaml');
const tmp = temp();
const BAD = path.join(tmp.dir, 'bad.yaml');
writeFileSync(BAD, 'openapi: 3.0.3\ninfo: [\n');
const closing: SpecLoader[] = [];
after(async () => {
  for (const l of closing) await l.close();
  tmp.cleanup();
});

function loader(dir: string): { loader: SpecLoader; cold: ColdStart } {
  const cold = new ColdStart();
  const l = new SpecLoader({ dir, svcVersion: '1.0.0', digests: new FileDigests(), coldStart: cold });
  closing.push(l);
  return { loader: l, cold };
}

for (const [label, file, ok] of [['a good import', GOOD, true], ['a failed import', BAD, false]] as const) {
  it(`lets the worker go at start once ${label} is done, at once rather than after its idle time; an update keeps it`, async () => {
    const start = loader(path.join(tmp.dir, `start-${ok}`));
    assert.equal((await start.loader.load(file, { name: 'r', collection: 'default' }, true)).ok, ok);
    await start.loader.settled();
    assert.equal(start.cold.pool.running, false, 'let go at start');

    const update = loader(path.join(tmp.dir, `update-${ok}`));
    assert.equal((await update.loader.load(file, { name: 'r', collection: 'default' }, false)).ok, ok);
    await update.loader.settled();
    assert.equal(update.cold.pool.running, true, 'kept after an update');
  });
}
