// One Postman request, from the importer's contract: the first enabled Content-Type decides the
// body's media type (a disabled one says nothing), a header name repeated in any case is one
// parameter, a disabled Authorization header says nothing about auth, and an empty name is no
// summary.
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
  dir = mkdtempSync(join(tmpdir(), 'svc-import-request-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function only(request: object, item: object = { name: 'R' }): Promise<{ spec: ImportedSpec; e: Endpoint }> {
  const file = join(dir, `q${serial++}.json`);
  const doc = { info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ ...item, request }] };
  writeFileSync(file, JSON.stringify(doc));
  const o = await importSpec(file, { name: 's', collection: 'c' });
  assert.ok(o.ok, JSON.stringify(!o.ok && o.errors));
  assert.equal(o.spec.endpoints.length, 1);
  return { spec: o.spec, e: o.spec.endpoints[0]! };
}

const url = 'https://api.example.com/items';
const headerParams = (e: Endpoint) => e.parameters.filter((p) => p.in === 'header').map((p) => [p.name, p.required, p.example]);

describe('headers of a request', () => {
  test('the first enabled Content-Type gives the body its media type; a disabled one before it is passed over', async () => {
    const header = [
      { key: 'Content-Type', value: 'application/xml', disabled: true },
      { key: 'content-type', value: 'text/csv; charset=utf-8' },
      { key: 'Content-Type', value: 'application/json' },
    ];
    const { e } = await only({ method: 'POST', url, header, body: { mode: 'raw', raw: 'a,b' } });
    assert.deepEqual(e.requestBody?.contents.map((c) => c.mediaType), ['text/csv']);
    assert.deepEqual(headerParams(e), []);
  });

  test('a header name given twice, in any case, is one parameter: the first', async () => {
    const { e } = await only({ method: 'GET', url, header: [{ key: 'X-Trace', value: '1' }, { key: 'x-trace', value: '2' }, { key: 'X-Other', value: '3', disabled: true }] });
    assert.deepEqual(headerParams(e), [['X-Trace', true, '1'], ['X-Other', false, '3']]);
  });

  test('a disabled Authorization header says nothing about auth and stays an optional parameter; an enabled one becomes the scheme', async () => {
    const off = await only({ method: 'GET', url, header: [{ key: 'Authorization', value: 'Bearer abc', disabled: true }] });
    assert.equal('security' in off.e, false);
    assert.deepEqual(off.spec.securitySchemes, {});
    assert.deepEqual(headerParams(off.e).map(([n, r]) => [n, r]), [['Authorization', false]]);
    assert.doesNotMatch(JSON.stringify(off.spec), /Bearer abc/);
    const on = await only({ method: 'GET', url, header: [{ key: 'Authorization', value: 'Bearer abc' }] });
    assert.deepEqual(on.e.security, [{ bearer: [] }]);
    assert.deepEqual(headerParams(on.e), []);
  });
});

describe('names', () => {
  test('an empty or missing name gives no summary; a name does', async () => {
    for (const item of [{ name: '' }, {}]) {
      const { e } = await only({ method: 'GET', url }, item);
      assert.equal('summary' in e, false, JSON.stringify(item));
    }
    assert.equal((await only({ method: 'GET', url }, { name: 'List items' })).e.summary, 'List items');
  });
});
