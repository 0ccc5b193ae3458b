// The ranking over several specs (rank-many.ts) from its contract: which indexes a search visits
// (an index is loaded on its first search, so an index never loaded was never searched: visible in
// its image), where it stops (a full page and the index budget, a bound below the page, the postings
// and time budgets), how equal scores are ordered (catalogue order, then document order), and the
// fuzzy fallback every index tries when nothing matched as typed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Loaded } from '../../src/catalog/loaded.ts';
import type { SearchBudget } from '../../src/catalog/rank-many.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { type ImportedSpec, endpointId } from '../../src/model/index.ts';
import { type EndpointInput, indexLoaded, loadedCatalogue, spec } from './fixtures.ts';

const catalogue = loadedCatalogue;

const searched = (loaded: Loaded) => loaded.states.map(indexLoaded);

const rank = (loaded: Loaded, query: string, limit: number) =>
  loaded.ranker.rank(loaded.states, parseQuery(query), limit, () => true, true).map((r) => `${r.entry.endpoint.id} ${r.score}`);

/** `n` specs alike but for their names: every score ties across them. */
function twins(n: number, endpoints: EndpointInput[] = [{ method: 'GET', path: '/widgets', summary: 'List widgets' }, { method: 'GET', path: '/widgets/{id}', summary: 'Get a widget' }]) {
  return Array.from({ length: n }, (_, i) => spec(`twin${i}`, endpoints));
}

describe('a search over several specs', () => {
  it('searches no more indexes than its budget once the page is full, and every one while it is not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 5 }), (n, budget, limit) => {
        const loaded = catalogue(twins(n), { maxIndexesSearched: budget });
        const hits = rank(loaded, 'widgets', limit);
        // Each spec has two matches: the page is full after ceil(limit / 2) indexes.
        const expected = Math.min(n, Math.max(budget, Math.ceil(limit / 2)));
        assert.equal(searched(loaded).filter(Boolean).length, expected, `${n} specs, budget ${budget}, limit ${limit}`);
        assert.equal(hits.length, Math.min(limit, 2 * n));
        // Catalogue order first: the indexes searched are the first ones.
        assert.deepEqual(searched(loaded), loaded.states.map((_, i) => i < expected));
      }),
      { numRuns: 60 },
    );
  });

  it('takes its index budget from the number of APIs when none is set: four below 256', () => {
    const loaded = catalogue(twins(7), { maxIndexesSearched: -1 });
    rank(loaded, 'widgets', 1);
    assert.equal(searched(loaded).filter(Boolean).length, 4);
  });

  it('searches more indexes from 256 APIs on: three more per e-fold of APIs', () => {
    // 4 + floor(3 ln(700 / 256)) = 7; twins fit alike, so no API is added for its fit.
    const loaded = catalogue(twins(700, [{ method: 'GET', path: '/widgets', summary: 'widgets' }]), { maxIndexesSearched: -1 });
    rank(loaded, 'widgets', 1);
    assert.equal(searched(loaded).filter(Boolean).length, 7);
  });

  it('orders equal scores by catalogue order, whatever order the specs are given in', () => {
    const loaded = catalogue(twins(4, [{ method: 'GET', path: '/a', summary: 'widget' }, { method: 'GET', path: '/b', summary: 'widget' }]));
    const hits = loaded.ranker.rank([...loaded.states].reverse(), parseQuery('widget'), 8, () => true, true);
    // (Within a spec /a scores a little above /b; across specs the scores tie.)
    const expected = ['/a', '/b'].flatMap((path) => [0, 1, 2, 3].map((i) => endpointId(`twin${i}`, 'GET', path)));
    assert.deepEqual(hits.map((h) => h.entry.endpoint.id), expected);
  });

  it('never searches an index whose bound is below a full page', () => {
    // One spec says "widget" in its summaries and paths; the others only deep in a long description.
    const strong = spec('strong', [{ method: 'GET', path: '/widgets', summary: 'List widgets' }]);
    const filler = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua';
    const weak = (i: number) => spec(`weak${i}`, [{ method: 'GET', path: `/things${i}`, summary: 'Get things', description: `Things. ${filler} ${filler} widget.` }]);
    const specs = [weak(0), strong, weak(1), weak(2)];
    const pruned = catalogue(specs);
    const exhaustive = catalogue(specs, { prune: false });
    assert.deepEqual(rank(pruned, 'widgets', 1), rank(exhaustive, 'widgets', 1));
    assert.deepEqual(searched(pruned), [false, true, false, false]);
    assert.deepEqual(searched(exhaustive), [true, true, true, true]);
  });

  it('stops once the postings it visited pass the postings budget, never before the first index', () => {
    // Each index holds "widget" in 2 documents: 2 postings an index.
    for (const [budget, expected] of [[0, 1], [1, 1], [2, 2], [3, 2], [4, 3]] as const) {
      const loaded = catalogue(twins(5), { budgetPostings: budget });
      assert.equal(rank(loaded, 'widgets', 10).length > 0, true);
      assert.equal(searched(loaded).filter(Boolean).length, expected, `budget ${budget}`);
    }
  });

  it('stops once its time is spent, never before the first index', () => {
    const loaded = catalogue(twins(5), { budgetMs: -1 });
    assert.equal(rank(loaded, 'widgets', 10).length, 2);
    assert.equal(searched(loaded).filter(Boolean).length, 1);
  });

  it('searches every index without pruning, whatever the budgets', () => {
    const loaded = catalogue(twins(6), { prune: false, maxIndexesSearched: 1, budgetPostings: 0, budgetMs: -1 });
    assert.equal(rank(loaded, 'widgets', 3).length, 3);
    assert.deepEqual(searched(loaded), loaded.states.map(() => true));
  });

  it('lets every index try its fuzzy fallback when nothing matched as typed: their best merged by score, a page at most', () => {
    const specs = [
      spec('a', [{ method: 'GET', path: '/widgets', summary: 'List widgets' }, { method: 'GET', path: '/gadgets', summary: 'List gadgets' }]),
      spec('b', [{ method: 'GET', path: '/widget/{id}', summary: 'Get a widget' }]),
      spec('c', [{ method: 'GET', path: '/other', summary: 'Nothing alike' }]),
    ];
    const loaded = catalogue(specs);
    const all = loaded.ranker.rank(loaded.states, parseQuery('widgetz'), 10, () => true, true);
    assert.ok(all.length >= 2, 'the typo finds the widget endpoints of both specs');
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.score >= all[i]!.score, 'best first');
    // Each spec's own fuzzy answer, merged.
    const own = loaded.states.flatMap((s) => s.index.rank(parseQuery('widgetz'), { limit: 10, accept: () => true, all: true }));
    assert.deepEqual(new Set(all.map((r) => r.entry.endpoint.id)), new Set(own.map((r) => r.entry.endpoint.id)));
    assert.equal(loaded.ranker.rank(loaded.states, parseQuery('widgetz'), 1, () => true, true).length, 1);
    assert.deepEqual(loaded.ranker.rank(loaded.states, parseQuery('zzqqxx'), 10, () => true, true), []);
  });

  it('ranks no query without terms', () => {
    const loaded = catalogue(twins(3));
    assert.deepEqual(loaded.ranker.rank(loaded.states, parseQuery('the'), 10, () => true, true), []);
    assert.deepEqual(searched(loaded), [false, false, false]);
  });
});
