// Edges of the ranking over several specs (rank-many.ts): the API count at which the best-fitting
// APIs join the visit (256), equal scores in catalogue order whatever order the indexes were
// visited in, no fuzzy matching in one index while the search matched as typed, and a word an
// index does not hold weighing in that index as in the index alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Loaded } from '../../src/catalog/loaded.ts';
import type { SearchBudget } from '../../src/catalog/rank-many.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { indexLoaded, loadedCatalogue, spec } from './fixtures.ts';

const catalogue = (specs: readonly ImportedSpec[], budget: Partial<SearchBudget> = {}): Loaded => loadedCatalogue(specs, { maxIndexesSearched: -1, ...budget });

const searchedNames = (loaded: Loaded) => loaded.states.filter(indexLoaded).map((s) => s.spec.name);

describe('a search over several specs, at its edges', () => {
  it('visits the best-fitting API beyond its budget at any number of APIs', () => {
    const alike = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        spec(`a${i}`, [{ method: 'GET', path: `/things${i}`, summary: 'widgets' }, ...Array.from({ length: 4 }, (_, j) => ({ method: 'GET' as const, path: `/o${j}`, summary: 'other stuff' }))]),
      );
    const fit = spec('fit', Array.from({ length: 3 }, (_, j) => ({ method: 'GET' as const, path: `/w${j}`, summary: 'Things', description: 'widgets lorem ipsum dolor sit amet consectetur adipiscing elit' })));
    for (const [n, visited] of [[255, true], [254, true], [5, true]] as const) {
      const loaded = catalogue([...alike(n), fit]);
      loaded.ranker.rank(loaded.states, parseQuery('widgets'), 2, () => true, true);
      assert.equal(searchedNames(loaded).includes('fit'), visited, `${n + 1} APIs`);
    }
  });

  it('orders equal scores by catalogue order, though a later spec with a higher bound is visited first', () => {
    // Spec b also holds "zebra" (in an endpoint the filter leaves out): its bound is higher, so it is
    // visited first; the two GET /a endpoints score alike.
    const specs = [
      spec('a', [{ method: 'GET', path: '/a', summary: 'widget' }, { method: 'POST', path: '/b', summary: 'other' }]),
      spec('b', [{ method: 'GET', path: '/a', summary: 'widget' }, { method: 'POST', path: '/b', summary: 'zebra' }]),
    ];
    const loaded = catalogue(specs, { maxIndexesSearched: 1 });
    const hits = loaded.ranker.rank(loaded.states, parseQuery('widget zebra'), 2, (e) => e.endpoint.method === 'GET', false);
    assert.equal(hits.length, 2);
    assert.equal(hits[0]!.score, hits[1]!.score);
    assert.deepEqual(hits.map((h) => h.entry.endpoint.spec), ['a', 'b']);
  });

  it('takes no fuzzy match from one index while another matched as typed', () => {
    const specs = [
      // Holds "widget" only where the method filter does not look, and a near miss where it does.
      spec('near', [{ method: 'GET', path: '/widgets', summary: 'List widgets' }, { method: 'POST', path: '/gadgets', summary: 'Create a widgez' }]),
      spec('exact', [{ method: 'POST', path: '/widgets', summary: 'Create a widget' }]),
    ];
    const loaded = catalogue(specs);
    const hits = loaded.ranker.rank(loaded.states, parseQuery('widget'), 10, (e) => e.endpoint.method === 'POST', false);
    assert.deepEqual(hits.map((h) => h.entry.endpoint.spec), ['exact']);
    // Alone, the near index falls back on its near miss.
    assert.ok(loaded.states[0]!.index.rank(parseQuery('widget'), { limit: 10, accept: (e) => e.endpoint.method === 'POST' }).length > 0);
  });

  it('weighs a query word an index does not hold (found by prefix) as that index alone does', () => {
    const specs = [
      spec('one', [{ method: 'GET', path: '/subscriptions', summary: 'List subscriptions' }, { method: 'GET', path: '/users', summary: 'List users' }]),
      spec('two', Array.from({ length: 6 }, (_, i) => ({ method: 'GET' as const, path: `/p${i}`, summary: i === 0 ? 'Get subscriptions' : 'Get other things' }))),
    ];
    const loaded = catalogue(specs);
    // "subscript" is held by no index, and begins "subscription".
    const parsed = parseQuery('subscript');
    assert.ok(loaded.states.every((s) => s.index.df(parsed.terms[0]!) === 0));
    const many = loaded.ranker.rank(loaded.states, parsed, 10, () => true, true);
    for (const state of loaded.states) {
      const alone = state.index.rank(parsed, { limit: 10, accept: () => true, all: true });
      assert.ok(alone.length > 0, state.spec.name);
      for (const r of alone) assert.equal(many.find((m) => m.entry === r.entry)?.score, r.score, r.entry.endpoint.id);
    }
  });
});
