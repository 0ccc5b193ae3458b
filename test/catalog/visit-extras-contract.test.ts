// A search over many APIs (any number of them) also visits the APIs whose own words fit the query best
// among those its index budget leaves out (rank-many.ts, `API_FIT.extraIndexes`), after the
// others, and only one whose bound can still reach the page. An index is loaded on its first
// search, so an index never loaded was never searched (visible in its image).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Loaded } from '../../src/catalog/loaded.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { TermHolders } from '../../src/catalog/term-holders.ts';
import { spec } from './fixtures.ts';

const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua';

/**
 * `n` alike APIs of five endpoints, one of them "widgets", then one API all of whose three endpoints
 * say "widgets" in their description only (past `filler` times `FILLER` when `filler` > 0): it fits
 * the query best, its bound is below the others'.
 */
function catalogue(n: number, filler: number, prune = true): Loaded {
  const alike = Array.from({ length: n }, (_, i) =>
    spec(`a${i}`, [
      { method: 'GET', path: `/things${i}`, summary: 'widgets' },
      ...Array.from({ length: 4 }, (_, j) => ({ method: 'GET' as const, path: `/o${j}`, summary: 'other stuff' })),
    ]),
  );
  // In the first sentence of the description, or past it (a field that weighs less), after the filler.
  const description = filler === 0 ? 'widgets lorem ipsum dolor sit amet consectetur adipiscing elit' : `Things. ${`${FILLER} `.repeat(filler)}widgets`;
  const fit = spec('fit', Array.from({ length: 3 }, (_, j) => ({ method: 'GET' as const, path: `/w${j}`, summary: 'Things', description })));
  const states = [...alike, fit].map((s) => new SpecState(s));
  const terms = new TermHolders();
  terms.add(states);
  return new Loaded(states, terms, { maxIndexesSearched: -1, prune, budgetMs: Infinity, budgetPostings: Infinity });
}

const searchedNames = (loaded: Loaded) => loaded.states.filter((s) => typeof s.index.image().mini !== 'function').map((s) => s.spec.name);

describe('the best-fitting APIs beyond the index budget', () => {
  it('are visited after the budget\'s indexes from 256 APIs on', () => {
    const loaded = catalogue(300, 0);
    const hits = loaded.ranker.rank(loaded.states, parseQuery('widgets'), 2, () => true, true);
    assert.deepEqual(searchedNames(loaded), ['a0', 'a1', 'a2', 'a3', 'fit']);
    assert.deepEqual(hits.map((h) => h.entry.endpoint.spec), ['a0', 'a1']);
  });

  it('are visited below 256 APIs too', () => {
    const loaded = catalogue(30, 0);
    loaded.ranker.rank(loaded.states, parseQuery('widgets'), 2, () => true, true);
    assert.deepEqual(searchedNames(loaded), ['a0', 'a1', 'a2', 'a3', 'fit']);
  });

  it('are skipped when their bound cannot reach the page', () => {
    const loaded = catalogue(300, 2);
    loaded.ranker.rank(loaded.states, parseQuery('widgets'), 2, () => true, true);
    assert.deepEqual(searchedNames(loaded), ['a0', 'a1', 'a2', 'a3']);
  });

  it('change nothing without pruning: every index is searched', () => {
    const loaded = catalogue(300, 0, false);
    const hits = loaded.ranker.rank(loaded.states, parseQuery('widgets'), 2, () => true, true);
    assert.equal(searchedNames(loaded).length, 301);
    assert.deepEqual(hits.map((h) => h.entry.endpoint.spec), ['a0', 'a1']);
  });
});
