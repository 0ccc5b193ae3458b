// A snapshot stores an index's postings in the lean form the daemon searches them in (terms, then
// starts, document ids and counts as little-endian numbers). Read back, they are the postings the
// index was built with, MiniSearch's serialized form made from them is the built one, and a search
// over the index loaded from them ranks as one over the built index does.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { indexImage } from '../../src/catalog/catalog.ts';
import { leanPostings } from '../../src/catalog/lean-mini.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { importSpec } from '../../src/import/index.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import { decodeCore, encodeCore } from '../../src/snapshot/index.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const OPTIONS = { name: 's', collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 };

async function imported(fixture: string) {
  const outcome = await importSpec(path.join(FIXTURES, fixture), OPTIONS);
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  const docs = (spec.schemas as DocumentSchemaResolver).documents;
  const image = indexImage(spec);
  const core = encodeCore(spec, (f) => docs.doc(f), image, spec.files.map((f) => docs.digest(f) ?? ''));
  return { spec, image, core };
}

type Mini = Exclude<ReturnType<typeof indexImage>['mini'], () => unknown>;
const built = (image: ReturnType<typeof indexImage>): Mini => (typeof image.mini === 'function' ? image.mini() : image.mini);

describe('lean postings in a snapshot', () => {
  for (const fixture of ['swagger20-azure/storage.json', 'oas31-webhooks/openapi.json', 'multi-file/openapi.yaml']) {
    it(`read back as the index was built: ${fixture}`, async () => {
      const { image, core } = await imported(fixture);
      const decoded = await decodeCore(core);
      const mini = decoded.index.mini as (() => Mini) & { lean(): { postings: ReturnType<typeof leanPostings> } | undefined };
      const want = built(image);
      const fields = Object.keys(want.fieldIds).length;
      const lean = mini.lean();
      assert.ok(lean);
      assert.deepEqual(lean.postings, leanPostings(want.index, fields, want.documentCount));
      assert.deepEqual(JSON.parse(JSON.stringify(mini())), JSON.parse(JSON.stringify(want)));
    });
  }

  it('give the same ranking, score for score, as the index they were made from', async () => {
    const { spec, core } = await imported('swagger20-azure/storage.json');
    const decoded = await decodeCore(core);
    const fresh = new SpecState(spec);
    const restored = new SpecState(spec, decoded.index);
    let answered = 0;
    for (const q of ['list containers', 'get blob properties', 'delete a share', 'acl', 'lease blob', 'contai', 'storage account keys']) {
      const rank = (state: SpecState) => state.index.rank(parseQuery(q), { limit: 20, accept: () => true, all: true }).map((r) => [r.entry.endpoint.id, r.score]);
      const want = rank(fresh);
      if (want.length > 0) answered++;
      assert.deepEqual(rank(restored), want, q);
    }
    assert.ok(answered >= 3, `only ${answered} queries found something`);
  });

  it('refuse numbers that do not agree with the terms', async () => {
    const { core } = await imported('oas31-webhooks/openapi.json');
    // The last part is the numbers: cut one byte off it (and off the frame's length of it).
    const count = core.readUInt32LE(0);
    const cut = Buffer.from(core.subarray(0, core.length - 1));
    cut.writeUInt32LE(core.readUInt32LE(4 * count) - 1, 4 * count);
    const decoded = await decodeCore(cut);
    const mini = decoded.index.mini as unknown as { lean(): unknown };
    assert.throws(() => mini.lean(), /postings do not agree/);
  });
});
