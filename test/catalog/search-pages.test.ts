// Search pages: the first page is the search's own answer, the pages together hold every endpoint
// that names a query word exactly once, and the total counts them (generated catalogues and queries).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog, MAX_SEARCH_DEPTH } from '../../src/catalog/index.ts';
import { documentOf, makeEntry, parseQuery } from '../../src/catalog/search.ts';
import type { HttpMethod, ImportedSpec } from '../../src/model/index.ts';
import { spec } from './fixtures.ts';

const WORDS = ['invoice', 'customer', 'card', 'refund', 'payout', 'webhook', 'report', 'token'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE'];

const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  segments: fc.array(fc.constantFrom(...WORDS, '{id}'), { minLength: 1, maxLength: 3 }),
  summary: fc.array(fc.constantFrom(...WORDS, 'list', 'create', 'the', 'all'), { maxLength: 5 }),
});

function specOf(name: string, raw: { method: HttpMethod; segments: string[]; summary: string[] }[]): ImportedSpec {
  const seen = new Set<string>();
  const inputs = [];
  for (const r of raw) {
    const path = `/${r.segments.join('/')}`;
    if (seen.has(`${r.method} ${path}`)) continue;
    seen.add(`${r.method} ${path}`);
    inputs.push({ method: r.method, path, summary: r.summary.join(' ') });
  }
  return spec(name, inputs);
}

/** Endpoints whose index document holds one of the query's terms: what the total counts. */
function holders(specs: readonly ImportedSpec[], query: string, method?: HttpMethod): Set<string> {
  const terms = new Set(parseQuery(query).terms);
  const out = new Set<string>();
  for (const s of specs) {
    s.endpoints.forEach((e, i) => {
      if (method && e.method !== method) return;
      const doc = documentOf(makeEntry(e, i + 1, i));
      for (const field of [doc.s, doc.p, doc.o, doc.t, doc.d, doc.a, doc.e]) if (field.some((t) => terms.has(t))) out.add(e.id);
    });
  }
  return out;
}

describe('Catalog.searchPage', () => {
  it('pages through every matching endpoint once, first page equal to the search, total equal to the matches', () => {
    fc.assert(
      fc.property(
        fc.array(endpointArb, { minLength: 1, maxLength: 25 }),
        fc.array(endpointArb, { minLength: 1, maxLength: 25 }),
        fc.array(fc.constantFrom(...WORDS, 'list', 'delete', 'a'), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 7 }),
        (a, b, words, size) => {
          const specs = [specOf('a', a), specOf('b', b)];
          const catalog = new Catalog(specs);
          const query = words.join(' ');
          const first = catalog.searchPage(query, {}, 0, size);
          assert.deepEqual(
            first.hits.map((h) => h.endpoint.id),
            catalog.search(query, {}, size).map((h) => h.endpoint.id),
          );
          const all: string[] = [];
          for (let offset = 0; offset < first.total + size; offset += size) {
            const page = catalog.searchPage(query, {}, offset, size);
            assert.equal(page.total, first.total);
            all.push(...page.hits.map((h) => h.endpoint.id));
          }
          assert.equal(new Set(all).size, all.length, 'an endpoint shown twice');
          assert.equal(all.length, first.total);
          for (const id of holders(specs, query)) assert.ok(all.includes(id), `${id} names a query word but is on no page`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('counts every match across many specs, with APIs that hold one query word counted without a look at their index', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(endpointArb, { minLength: 1, maxLength: 12 }), { minLength: 3, maxLength: 7 }),
        fc.array(fc.constantFrom(...WORDS, 'list', 'a'), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(undefined, 'GET' as const),
        (raws, words, size, method) => {
          const specs = raws.map((raw, i) => specOf(`s${i}`, raw));
          const catalog = new Catalog(specs);
          const query = words.join(' ');
          const filters = method ? { method } : {};
          const first = catalog.searchPage(query, filters, 0, size);
          const ranked = catalog.search(query, filters, size).map((h) => h.endpoint.id);
          const expected = new Set([...holders(specs, query, method), ...ranked]);
          // Only when no other word is held does the search fall back to the verbs; the reference counts query words.
          if (ranked.length > 0 && [...holders(specs, query, method)].length === 0) return;
          assert.equal(first.total, expected.size);
          assert.equal(first.moreThanTotal, undefined);
        },
      ),
      { numRuns: 150 },
    );
  });

  it(`counts up to ${MAX_SEARCH_DEPTH} and says "more than" past it, the same on every page`, () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_SEARCH_DEPTH - 3, max: MAX_SEARCH_DEPTH + 3 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), (n, parts, filtered) => {
        // n endpoints holding "invoice", spread over `parts` specs, half also holding "refund".
        const specs = Array.from({ length: parts }, (_, p) =>
          spec(
            `p${p}`,
            Array.from({ length: n }, (_, i) => i)
              .filter((i) => i % parts === p)
              .map((i) => ({ method: 'GET' as const, path: `/invoice${i}`, summary: i % 2 ? 'invoice refund' : 'invoice' })),
          ),
        );
        const catalog = new Catalog(specs);
        const filters = filtered ? { method: 'GET' as const } : {};
        for (const query of ['invoice', 'invoice refund']) {
          const pages = [0, 20, MAX_SEARCH_DEPTH - 20].map((offset) => catalog.searchPage(query, filters, offset, 20));
          for (const page of pages) {
            assert.equal(page.total, Math.min(n, MAX_SEARCH_DEPTH));
            assert.equal(page.moreThanTotal, n > MAX_SEARCH_DEPTH ? true : undefined);
          }
          assert.equal(pages[2]!.hits.length, Math.min(n, MAX_SEARCH_DEPTH) - (MAX_SEARCH_DEPTH - 20));
        }
      }),
      { numRuns: 12 },
    );
  });

  it('orders endpoints that all say the query word for word the same way however deep the page reaches', () => {
    // A query that is several endpoints' summary: each depth's hits are the first hits of the next depth.
    fc.assert(
      fc.property(
        fc.array(fc.array(endpointArb, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (raws, pick) => {
          const specs = raws.map((raw, i) => specOf(`s${i}`, raw));
          const endpoints = specs.flatMap((s) => s.endpoints).filter((e) => e.summary);
          fc.pre(endpoints.length > 0);
          const query = endpoints[pick % endpoints.length]!.summary!;
          const catalog = new Catalog(specs);
          const deepest = catalog.search(query, {}, 40).map((h) => h.endpoint.id);
          for (let n = 1; n < deepest.length; n++) assert.deepEqual(catalog.search(query, {}, n).map((h) => h.endpoint.id), deepest.slice(0, n), `depth ${n}`);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('keeps one total on every page when only the verbs find something ("list card": by "list")', () => {
    const specs = [specOf('a', [{ method: 'GET', segments: ['invoice'], summary: ['list'] }]), specOf('b', [{ method: 'GET', segments: ['invoice'], summary: ['list'] }])];
    const catalog = new Catalog(specs);
    const pages = [0, 1].map((offset) => catalog.searchPage('list card', {}, offset, 1));
    assert.deepEqual(pages.map((p) => p.total), [2, 2]);
    assert.deepEqual(pages.flatMap((p) => p.hits.map((h) => h.endpoint.id)).sort(), ['a:GET:/invoice', 'b:GET:/invoice']);
  });

  it('reaches, after the ranked hits, the endpoints the common-word shortcuts leave unranked', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ method: 'GET' as const, segments: ['customer', `{id}`, `part${i}`], summary: ['customer'] }));
    const specs = [specOf('a', [...many, { method: 'POST', segments: ['customer', '{id}', 'refund'], summary: ['refund'] }])];
    const catalog = new Catalog(specs);
    const query = 'customer refund';
    const ranked = catalog.search(query, {}, 400).length;
    const all: string[] = [];
    let total = 0;
    for (let offset = 0; offset < 400; offset += 50) {
      const page = catalog.searchPage(query, {}, offset, 50);
      total = page.total;
      all.push(...page.hits.map((h) => h.endpoint.id));
    }
    assert.ok(ranked < 301, `expected the shortcut to leave endpoints unranked, ranked ${ranked}`);
    assert.equal(total, 301);
    assert.equal(new Set(all).size, 301);
  });

  it('counts only the endpoints a filter lets through', () => {
    const s = specOf('a', [
      { method: 'GET', segments: ['invoice'], summary: ['list'] },
      { method: 'POST', segments: ['invoice'], summary: ['create'] },
      { method: 'DELETE', segments: ['invoice', '{id}'], summary: [] },
    ]);
    const catalog = new Catalog([s]);
    assert.equal(catalog.searchPage('invoice', {}, 0, 10).total, 3);
    assert.equal(catalog.searchPage('invoice', { method: 'DELETE' }, 0, 10).total, 1);
    assert.equal(catalog.searchPage('invoice', { spec: 'missing' }, 0, 10).total, 0);
  });

  it(`refuses a page that ends past ${MAX_SEARCH_DEPTH} results, saying how to narrow`, () => {
    const catalog = new Catalog([specOf('a', [{ method: 'GET', segments: ['invoice'], summary: [] }])]);
    assert.throws(() => catalog.searchPage('invoice', {}, MAX_SEARCH_DEPTH - 1, 2), /search pages reach 1000 results deep.*/);
    assert.equal(catalog.searchPage('invoice', {}, MAX_SEARCH_DEPTH - 2, 2).hits.length, 0);
  });
});
