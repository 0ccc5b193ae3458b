// A Postman request's URL in object form, from the importer's contract: `:name` path segments are
// placeholders (a lone `:` is text), `{{name}}` segments take the collection variable's value as
// example and `:name` ones only the URL's own `variable` entry (by `key`, else `id`, the first of a
// name winning), a query key given twice is one parameter, a string path may start with `/`, and
// a host that already holds a scheme gets no `http://`.
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
  dir = mkdtempSync(join(tmpdir(), 'svc-import-url-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function only(url: object, variable: object[] = []): Promise<{ spec: ImportedSpec; e: Endpoint }> {
  const file = join(dir, `v${serial++}.json`);
  const doc = { info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'R', request: { method: 'GET', url } }], variable };
  writeFileSync(file, JSON.stringify(doc));
  const o = await importSpec(file, { name: 's', collection: 'c' });
  assert.ok(o.ok, JSON.stringify(!o.ok && o.errors));
  assert.equal(o.spec.endpoints.length, 1, JSON.stringify(o.spec.warnings));
  return { spec: o.spec, e: o.spec.endpoints[0]! };
}

const params = (e: Endpoint, where: string) => e.parameters.filter((p) => p.in === where).map((p) => ({ name: p.name, description: p.description, example: p.example }));

describe('path', () => {
  test('a lone colon is a literal segment, not a placeholder without a name', async () => {
    const { e } = await only({ host: ['api', 'example', 'com'], path: ['a', ':', ':id'] });
    assert.equal(e.path, '/a/:/{id}');
    assert.deepEqual(params(e, 'path').map((p) => p.name), ['id']);
  });

  test('a :name segment takes its example from the URL\'s variable list only; a {{name}} segment from the collection\'s', async () => {
    const { e } = await only({ host: ['api', 'example', 'com'], path: [':id', '{{ver}}'] }, [{ key: 'id', value: 'from-collection' }, { key: 'ver', value: 'v9' }]);
    assert.deepEqual(params(e, 'path'), [
      { name: 'id', description: undefined, example: undefined },
      { name: 'ver', description: undefined, example: 'v9' },
    ]);
  });

  test('the URL\'s variable entries are found by key, else by id, and the first entry of a name wins', async () => {
    const { e } = await only({
      host: ['api', 'example', 'com'],
      path: [':a', ':b'],
      variable: [{ key: 'a', value: '1', description: 'first' }, { key: 'a', value: '2', description: 'second' }, { id: 'b', value: '3', description: 'by id' }],
    });
    assert.deepEqual(params(e, 'path'), [
      { name: 'a', description: 'first', example: '1' },
      { name: 'b', description: 'by id', example: '3' },
    ]);
  });

  test('a path given as one string may start with a slash', async () => {
    assert.equal((await only({ host: 'api.example.com', path: '/a/b' })).e.path, '/a/b');
    assert.equal((await only({ host: 'api.example.com', path: 'a/b' })).e.path, '/a/b');
    assert.equal((await only({ host: 'api.example.com', path: '' })).e.path, '/');
  });
});

describe('query and host', () => {
  test('a query key given twice is one parameter, the first', async () => {
    const { e } = await only({ host: ['api', 'example', 'com'], path: ['a'], query: [{ key: 'page', value: '1' }, { key: 'page', value: '2' }, { key: 'size', value: '10' }] });
    assert.deepEqual(params(e, 'query').map((p) => [p.name, p.example]), [['page', '1'], ['size', '10']]);
  });

  test('a host that already holds a scheme is a whole base URL: no http:// is put before it', async () => {
    const { spec } = await only({ host: 'https://api.example.com', path: ['a'] });
    assert.deepEqual(spec.servers.map((s) => s.url), ['https://api.example.com']);
    const { spec: bare } = await only({ host: 'api.example.com', path: ['a'] });
    assert.deepEqual(bare.servers.map((s) => s.url), ['http://api.example.com']);
  });
});
