// Snapshots through the daemon's real loader: the import worker thread, real files, a real cache
// folder. A spec served from its snapshot must be exactly what a fresh import serves; a stale,
// damaged or unwritable snapshot must end in the fresh import and a note that says why.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { FileDigests } from '../../src/daemon/digests.ts';
import { loadNote } from '../../src/daemon/load-notes.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { importSpec, type ImportOptions } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { pruneSnapshots, readSnapshot, snapshotKey } from '../../src/snapshot/index.ts';
import { CORPUS } from '../search/harness.ts';
import { served, temp } from './support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const VERSION = '1.2.3';
const loaders: SpecLoader[] = [];
after(async () => {
  await Promise.all(loaders.map((l) => l.close()));
});

function loader(dir: string, svcVersion = VERSION): SpecLoader {
  const l = new SpecLoader({ dir, svcVersion, digests: new FileDigests() });
  loaders.push(l);
  return l;
}

const opts = (name: string, extra: Partial<ImportOptions> = {}): ImportOptions => ({ name, collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024, ...extra });

/** Loads as the daemon does at start (snapshot first) and returns the spec with its note. */
async function start(l: SpecLoader, file: string, options: ImportOptions): Promise<{ spec: ImportedSpec; note: string }> {
  const outcome = await l.load(file, options, true);
  assert.ok(outcome.ok, `load failed: ${JSON.stringify(outcome)}`);
  // Served before its snapshot is written: the note is final once the worker's late part is in.
  await l.settled();
  return { spec: outcome.spec, note: loadNote(outcome.spec) ?? '' };
}

async function fresh(file: string, options: ImportOptions): Promise<unknown> {
  const outcome = await importSpec(file, options);
  assert.ok(outcome.ok);
  return served(outcome.spec);
}

const SPECS: readonly [name: string, file: string][] = [
  ['multi-file (external $refs)', path.join(FIXTURES, 'multi-file/openapi.yaml')],
  ['swagger 2.0 forms', path.join(FIXTURES, 'swagger20-forms/swagger.yaml')],
  ['postman bodies', path.join(FIXTURES, 'postman-bodies/collection.json')],
  ['oas 3.1 webhooks', path.join(FIXTURES, 'oas31-webhooks/openapi.json')],
  ['circular schemas', path.join(FIXTURES, 'circular/openapi.json')],
  ...(existsSync(CORPUS)
    ? ([
        ['Stripe 2018 (real, circular)', path.join(CORPUS, 'openapi-3.0/stripe/2018-08-03/spec3.json')],
        ['Box (real)', path.join(CORPUS, 'openapi-3.0/box/openapi.json')],
      ] as [string, string][])
    : []),
];

describe('a spec served from its snapshot', () => {
  for (const [label, file] of SPECS) {
    it(`is what a fresh import serves: ${label}`, { skip: existsSync(file) ? false : `${file} is missing` }, async (t) => {
      const tmp = temp();
      t.after(() => tmp.cleanup());
      const cache = path.join(tmp.dir, 'cache');
      const first = await start(loader(cache), file, opts('s'));
      assert.equal(first.note, 'rebuilt: no snapshot yet; snapshot saved');
      // A new loader is a new daemon start.
      const second = await start(loader(cache), file, opts('s'));
      assert.equal(second.note, 'loaded from snapshot');
      const want = await fresh(file, opts('s'));
      assert.deepEqual(served(second.spec), want);
      assert.deepEqual(served(first.spec), want);
    });
  }
  if (!existsSync(CORPUS)) it('real descriptions', { skip: `the shared corpus (${CORPUS}) is absent` }, () => {});
});

describe('a snapshot that no longer fits is rebuilt from the files, and the note says why', () => {
  it('a changed spec file', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const file = tmp.copy(path.join(FIXTURES, 'oas30-params/openapi.yaml'), 'api.yaml');
    const cache = path.join(tmp.dir, 'cache');
    await start(loader(cache), file, opts('p'));
    writeFileSync(file, readFileSync(file, 'utf8').replace(/summary: (.*)/, 'summary: Renamed in place'));
    const again = await start(loader(cache), file, opts('p'));
    assert.equal(again.note, 'rebuilt: files changed since the snapshot; snapshot saved');
    assert.deepEqual(served(again.spec), await fresh(file, opts('p')));
    assert.ok(again.spec.endpoints.some((e) => e.summary === 'Renamed in place'));
    assert.equal((await start(loader(cache), file, opts('p'))).note, 'loaded from snapshot');
  });

  it('a changed file an external $ref reads', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const root = tmp.copy(path.join(FIXTURES, 'multi-file'), 'mf');
    const file = path.join(root, 'openapi.yaml');
    const cache = path.join(tmp.dir, 'cache');
    const first = await start(loader(cache), file, opts('m'));
    const external = first.spec.files.find((f) => f !== first.spec.file && f.endsWith('.yaml'));
    assert.ok(external, 'the fixture reads another file');
    writeFileSync(external, `${readFileSync(external, 'utf8')}\n# edited\n`);
    const again = await start(loader(cache), file, opts('m'));
    assert.equal(again.note, 'rebuilt: files changed since the snapshot; snapshot saved');
    assert.deepEqual(served(again.spec), await fresh(file, opts('m')));
  });

  it('a changed config entry (name, collection, $ref folders, size limit) and a new svc version', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const file = path.join(FIXTURES, 'oas30-params/openapi.yaml');
    const cache = path.join(tmp.dir, 'cache');
    await start(loader(cache), file, opts('p'));
    for (const changed of [opts('q'), opts('p', { collection: 'other' }), opts('p', { allowRefsFrom: [tmp.dir] }), opts('p', { maxSpecBytes: 1_000_000 })]) {
      const again = await start(loader(cache), file, changed);
      assert.equal(again.note, 'rebuilt: no snapshot yet; snapshot saved', JSON.stringify(changed));
      assert.deepEqual(served(again.spec), await fresh(file, changed));
    }
    const upgraded = await start(loader(cache, '9.9.9'), file, opts('p'));
    assert.equal(upgraded.note, 'rebuilt: no snapshot yet; snapshot saved');
    assert.equal((await start(loader(cache), file, opts('p'))).note, 'loaded from snapshot');
  });
});

describe('a damaged snapshot', () => {
  it('truncated, edited, padded or replaced anywhere: the catalogue is the fresh import, never a crash', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const file = path.join(FIXTURES, 'multi-file/openapi.yaml');
    const cache = path.join(tmp.dir, 'cache');
    const want = await fresh(file, opts('m'));
    await start(loader(cache), file, opts('m'));
    const snap = path.join(cache, readdirSync(cache).find((f) => f.endsWith('.snap'))!);
    const good = readFileSync(snap);
    const read = await readSnapshot(cache, snapshotKey({ svcVersion: VERSION, importKey: JSON.stringify([file, opts('m')]) }));
    assert.ok(read.ok);
    const detailAt = read.detailOffset;
    const damage = fc.oneof(
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat({ max: good.length - 1 }) }),
      fc.record({ kind: fc.constant('flip' as const), at: fc.nat({ max: good.length - 1 }), bits: fc.integer({ min: 1, max: 255 }) }),
      fc.record({ kind: fc.constant('append' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
      fc.record({ kind: fc.constant('replace' as const), bytes: fc.uint8Array({ maxLength: 256 }) }),
    );
    await fc.assert(
      fc.asyncProperty(damage, async (d) => {
        let bytes: Buffer;
        if (d.kind === 'truncate') bytes = good.subarray(0, d.at);
        else if (d.kind === 'flip') {
          bytes = Buffer.from(good);
          bytes[d.at] = bytes[d.at]! ^ d.bits;
        } else if (d.kind === 'append') bytes = Buffer.concat([good, d.bytes]);
        else bytes = Buffer.from(d.bytes);
        writeFileSync(snap, bytes);
        const got = await start(loader(cache), file, opts('m'));
        assert.deepEqual(served(got.spec), want);
        // Damage to the header or the core is caught before anything is served from it; damage to
        // the detail (the documents) is caught when a schema is read, which then comes from the file.
        if (d.kind !== 'flip' || d.at < detailAt) assert.match(got.note, /^rebuilt: snapshot damaged \(.+\); snapshot saved$/);
        writeFileSync(snap, good);
      }),
      { numRuns: 12 },
    );
  });
});

describe('a cache folder that cannot be written', () => {
  it('the spec serves from the import and the note says the snapshot was not saved', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const blocker = path.join(tmp.dir, 'not-a-folder');
    writeFileSync(blocker, 'a file where the cache folder should be');
    const file = path.join(FIXTURES, 'multi-file/openapi.yaml');
    const got = await start(loader(path.join(blocker, 'snapshots')), file, opts('m'));
    assert.match(got.note, /^rebuilt: snapshot damaged \(cannot open: ENOTDIR\); snapshot not saved: ENOTDIR/);
    assert.deepEqual(served(got.spec), await fresh(file, opts('m')));
  });

  it('the folder is made private (0700) and the file is the user\'s alone (0600)', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const cache = path.join(tmp.dir, 'deep', 'cache');
    mkdirSync(path.dirname(cache), { recursive: true });
    await start(loader(cache), path.join(FIXTURES, 'oas30-params/openapi.yaml'), opts('p'));
    assert.equal(statSync(cache).mode & 0o777, 0o700);
    for (const f of readdirSync(cache)) assert.equal(statSync(path.join(cache, f)).mode & 0o777, 0o600, f);
  });
});

describe('old snapshots', () => {
  it('those unused for 30 days and dead temp files go; used ones, recent ones and files not ours stay', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const cache = path.join(tmp.dir, 'cache');
    const file = path.join(FIXTURES, 'oas30-params/openapi.yaml');
    await start(loader(cache), file, opts('p'));
    const [used] = readdirSync(cache);
    const day = 24 * 3600 * 1000;
    const old = new Date(Date.now() - 40 * day);
    utimesSync(path.join(cache, used!), old, old);
    // A start that uses it marks it used again.
    assert.equal((await start(loader(cache), file, opts('p'))).note, 'loaded from snapshot');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stale = `${'a'.repeat(40)}.snap`;
    const deadTemp = `.${'b'.repeat(40)}.123.cafebabe.tmp`;
    const foreign = 'notes.txt';
    for (const name of [stale, deadTemp, foreign]) {
      writeFileSync(path.join(cache, name), 'x');
      utimesSync(path.join(cache, name), old, old);
    }
    assert.equal(await pruneSnapshots(cache), 2);
    assert.deepEqual(readdirSync(cache).sort(), [used!, foreign].sort());
  });
});
