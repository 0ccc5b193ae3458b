// Postman bodies and loosely typed fields, from the importer's contract: a Content-Type that holds
// a {{variable}} or no `/` declares nothing (the body's own text decides: JSON when it opens with
// `{` or `[`), the first form field of a name wins, the first entry of a key in an auth list wins,
// and a boolean value is text.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

let dir: string;
let serial = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-import-body-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function only(request: object): Promise<{ spec: ImportedSpec; e: Endpoint }> {
  const file = join(dir, `b${serial++}.json`);
  const doc = { info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'R', request: { method: 'POST', url: 'https://api.example.com/x', ...request } }] };
  writeFileSync(file, JSON.stringify(doc));
  const o = await importSpec(file, { name: 's', collection: 'c' });
  assert.ok(o.ok, JSON.stringify(!o.ok && o.errors));
  return { spec: o.spec, e: o.spec.endpoints[0]! };
}

const mediaTypes = (e: Endpoint) => e.requestBody?.contents.map((c) => c.mediaType);

describe('raw bodies', () => {
  test('a Content-Type with a {{variable}} or without a slash declares nothing; the text decides', async () => {
    for (const value of ['{{contentType}}', 'json', 'application/{{sub}}']) {
      const { e } = await only({ header: [{ key: 'Content-Type', value }], body: { mode: 'raw', raw: '  [1, 2]' } });
      assert.deepEqual(mediaTypes(e), ['application/json'], value);
    }
    const { e } = await only({ header: [{ key: 'Content-Type', value: 'Text/CSV; charset=utf-8' }], body: { mode: 'raw', raw: '[1]' } });
    assert.deepEqual(mediaTypes(e), ['text/csv']);
  });

  test('text opening with { or [ is JSON; other text is plain', async () => {
    assert.deepEqual(mediaTypes((await only({ body: { mode: 'raw', raw: '[{"a":1}]' } })).e), ['application/json']);
    assert.deepEqual(mediaTypes((await only({ body: { mode: 'raw', raw: '\n{"a":1}' } })).e), ['application/json']);
    assert.deepEqual(mediaTypes((await only({ body: { mode: 'raw', raw: 'a=1' } })).e), ['text/plain']);
  });
});

describe('form fields and key lists', () => {
  test('the first form field of a name wins', async () => {
    const { e } = await only({
      body: { mode: 'formdata', formdata: [{ key: 'f', type: 'file', description: 'first' }, { key: 'f', type: 'text', description: 'second' }, { key: 'g', type: 'text' }] },
    });
    assert.deepEqual(e.requestBody?.contents[0]?.schema?.node, {
      type: 'object',
      properties: { f: { type: 'string', format: 'binary', description: 'first' }, g: { type: 'string' } },
    });
  });

  test('the first entry of a key in an auth list wins', async () => {
    const { spec } = await only({ auth: { type: 'apikey', apikey: [{ key: 'key', value: 'X-First' }, { key: 'key', value: 'X-Second' }, { key: 'in', value: 'header' }] } });
    assert.deepEqual(spec.securitySchemes, { apikey: { type: 'apiKey', in: 'header', name: 'X-First' } });
  });

  test('a boolean or number value is read as text', async () => {
    const { e } = await only({ header: [{ key: 'X-Flag', value: true }, { key: 'X-Count', value: 3 }, { key: 'X-Obj', value: { a: 1 } }] });
    assert.deepEqual(e.parameters.map((p) => [p.name, p.example]), [['X-Flag', 'true'], ['X-Count', '3'], ['X-Obj', undefined]]);
  });
});
