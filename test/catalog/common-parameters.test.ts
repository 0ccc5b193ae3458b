// Query parameters most of a spec's endpoints take (a generated API's `alt`, `key`, `pretty`) are
// not words of any one endpoint: they are left out of the parameter field; the others stay.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { commonParameters, documentsOf } from '../../src/catalog/document.ts';
import { makeEntry } from '../../src/catalog/search.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { type EndpointInput, spec } from './fixtures.ts';

const entriesOf = (imported: ImportedSpec) => imported.endpoints.map((e, i) => makeEntry(e, i + 1, i));

/** `n` endpoints on their own resources, each taking the query parameters `take(i)`. */
function generated(n: number, take: (i: number) => string[]): ImportedSpec {
  const inputs: EndpointInput[] = [];
  for (let i = 0; i < n; i++) inputs.push({ method: 'GET', path: `/thing${String.fromCharCode(97 + (i % 26))}${i}`, summary: `List things ${i}`, params: take(i) });
  return spec('gen', inputs);
}

describe('commonParameters', () => {
  it('names exactly the query parameters more than 30% of a spec of 8 or more endpoints take', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 30 }), (n, k) => {
        const takers = Math.min(n, k);
        const common = commonParameters(entriesOf(generated(n, (i) => (i < takers ? ['pretty', 'own'] : ['own']))));
        assert.equal(common.has('pretty'), n >= 8 && takers > n * 0.3);
        assert.equal(common.has('own'), n >= 8);
      }),
    );
  });

  it('never counts a path parameter', () => {
    const imported = spec(
      'p',
      Array.from({ length: 10 }, (_, i) => ({ method: 'GET' as const, path: `/things${i}/{id}`, summary: `Get thing ${i}`, params: ['id'] })),
    );
    assert.equal(commonParameters(entriesOf(imported)).size, 0);
    for (const doc of documentsOf(entriesOf(imported))) assert.ok(doc.a.includes('id'));
  });
});

describe('index documents of a spec', () => {
  it('leave out the parameters most endpoints take and keep the others', () => {
    const imported = generated(10, (i) => (i === 3 ? ['xgafv', 'channel'] : ['xgafv']));
    const docs = documentsOf(entriesOf(imported));
    for (const doc of docs) assert.ok(!doc.a.includes('xgafv'));
    assert.ok(docs[3]!.a.includes('channel'));
  });

  it('a query word that only a common parameter holds no longer ranks endpoints by it', () => {
    const imported = generated(10, () => ['upload']);
    const catalog = new Catalog([imported]);
    assert.deepEqual(catalog.search('upload').map((h) => h.endpoint.id), []);
  });
});
