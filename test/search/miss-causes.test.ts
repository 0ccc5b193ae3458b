// The hub benchmark's account of why development queries miss: each miss counted once, under what
// went wrong first (which endpoint within the right API, another API of the same vendor, which API).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { missCauses } from '../../bench/search-hub.ts';
import { Catalog } from '../../src/catalog/index.ts';
import type { Query } from './harness.ts';
import type { QueryResult } from './measure.ts';
import { spec } from '../catalog/fixtures.ts';

const catalog = new Catalog([
  spec('acme', [
    { method: 'POST', path: '/customers', summary: 'Create a customer' },
    { method: 'GET', path: '/customers', summary: 'List customers' },
    { method: 'DELETE', path: '/customers/{id}', summary: 'Delete a customer', params: ['id'] },
  ]),
  spec('acme.io-billing', [{ method: 'POST', path: '/invoices', summary: 'Create an invoice' }]),
  spec('other', [{ method: 'POST', path: '/clients', summary: 'Create a client customer' }]),
]);

function result(query: string, accept: string, top: readonly string[]): QueryResult {
  const q: Query = { spec: accept.slice(0, accept.indexOf(':')), query, accept: [accept], set: 'dev', heldOut: false, place: 'x:1' };
  const at = top.indexOf(accept);
  return { query: q, rank: at + 1, top, ms: 0 };
}

describe('hub miss causes', () => {
  it('count each development miss under what went wrong first, and hits not at all', () => {
    const causes = missCauses(
      [
        // A hit.
        result('create a customer', 'acme:POST:/customers', ['acme:POST:/customers']),
        // The right API, the wrong endpoint.
        result('list customers', 'acme:GET:/customers', ['acme:POST:/customers', 'acme:GET:/customers']),
        // Another API of the same vendor first.
        result('create a customer', 'acme:POST:/customers', ['acme.io-billing:POST:/invoices']),
        // Another API first, though within its own API the query finds its answer first.
        result('create a customer', 'acme:POST:/customers', ['other:POST:/clients']),
        // Another API first, and within its own API another endpoint comes first too.
        result('create a customer', 'acme:DELETE:/customers/{id}', ['other:POST:/clients']),
        // Nothing found at all.
        result('create a customer', 'acme:GET:/customers', []),
      ],
      catalog,
    );
    assert.deepEqual(causes, { misses: 5, sibling: 1, vendor: 1, apiChoice: 1, apiAndSibling: 2 });
  });

  it('put every miss in exactly one cause', () => {
    const ids = catalog.list({}).map((e) => e.id);
    const id = fc.constantFrom(...ids);
    const words = fc.constantFrom('create', 'a', 'customer', 'list', 'invoice', 'delete', 'client');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(words, { minLength: 1, maxLength: 4 }), id, fc.array(id, { maxLength: 5 })), { maxLength: 12 }), (rows) => {
        const results = rows.map(([q, accept, top]) => result(q.join(' '), accept, top));
        const c = missCauses(results, catalog);
        assert.equal(c.misses, results.filter((r) => r.rank !== 1).length);
        assert.equal(c.sibling + c.vendor + c.apiChoice + c.apiAndSibling, c.misses);
      }),
      { numRuns: 100 },
    );
  });
});
