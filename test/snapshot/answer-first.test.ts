// A spec the import worker built is served as soon as its core comes; its detail (the documents)
// and its snapshot file come after. Meanwhile its schemas are read from the source files, and only
// while those still hold the bytes it was imported from; once the detail comes, from the detail.
// The loader says `saving snapshot` until the file is written, and a restart then loads it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { indexImage } from '../../src/catalog/catalog.ts';
import { FileDigests } from '../../src/daemon/digests.ts';
import { fingerprintList } from '../../src/daemon/diff.ts';
import { loadNote } from '../../src/daemon/load-notes.ts';
import { ColdStart } from '../../src/daemon/cold-start.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { importSpec } from '../../src/import/index.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { decodeCore, encodeCore, encodeLate, settleDetail, specFromCore, writeSnapshot } from '../../src/snapshot/index.ts';
import { served, temp } from './support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const OPTIONS = { name: 's', collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 };
const loaders: SpecLoader[] = [];
after(async () => {
  await Promise.all(loaders.map((l) => l.close()));
});

/** Core and late part of a fresh import, as the worker makes them, and what the import serves. */
async function built(file: string) {
  const outcome = await importSpec(file, OPTIONS);
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  const docs = (spec.schemas as DocumentSchemaResolver).documents;
  const digests = spec.files.map((f) => docs.digest(f) ?? '');
  const core = encodeCore(spec, (f) => docs.doc(f), indexImage(spec), digests);
  const late = encodeLate(spec, (f) => docs.doc(f), fingerprintList(spec));
  return { core, late, want: served(spec) };
}

describe('a spec served from its core before its detail comes', () => {
  for (const [label, fixture] of [
    ['one file', 'oas31-webhooks/openapi.json'],
    ['several files (external $refs)', 'multi-file/openapi.yaml'],
  ] as const) {
    it(`serves what the import serves, before and after its detail comes: ${label}`, async (t) => {
      const tmp = temp();
      t.after(() => tmp.cleanup());
      const file = path.join(tmp.copy(path.dirname(path.join(FIXTURES, fixture)), 'spec'), path.basename(fixture));
      const { core, late, want } = await built(file);
      const pending = specFromCore(await decodeCore(new Uint8Array(core)), undefined);
      assert.deepEqual(served(pending), want, 'before the detail: schemas from the source files');

      const inMemory = specFromCore(await decodeCore(new Uint8Array(core)), undefined);
      settleDetail(inMemory, { bytes: late.detail, parts: late.parts });
      assert.deepEqual(served(inMemory), want, 'detail in memory');

      const written = await writeSnapshot(path.join(tmp.dir, 'cache'), 'k', core, late);
      const inFile = specFromCore(await decodeCore(new Uint8Array(core)), undefined);
      settleDetail(inFile, written);
      assert.deepEqual(served(inFile), want, 'detail and postings in the snapshot file');
    });
  }

  it('never serves schemas from a source file that changed before its detail came', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const file = tmp.copy(path.join(FIXTURES, 'oas31-webhooks/openapi.json'), 'openapi.json');
    const { core, late } = await built(file);
    const pending = specFromCore(await decodeCore(new Uint8Array(core)), undefined);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/"type": "string"/g, '"type": "boolean"'));
    const link = pending.endpoints.flatMap((e) => [...e.parameters.map((p) => p.schema), ...e.responses.map((r) => r.schema)]).find((l) => l !== undefined);
    assert.ok(link, 'the fixture has a schema link');
    assert.match(JSON.stringify(link.node), /\$unresolved/);
    // The detail, once it comes, is what the spec was imported from (its sha256 as the worker made it).
    const settled = specFromCore(await decodeCore(new Uint8Array(core)), undefined);
    settleDetail(settled, { bytes: late.detail, parts: late.parts });
    assert.doesNotMatch(JSON.stringify(settled.endpoints.flatMap((e) => e.responses.map((r) => r.schema?.node))), /\$unresolved/);
  });
});

/** The loader tests' set-up: a cache folder of the test's own, and the spec they load. */
function loaderCase(t: TestContext): { cache: string; file: string } {
  const tmp = temp();
  t.after(() => tmp.cleanup());
  return { cache: path.join(tmp.dir, 'cache'), file: path.join(FIXTURES, 'swagger20-forms/swagger.yaml') };
}

/** A new start over `cache` loads `file` from the snapshot an earlier one left; the spec it serves. */
async function nextStartLoadsSnapshot(cache: string, file: string): Promise<ImportedSpec> {
  const again = new SpecLoader({ dir: cache, svcVersion: '1', digests: new FileDigests() });
  loaders.push(again);
  const next = await again.load(file, OPTIONS, true);
  assert.ok(next.ok);
  assert.equal(loadNote(next.spec), 'loaded from snapshot');
  return next.spec;
}

describe('the loader at start', () => {
  it('serves a spec before its snapshot is written, says so until it is, and the next start loads it', async (t) => {
    const { cache, file } = loaderCase(t);
    const first = new SpecLoader({ dir: cache, svcVersion: '1', digests: new FileDigests() });
    loaders.push(first);
    const outcome = await first.load(file, OPTIONS, true);
    assert.ok(outcome.ok);
    // The worker may have written it already by the time this thread looks.
    assert.match(loadNote(outcome.spec) ?? '', /^rebuilt: no snapshot yet; (saving snapshot|snapshot saved)$/);
    await first.settled();
    assert.equal(loadNote(outcome.spec), 'rebuilt: no snapshot yet; snapshot saved');
    const next = await nextStartLoadsSnapshot(cache, file);
    assert.deepEqual(served(next), served(outcome.spec));
  });

  it('a daemon that stops right after serving still leaves the snapshot for the next start', async (t) => {
    const { cache, file } = loaderCase(t);
    const first = new SpecLoader({ dir: cache, svcVersion: '1', digests: new FileDigests() });
    assert.ok((await first.load(file, OPTIONS, true)).ok);
    await first.close();
    await nextStartLoadsSnapshot(cache, file);
  });

  it('a daemon that stops while an import is under way lets it write its snapshot (a client that lists the tools and hangs up)', async (t) => {
    const { cache, file } = loaderCase(t);
    const coldStart = new ColdStart();
    const first = new SpecLoader({ dir: cache, svcVersion: '1', digests: new FileDigests(), coldStart });
    const loading = first.load(file, OPTIONS, true);
    // Stop as soon as the import is in the worker's hands, before its reply.
    while (!coldStart.pool.running) await new Promise((resolve) => setImmediate(resolve));
    await first.close();
    await loading;
    await nextStartLoadsSnapshot(cache, file);
  });
});
