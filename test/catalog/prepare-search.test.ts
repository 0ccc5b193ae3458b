// Loading ahead the indexes a search reads first (`Catalog.prepareSearch`, from ManyRanker
// `firstVisited`; the search tool does it before each search so that a first search at hub scale
// does not load a dozen indexes in one turn): it changes no answer, names the indexes the ranking
// reads first and no index without a query word, and once they are loaded a search that fills its
// page within its budget loads no other.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import type { Loaded } from '../../src/catalog/loaded.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { indexLoaded, loadedCatalogue, spec } from './fixtures.ts';

const WORDS = ['gadgets', 'widgets', 'invoices', 'customers', 'subscriptions', 'refunds', 'payouts', 'gizmos'];
const specsArb = fc.array(fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 6 });
const queries = ['gadgets', 'widgetz', 'subscriptoins list', 'invoice', 'gizmos refunds', 'custom', 'xadgets', 'list payouts and refunds'];
const specsOf = (raws: readonly (readonly string[])[]) => raws.map((words, i) => spec(`api${i}`, words.map((w) => ({ method: 'GET' as const, path: `/${w}`, summary: `List ${w}` }))));
const page = (c: Catalog, q: string) => {
  const p = c.searchPage(q, {}, 0, 5);
  return [p.readAs, p.total, p.hits.map((h) => h.endpoint.id)];
};

const catalogue = loadedCatalogue;
const loadedNow = (loaded: Loaded) => loaded.states.map(indexLoaded);
const twins = (n: number) => Array.from({ length: n }, (_, i) => spec(`twin${i}`, [{ method: 'GET', path: '/widgets', summary: 'List widgets' }, { method: 'GET', path: '/widgets/{id}', summary: 'Get a widget' }]));

describe('loading ahead what a search reads first', () => {
  it('changes no answer', async () => {
    await fc.assert(
      fc.asyncProperty(specsArb, async (raws) => {
        const plain = new Catalog(specsOf(raws), { english: { has: () => false } });
        const prepared = new Catalog(specsOf(raws), { english: { has: () => false } });
        for (const q of queries) {
          await prepared.prepareSearch(q, {});
          assert.deepEqual(page(prepared, q), page(plain, q), q);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('names the indexes the ranking reads first, within its budget, most promising first', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 6 }), (n, budget) => {
        const loaded = catalogue(twins(n), { maxIndexesSearched: budget });
        const first = loaded.ranker.firstVisited(loaded.states, parseQuery('widgets'));
        // Alike specs: the budget's first ones in catalogue order, and no extras (none fits better).
        assert.deepEqual(first, loaded.states.slice(0, Math.min(n, budget)).map((s) => s.index));
        assert.deepEqual(loadedNow(loaded), loaded.states.map(() => false), 'naming them loads none');
      }),
      { numRuns: 40 },
    );
  });

  it('once they are loaded, a search whose page fills within its budget loads no other index', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), async (n, budget, limit) => {
        fc.pre(2 * Math.min(n, budget) >= limit);
        const loaded = catalogue(twins(n), { maxIndexesSearched: budget });
        const parsed = parseQuery('widgets');
        for (const index of loaded.ranker.firstVisited(loaded.states, parsed)) await index.preload();
        const before = loadedNow(loaded);
        loaded.ranker.rank(loaded.states, parsed, limit, () => true, true);
        assert.deepEqual(loadedNow(loaded), before);
      }),
      { numRuns: 40 },
    );
  });

  it('an index a search loads while it is being loaded ahead does not count as loaded ahead', async () => {
    const loaded = catalogue(twins(2), { maxIndexesSearched: 2 });
    const parsed = parseQuery('widgets');
    const first = loaded.ranker.firstVisited(loaded.states, parsed)[0]!;
    const ahead = first.preload();
    // The search runs before the loading ahead resumes, and loads the index itself.
    loaded.ranker.rank(loaded.states, parsed, 5, () => true, true);
    assert.equal(await ahead, false);
    assert.equal(await first.preload(), false, 'loaded: nothing left to do');
  });

  it('names the best-fitting API beyond its budget as well (the ranking\'s extras)', () => {
    const alike = Array.from({ length: 5 }, (_, i) =>
      spec(`a${i}`, [{ method: 'GET', path: `/things${i}`, summary: 'widgets' }, ...Array.from({ length: 4 }, (_, j) => ({ method: 'GET' as const, path: `/o${j}`, summary: 'other stuff' }))]),
    );
    const fit = spec('fit', Array.from({ length: 3 }, (_, j) => ({ method: 'GET' as const, path: `/w${j}`, summary: 'Things', description: 'widgets lorem ipsum dolor sit amet consectetur adipiscing elit' })));
    const loaded = catalogue([...alike, fit], { maxIndexesSearched: 2 });
    const first = loaded.ranker.firstVisited(loaded.states, parseQuery('widgets'));
    assert.equal(first.length, 3, 'the budget\'s two and one extra');
    assert.equal(first.at(-1), loaded.states.at(-1)!.index, 'the extra is the API that fits best');
  });

  it('never names an index that holds none of the query\'s words', () => {
    const loaded = catalogue([spec('shop', [{ method: 'GET', path: '/widgets', summary: 'List widgets' }]), spec('bank', [{ method: 'GET', path: '/payouts', summary: 'List payouts' }])], { maxIndexesSearched: 4 });
    assert.deepEqual(loaded.ranker.firstVisited(loaded.states, parseQuery('list widgets')), [loaded.states[0]!.index]);
    assert.deepEqual(loaded.ranker.firstVisited(loaded.states, parseQuery('zzz')), []);
  });

  it('loads them through the catalogue once, and none for a catalogue of one spec', async () => {
    const many = new Catalog(specsOf([['widgets'], ['gadgets'], ['widgets', 'refunds']]), { english: { has: () => false } });
    assert.equal(await many.prepareSearch('widgets', {}), 2, 'the two specs that say widgets');
    assert.equal(await many.prepareSearch('widgets', {}), 0, 'loaded already');
    assert.equal(await many.prepareSearch('the of and', {}), 0, 'no word to search by');
    assert.equal(await many.prepareSearch('gadgets', { spec: 'api1' }), 0, 'one spec by the filter');
    const one = new Catalog(specsOf([['widgets']]), { english: { has: () => false } });
    assert.equal(await one.prepareSearch('widgets', {}), 0);
    const two = new Catalog(specsOf([['widgets'], ['widgets']]), { english: { has: () => false } });
    assert.equal(await two.prepareSearch('widgets', {}), 2, 'from two specs on');
    assert.deepEqual(page(many, 'widgets')[2], ['api0:GET:/widgets', 'api2:GET:/widgets']);
    assert.deepEqual(page(one, 'widgets')[2], ['api0:GET:/widgets']);
  });
});
