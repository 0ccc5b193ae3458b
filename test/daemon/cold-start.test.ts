// A cold start sends the specs without a snapshot to the import worker before the loader's own
// modules load (src/daemon/cold-start.ts); the loader then serves that job's reply. Through the real
// worker thread, real files and a real cache folder: what is served must be what a fresh import
// serves, the note must say why it was imported, and a warm start must start no worker at all.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ColdStart } from '../../src/daemon/cold-start.ts';
import { FileDigests } from '../../src/daemon/digests.ts';
import { loadNote } from '../../src/daemon/load-notes.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { importSpec, type ImportOptions } from '../../src/import/index.ts';
import { snapshotFile, snapshotKey } from '../../src/snapshot/index.ts';
import { served, temp } from '../snapshot/support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const VERSION = '9.9.9';
const opts = (name: string): ImportOptions => ({ name, collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 });
const SPECS = [
  { file: path.join(FIXTURES, 'multi-file/openapi.yaml'), options: opts('multi') },
  { file: path.join(FIXTURES, 'swagger20-forms/swagger.yaml'), options: opts('forms') },
  { file: path.join(FIXTURES, 'postman-bodies/collection.json'), options: opts('postman') },
];
const keyOf = (s: (typeof SPECS)[number]) => snapshotKey({ svcVersion: VERSION, importKey: JSON.stringify([s.file, s.options]) });

/** The pool starts a job's worker once the jobs before it are done (a promise step). */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const closing: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closing) await close();
});

function start(dir: string | undefined): { cold: ColdStart; loader: SpecLoader } {
  const cold = new ColdStart();
  const loader = new SpecLoader({ dir, svcVersion: VERSION, digests: new FileDigests(), coldStart: cold });
  closing.push(() => loader.close(), () => cold.pool.close());
  return { cold, loader };
}

async function fresh(s: (typeof SPECS)[number]): Promise<unknown> {
  const outcome = await importSpec(s.file, s.options);
  assert.ok(outcome.ok);
  return served(outcome.spec);
}

describe('a cold start', () => {
  it('sends the first specs without a snapshot ahead, and the loader serves their replies as a fresh import', async () => {
    const t = temp();
    try {
      const { cold, loader } = start(t.dir);
      cold.begin(t.dir, VERSION, SPECS);
      await tick();
      assert.ok(cold.pool.running, 'the worker starts at once');
      for (const [i, s] of SPECS.entries()) {
        // Two are sent ahead (their replies wait in memory); the third is the loader's own import.
        const ahead = i < 2;
        const outcome = await loader.load(s.file, s.options, true);
        assert.ok(outcome.ok);
        await loader.settled();
        assert.equal(loadNote(outcome.spec), 'rebuilt: no snapshot yet; snapshot saved', s.file);
        assert.deepEqual(served(outcome.spec), await fresh(s), s.file);
        assert.ok(existsSync(snapshotFile(t.dir, keyOf(s))), `snapshot written for ${s.file}`);
        assert.equal(cold.take(keyOf(s)), undefined, `a job sent ahead is taken once (${ahead ? 'sent ahead' : 'not sent'})`);
      }
    } finally {
      t.cleanup();
    }
  });

  it('starts no worker when every snapshot is there, reads the first snapshots ahead, and the specs come from them', async () => {
    const t = temp();
    try {
      const first = start(t.dir);
      for (const s of SPECS) assert.ok((await first.loader.load(s.file, s.options, true)).ok);
      await first.loader.close();
      const { cold, loader } = start(t.dir);
      cold.begin(t.dir, VERSION, SPECS);
      await tick();
      assert.equal(cold.pool.running, false, 'a warm start starts no worker');
      for (const [i, s] of SPECS.entries()) {
        assert.equal(cold.take(keyOf(s)), undefined);
        const outcome = await loader.load(s.file, s.options, true);
        assert.ok(outcome.ok);
        assert.equal(loadNote(outcome.spec), 'loaded from snapshot');
        assert.deepEqual(served(outcome.spec), await fresh(s), s.file);
        // The first two snapshots were read ahead; the loader took those reads (each once).
        assert.equal(cold.takeRead(keyOf(s)), undefined, `read ahead ${i < 2 ? 'and taken' : 'not'}`);
      }
    } finally {
      t.cleanup();
    }
  });

  it('looks at the first specs only: a hub of specs is not stat-ed one by one before anything loads', async () => {
    const t = temp();
    try {
      const file = SPECS[2]!.file;
      const many = Array.from({ length: 12 }, (_, i) => ({ file, options: opts(`copy${i}`) }));
      const first = start(t.dir);
      // Snapshots for the first ten; the last two have none, but lie beyond the ones looked at.
      for (const s of many.slice(0, 10)) assert.ok((await first.loader.load(s.file, s.options, true)).ok);
      await first.loader.close();
      const { cold } = start(t.dir);
      cold.begin(t.dir, VERSION, many);
      await tick();
      assert.equal(cold.pool.running, false, 'no import sent for a spec past the first ones');
      for (const s of many.slice(10)) assert.equal(cold.take(keyOf(s)), undefined);
    } finally {
      t.cleanup();
    }
  });

  it('a snapshot read ahead that turns out damaged is rebuilt from the file, and the note says why', async () => {
    const t = temp();
    try {
      const s = SPECS[0]!;
      const first = start(t.dir);
      assert.ok((await first.loader.load(s.file, s.options, true)).ok);
      await first.loader.close();
      const file = snapshotFile(t.dir, keyOf(s));
      writeFileSync(file, readFileSync(file).subarray(0, 100));
      const { cold, loader } = start(t.dir);
      cold.begin(t.dir, VERSION, [s]);
      const outcome = await loader.load(s.file, s.options, true);
      assert.ok(outcome.ok);
      await loader.settled();
      assert.match(loadNote(outcome.spec) ?? '', /^rebuilt: snapshot damaged \(.+\); snapshot saved$/);
      assert.deepEqual(served(outcome.spec), await fresh(s));
    } finally {
      t.cleanup();
    }
  });

  it('with snapshots off sends the first specs ahead and serves them with the note that says so', async () => {
    const { cold, loader } = start(undefined);
    cold.begin(undefined, VERSION, SPECS);
    await tick();
    assert.ok(cold.pool.running);
    const s = SPECS[0]!;
    const outcome = await loader.load(s.file, s.options, true);
    assert.ok(outcome.ok);
    // Served before the worker's late part came, and no snapshot to wait for.
    assert.equal(loadNote(outcome.spec), 'snapshots off; no snapshot');
    await loader.settled();
    assert.equal(loadNote(outcome.spec), 'snapshots off; no snapshot');
    assert.deepEqual(served(outcome.spec), await fresh(s));
  });

  it('a job sent ahead for a spec that fails to import comes back as that failure, with its diagnostics', async () => {
    const t = temp();
    try {
      const { cold, loader } = start(t.dir);
      const bad = { file: path.join(t.dir, 'missing.yaml'), options: opts('missing') };
      cold.begin(t.dir, VERSION, [bad]);
      const outcome = await loader.load(bad.file, bad.options, true);
      assert.equal(outcome.ok, false);
      assert.ok(!outcome.ok && outcome.errors.some((e) => e.message.includes('missing.yaml') || e.file === bad.file), JSON.stringify(outcome));
    } finally {
      t.cleanup();
    }
  });
});
