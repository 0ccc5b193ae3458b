// One search, start to end (search-pipeline.ts), from its contract: a path the query names comes
// first, then an endpoint whose summary the query is word for word, then the text ranking, scores
// falling in that order; the verbs alone when no other word matched; within one spec its own name
// is not searched; a named API's matches first, the others' after them up to the page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { acceptance } from '../../src/catalog/search-pipeline.ts';
import { makeEntry } from '../../src/catalog/search.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { endpoint, petsSpec, spec } from './fixtures.ts';

const ids = (hits: readonly { endpoint: { id: string } }[]) => hits.map((h) => h.endpoint.id);

describe('a search, start to end', () => {
  const catalog = new Catalog([petsSpec('pets'), petsSpec('zoo')]);

  it('puts a named path first, then a quoted summary, then the ranking, scores falling', () => {
    const hits = catalog.search('GET /pets/{petId}', {}, 5);
    assert.equal(hits[0]!.endpoint.path, '/pets/{petId}');
    assert.equal(hits[0]!.endpoint.method, 'GET');
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, `score order at ${i}`);
    const quoted = catalog.search('List photos of a pet', {}, 5);
    assert.equal(quoted[0]!.endpoint.summary, 'List photos of a pet');
    assert.equal(quoted[1]!.endpoint.summary, 'List photos of a pet');
    assert.ok(quoted[1]!.score > quoted[2]!.score, 'a quoted summary scores above the ranking');
    for (let i = 1; i < quoted.length; i++) assert.ok(quoted[i - 1]!.score >= quoted[i]!.score, `score order at ${i}`);
  });

  it('scores a named path at twice the best ranked score plus one (one when nothing is ranked), a quoted summary above the ranking', () => {
    const hits = catalog.search('GET /owners', {}, 10);
    assert.deepEqual(hits.slice(0, 2).map((h) => h.endpoint.path), ['/owners', '/owners']);
    assert.equal(hits[0]!.score, 2 * hits[2]!.score + 1);
    // Six endpoints on the named path fill the page: nothing is ranked.
    const full = catalog.search('GET /pets/{petId}', {}, 6);
    assert.deepEqual(full.map((h) => h.endpoint.path), Array(6).fill('/pets/{petId}'));
    assert.deepEqual(full.map((h) => h.score), Array(6).fill(3));
    const quoted = catalog.search('List owners', {}, 10);
    assert.ok(quoted[0]!.score > 1.5 * quoted[2]!.score + 1);
  });

  it('fills a page from a named path alone when it holds enough', () => {
    assert.deepEqual(ids(catalog.search('GET /pets', {}, 2)), ['pets:GET:/pets', 'zoo:GET:/pets']);
    assert.equal(catalog.search('GET /pets', {}, 1).length, 1);
  });

  it('ranks by the verbs alone when no other word matched', () => {
    const hits = catalog.search('list zzqx', {}, 3);
    assert.ok(hits.length > 0);
    for (const h of hits) assert.ok(/^List/.test(h.endpoint.summary ?? ''), h.endpoint.id);
  });

  it('ranks a spec\'s own name within that spec only after what the other words find', () => {
    const one = new Catalog([spec('stripe', [{ method: 'GET', path: '/charges', summary: 'List charges' }, { method: 'GET', path: '/stripe/info', summary: 'Stripe stripe stripe info' }])]);
    for (const filter of [{ spec: 'stripe' }, {}]) {
      const without = ids(one.search('charges', filter, 2));
      const named = ids(one.search('stripe charges', filter, 2));
      // The name's words only fill the page after the other words' matches (the named API's fallback).
      assert.deepEqual(named.slice(0, without.length), without);
      assert.deepEqual(named, ['stripe:GET:/charges', 'stripe:GET:/stripe/info']);
    }
  });

  it('puts a named API\'s matches first and fills the page from the others', () => {
    const meetings = (name: string, n: number) => spec(name, Array.from({ length: n }, (_, i) => ({ method: 'GET' as const, path: `/meetings/m${i}`, summary: `Get meeting ${i}` })));
    const many = new Catalog([meetings('other', 4), meetings('zoom', 2), meetings('third', 4)]);
    const hits = many.search('zoom meetings', {}, 5);
    assert.deepEqual(hits.slice(0, 2).map((h) => h.endpoint.spec), ['zoom', 'zoom']);
    assert.equal(hits.length, 5);
    assert.ok(hits.slice(2).every((h) => h.endpoint.spec !== 'zoom'));
    assert.deepEqual(many.search('zoom meetings', {}, 1).map((h) => h.endpoint.spec), ['zoom']);
  });
});

describe('acceptance', () => {
  it('takes every endpoint without filters, else those of the tag and the method (generated)', () => {
    const METHODS: HttpMethod[] = ['GET', 'POST', 'DELETE'];
    fc.assert(
      fc.property(fc.constantFrom(...METHODS), fc.subarray(['a', 'b', 'c']), fc.option(fc.constantFrom('a', 'b'), { nil: undefined }), fc.option(fc.constantFrom(...METHODS), { nil: undefined }), (method, tags, tag, wanted) => {
        const entry = makeEntry(endpoint('s', 'c', { method, path: '/x', tags }), 0);
        const { accept, all } = acceptance(tag, wanted);
        assert.equal(all, tag === undefined && wanted === undefined);
        assert.equal(accept(entry), (wanted === undefined || wanted === method) && (tag === undefined || tags.includes(tag)));
      }),
      { numRuns: 200 },
    );
  });
});
