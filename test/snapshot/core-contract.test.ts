// What a core holds besides its endpoints (src/snapshot/codec.ts): the link table names each schema
// a link points to inside a document by its place there, one row per place (links to the same
// schema are the same number, so what holds them can be one shared value), and holds a copy only
// of a schema the importer made; the catalogue's entry facts and the index image as the encoder had
// them; and a spec with no endpoints at all is a core like any other.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { specImage } from '../../src/catalog/catalog.ts';
import { importSpec } from '../../src/import/index.ts';
import { lookupPointer } from '../../src/import/pointer.ts';
import type { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import type { ImportedSpec, SchemaLink } from '../../src/model/index.ts';
import { decodeCore, encodeCore, specFromCore } from '../../src/snapshot/index.ts';
import { served, temp } from './support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const FILES = ['oas30-params/openapi.yaml', 'multi-file/openapi.yaml', 'swagger20-forms/swagger.yaml', 'circular/openapi.json', 'postman-bodies/collection.json', 'oas31-webhooks/openapi.json'];
const tmp = temp();
after(() => tmp.cleanup());

async function imported(file: string): Promise<{ spec: ImportedSpec; docs: DocumentSchemaResolver['documents'] }> {
  const outcome = await importSpec(file, { name: 's', collection: 'default' });
  assert.ok(outcome.ok, file);
  return { spec: outcome.spec, docs: (outcome.spec.schemas as DocumentSchemaResolver).documents };
}

/** Every schema link of the spec's endpoints (parameters, bodies, responses), in order. */
function links(spec: ImportedSpec): SchemaLink[] {
  return spec.endpoints.flatMap((e) => [...e.parameters.map((p) => p.schema), ...(e.requestBody?.contents.map((c) => c.schema) ?? []), ...e.responses.map((r) => r.schema)]).filter((l): l is SchemaLink => l !== undefined);
}

/** The `$link` numbers of a decoded core's endpoints, in the same order as `links`. */
function rowNumbers(endpoints: readonly { parameters: readonly { schema?: unknown }[]; requestBody?: { contents: readonly { schema?: unknown }[] }; responses: readonly { schema?: unknown }[] }[]): number[] {
  return endpoints
    .flatMap((e) => [...e.parameters.map((p) => p.schema), ...(e.requestBody?.contents.map((c) => c.schema) ?? []), ...e.responses.map((r) => r.schema)])
    .filter((s) => s !== undefined)
    .map((s) => (s as { $link: number }).$link);
}

/** Objects reachable from `root`. */
function reachable(root: unknown): Set<object> {
  const seen = new Set<object>();
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    for (const x of Object.values(v)) stack.push(x);
  }
  return seen;
}

describe('a core\'s link table', () => {
  for (const rel of FILES) {
    it(`names a schema inside a document by its place, one row per place, a copy only of one the importer made: ${rel}`, async () => {
      const { spec, docs } = await imported(path.join(FIXTURES, rel));
      const { index, facts } = specImage(spec);
      const core = await decodeCore(new Uint8Array(encodeCore(spec, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''), facts)));
      const rows = JSON.parse(core.links.toString('utf8')) as [number, string | null, unknown?][];
      const numbers = rowNumbers(core.endpoints);
      const all = links(spec);
      assert.equal(numbers.length, all.length);
      const inDocument = new Map(spec.files.map((f) => [f, reachable(docs.doc(f))]));
      const rowOfNode = new Map<unknown, number>();
      all.forEach((link, i) => {
        const row = rows[numbers[i]!];
        assert.ok(row, `link ${i} has a row`);
        assert.equal(spec.files[row[0]], link.file, `link ${i}: its file`);
        const node = link.node;
        if (node !== null && typeof node === 'object' && inDocument.get(link.file)?.has(node)) {
          assert.equal(typeof row[1], 'string', `link ${i}: a place, not a copy`);
          const found = lookupPointer(docs.doc(link.file), row[1]!);
          assert.ok(found.found && found.value === node, `link ${i}: ${row[1]} is its schema`);
        } else {
          assert.equal(row[1], null, `link ${i}: a schema the importer made is held as a copy`);
          assert.deepEqual(row[2], JSON.parse(JSON.stringify(node ?? null)));
        }
        // The same schema, the same row.
        if (node !== null && typeof node === 'object') {
          const seen = rowOfNode.get(node);
          if (seen !== undefined) assert.equal(numbers[i], seen, `link ${i}: the row of its schema`);
          rowOfNode.set(node, numbers[i]!);
        }
      });
      // And no row more than the schemas linked.
      assert.equal(rows.length, new Set(numbers).size);
    });
  }
});

describe('a core', () => {
  it('holds the entry facts and the index image the encoder had', async () => {
    for (const rel of FILES) {
      const { spec, docs } = await imported(path.join(FIXTURES, rel));
      const { index, facts } = specImage(spec);
      const core = await decodeCore(new Uint8Array(encodeCore(spec, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''), facts)));
      assert.deepEqual(core.facts, facts, rel);
      const { mini: _m, ...image } = index;
      const { mini: _d, ...decoded } = core.index;
      // As JSON has it (a summary the image leaves out reads as null).
      assert.deepEqual(JSON.parse(JSON.stringify(decoded)), JSON.parse(JSON.stringify(image)), rel);
      assert.ok(index.summaries.some((s) => s !== null && s.length > 0), `${rel} has summaries`);
      // Without facts, none.
      const bare = await decodeCore(new Uint8Array(encodeCore(spec, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''))));
      assert.equal(bare.facts, undefined);
      assert.equal('facts' in bare, false);
    }
  });

  it('of a spec with no endpoints reads back as one', async () => {
    const file = path.join(tmp.dir, 'empty.json');
    writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'Empty', version: '1' }, paths: {} }));
    const { spec, docs } = await imported(file);
    assert.equal(spec.endpoints.length, 0);
    const { index, facts } = specImage(spec);
    const core = await decodeCore(new Uint8Array(encodeCore(spec, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''), facts)));
    assert.equal(core.endpoints.length, 0);
    assert.deepEqual(served(specFromCore(core, undefined)), served(spec));
  });
});

describe('a core\'s link table for links that do not say where they point', () => {
  it('finds each schema\'s place by walking its document; one copy of a schema the importer made, however many link it', async () => {
    const { spec, docs } = await imported(path.join(FIXTURES, 'multi-file/openapi.yaml'));
    const made = { type: 'string', description: 'made by the importer' };
    let withMade = 0;
    // Every link without its pointer, and the first two parameters' schemas swapped for one the importer made.
    const strip = <T extends { schema?: SchemaLink }>(x: T, swap: boolean): T => {
      if (!x.schema) return x;
      if (swap && withMade < 2) {
        withMade++;
        return { ...x, schema: { file: x.schema.file, node: made } };
      }
      return { ...x, schema: { file: x.schema.file, node: x.schema.node } };
    };
    const endpoints = spec.endpoints.map((e) => ({
      ...e,
      parameters: e.parameters.map((p) => strip(p, true)),
      ...(e.requestBody ? { requestBody: { ...e.requestBody, contents: e.requestBody.contents.map((c) => strip(c, false)) } } : {}),
      responses: e.responses.map((r) => strip(r, false)),
    }));
    assert.equal(withMade, 2, 'the fixture has two parameters with schemas');
    const stripped = { ...spec, endpoints };
    const { index, facts } = specImage(spec);
    const core = await decodeCore(new Uint8Array(encodeCore(stripped, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''), facts)));
    const rows = JSON.parse(core.links.toString('utf8')) as [number, string | null, unknown?][];
    const numbers = rowNumbers(core.endpoints);
    const all = links(stripped);
    const madeRows = new Set<number>();
    all.forEach((link, i) => {
      const row = rows[numbers[i]!]!;
      if (link.node === made) {
        madeRows.add(numbers[i]!);
        assert.deepEqual(row, [spec.files.indexOf(link.file), null, made]);
      } else {
        assert.equal(typeof row[1], 'string', `link ${i}: found in its document`);
        const found = lookupPointer(docs.doc(link.file), row[1]!);
        assert.ok(found.found && found.value === link.node, `link ${i}: ${row[1]} is its schema`);
      }
    });
    assert.equal(madeRows.size, 1, 'one row for the schema the importer made');
    assert.equal(rows.length, new Set(numbers).size);
  });
});
