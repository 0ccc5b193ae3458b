// A schema link's pointer (SchemaLink.pointer) names the very node it links to, in the link's own
// file: a snapshot stores links by it and a later `inspect` reads the schema back from there, so a
// pointer one step off would show another schema. Checked over every link of the import fixtures
// and, when present, every document of the real-world corpus.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpec } from '../../src/import/index.ts';
import { lookupPointer } from '../../src/import/pointer.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import type { ImportedSpec, SchemaLink } from '../../src/model/index.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/import');
const CORPUS = path.resolve(ROOT, '../shared/specs');
const MANIFEST = path.join(CORPUS, 'MANIFEST.tsv');

function linksOf(spec: ImportedSpec): SchemaLink[] {
  const out: SchemaLink[] = [];
  for (const e of spec.endpoints) {
    for (const p of e.parameters) if (p.schema) out.push(p.schema);
    for (const c of e.requestBody?.contents ?? []) if (c.schema) out.push(c.schema);
    for (const r of e.responses) if (r.schema) out.push(r.schema);
  }
  return out;
}

/** Each link with a pointer, checked; how many had one. */
async function checkPointers(file: string): Promise<number> {
  const outcome = await importSpec(file, { name: 'links', collection: 'links' });
  assert.ok(outcome.ok, `${file} imports`);
  const resolver = outcome.spec.schemas;
  assert.ok(resolver instanceof DocumentSchemaResolver, 'an OpenAPI or Swagger import keeps its documents');
  let pointed = 0;
  for (const link of linksOf(outcome.spec)) {
    if (link.pointer === undefined) continue;
    pointed++;
    const found = lookupPointer(resolver.documents.doc(link.file), link.pointer);
    assert.ok(found.found, `${link.file}#${link.pointer} is in the document`);
    assert.equal(found.value, link.node, `${link.file}#${link.pointer} is the linked node itself`);
  }
  return pointed;
}

describe('schema link pointers', () => {
  const cases: [string, string][] = [
    ['OpenAPI 3.0 parameters, bodies and responses', 'oas30-params/openapi.yaml'],
    ['OpenAPI 3.1 with webhooks', 'oas31-webhooks/openapi.json'],
    ['links across files', 'multi-file/openapi.yaml'],
    ['circular schemas', 'circular/openapi.json'],
    ['Swagger 2.0 parameters, bodies and responses', 'swagger20-azure/storage.json'],
    ['Swagger 2.0 form fields (a schema the importer makes has no pointer)', 'swagger20-forms/swagger.yaml'],
  ];
  for (const [name, rel] of cases) {
    test(`${name}: each pointer names its linked node`, async () => {
      assert.ok((await checkPointers(path.join(FIXTURES, rel))) > 0, 'the fixture has links with pointers');
    });
  }

  test('every document of the real-world corpus: each pointer names its linked node', { skip: existsSync(MANIFEST) ? false : `corpus not found at ${CORPUS} (../shared/specs): skipping` }, async () => {
    const [header, ...lines] = readFileSync(MANIFEST, 'utf8').trim().split('\n');
    const cols = header!.split('\t');
    let pointed = 0;
    for (const line of lines) {
      const f = line.split('\t');
      if (f[cols.indexOf('format')]!.startsWith('postman')) continue;
      pointed += await checkPointers(path.join(CORPUS, f[cols.indexOf('path')]!));
    }
    assert.ok(pointed > 10_000, `${pointed} links checked`);
  });
});
