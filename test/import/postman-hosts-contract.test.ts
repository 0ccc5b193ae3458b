// Postman hosts and headers, from the importer's contract: a variable the collection does not
// define is warned once however many hosts use it, a base URL kept whole in one variable loses all
// its trailing slashes (and only then), and header names are trimmed, a `: value` line with no
// name being no header.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { docLoader } from './load-doc.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

const load = docLoader('svc-import-hosts-');

const v21 = (item: object[], variable: object[] = []): object => ({
  info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item,
  variable,
});
const get = (name: string, url: string, header?: unknown): object => ({ name, request: { method: 'GET', url, ...(header !== undefined ? { header } : {}) } });

function byName(spec: ImportedSpec, summary: string): Endpoint {
  const e = spec.endpoints.find((x) => x.summary === summary);
  assert.ok(e, summary);
  return e;
}

describe('hosts', () => {
  test('a variable the collection does not define is warned once, though two hosts use it', async () => {
    const spec = await load(v21([get('a', '{{missing}}/a'), get('b', 'https://{{missing}}.example.com/b'), get('c', '{{missing}}/c')]));
    const warned = spec.warnings.filter((w) => w.code === 'postman-variable-undefined');
    assert.deepEqual(warned.map((w) => w.pointer), ['/item/0/request/url']);
    assert.deepEqual(spec.servers.map((s) => [s.url, s.variables]), [
      ['{missing}', { missing: { default: '' } }],
      ['https://{missing}.example.com', { missing: { default: '' } }],
    ]);
  });

  test('a whole base URL in one variable loses every trailing slash; a variable inside a longer host keeps its value as is', async () => {
    const spec = await load(
      v21([get('a', '{{base}}/a'), get('b', 'https://{{sub}}.example.com/b')], [{ key: 'base', value: 'https://api.example.com//' }, { key: 'sub', value: 'eu/' }]),
    );
    assert.deepEqual(spec.servers, [
      { url: '{base}', variables: { base: { default: 'https://api.example.com' } } },
      { url: 'https://{sub}.example.com', variables: { sub: { default: 'eu/' } } },
    ]);
    assert.deepEqual(spec.warnings, []);
  });
});

describe('headers', () => {
  test('header names are trimmed; in the one-string form a line without a name before its colon is skipped', async () => {
    const spec = await load(
      v21([get('list', 'https://api.example.com/a', [{ key: '  X-Trace ', value: '1' }, { key: '   ', value: 'x' }]), get('text', 'https://api.example.com/b', 'X-One: 1\n: orphan\nX-Two:2')]),
    );
    assert.deepEqual(byName(spec, 'list').parameters.filter((p) => p.in === 'header').map((p) => [p.name, p.example]), [['X-Trace', '1']]);
    assert.deepEqual(byName(spec, 'text').parameters.filter((p) => p.in === 'header').map((p) => [p.name, p.example]), [['X-One', '1'], ['X-Two', '2']]);
  });
});
