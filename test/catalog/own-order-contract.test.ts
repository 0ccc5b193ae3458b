// A search over several specs scores across APIs with the catalogue's word statistics, but lists
// each spec's first hits in the order a search within that spec lists them (rank-many.ts
// `inOwnOrder`): for generated catalogues and queries, the hits of one spec, taken from the merged
// list, come in the order of that spec's own ranking (among its first `OWN_ORDER_DEPTH` hits),
// the merged list stays sorted by score, and a deeper page starts with the shallower one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Loaded } from '../../src/catalog/loaded.ts';
import { OWN_ORDER_DEPTH, type SearchBudget, inOwnOrder, rankOne } from '../../src/catalog/rank-many.ts';
import { withRules } from '../../src/catalog/rules.ts';
import { type Entry, parseQuery } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { TermHolders } from '../../src/catalog/term-holders.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { spec } from './fixtures.ts';

const WORDS = ['spam', 'report', 'email', 'list', 'bounce', 'group', 'domain', 'record', 'block'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'DELETE'];
const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  segments: fc.array(fc.constantFrom(...WORDS, '{id}'), { minLength: 1, maxLength: 3 }),
  summary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
});
// Up to 16 endpoints a spec: some hold more hits than the depth.
const specArb = fc.uniqueArray(endpointArb, { minLength: 1, maxLength: 16, size: 'max', selector: (e) => `${e.method} /${e.segments.join('/')}` });
const queryArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const budget = (prune: boolean): SearchBudget => ({ maxIndexesSearched: Infinity, prune, budgetMs: Infinity, budgetPostings: Infinity });

function catalogue(raws: readonly (readonly { method: HttpMethod; segments: string[]; summary: string[] }[])[], prune: boolean): Loaded {
  const states = raws.map((raw, i) => new SpecState(spec(`api${i}`, raw.map((e) => ({ method: e.method, path: `/${e.segments.join('/')}`, summary: e.summary.join(' ') })))));
  const terms = new TermHolders();
  terms.add(states);
  return new Loaded(states, terms, budget(prune));
}

describe('a search over several specs lists each spec in its own order', () => {
  it("gives each spec's hits in the order a search within that spec gives them, the same at every depth", () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 2, maxLength: 4 }), queryArb, fc.integer({ min: 1, max: 24 }), fc.boolean(), (raws, query, limit, prune) => {
        const loaded = catalogue(raws, prune);
        const parsed = parseQuery(query);
        const merged = loaded.ranker.rank(loaded.states, parsed, limit, () => true, true);
        for (let i = 1; i < merged.length; i++) assert.ok(merged[i - 1]!.score >= merged[i]!.score, 'sorted by score');
        const deeper = loaded.ranker.rank(loaded.states, parsed, limit + 5, () => true, true);
        assert.deepEqual(deeper.slice(0, merged.length), merged, 'a deeper page starts with this one');
        if (prune) {
          const open = catalogue(raws, false);
          const ids = (rs: readonly { entry: { endpoint: { id: string } }; score: number }[]) => rs.map((r) => `${r.entry.endpoint.id} ${r.score}`);
          assert.deepEqual(ids(merged), ids(open.ranker.rank(open.states, parsed, limit, () => true, true)), 'pruning changes nothing');
        }
        let matches = 0;
        for (const state of loaded.states) {
          const own = rankOne(state, parsed, state.entries.length, () => true, true).map((r) => r.entry.endpoint.id);
          // Matches as typed (a search over many tries no fuzzy matches while any index has one).
          matches += state.index.rank(parsed, { limit: state.entries.length, accept: () => true, all: true, fuzzy: false }).length;
          // A spec's first hits, as far as the depth, in its own order (past the depth, the catalogue's).
          const mine = merged.filter((r) => r.entry.endpoint.spec === state.spec.name).map((r) => r.entry.endpoint.id).slice(0, OWN_ORDER_DEPTH);
          assert.deepEqual(mine, own.filter((id) => mine.includes(id)), `${state.spec.name} for "${query}"`);
        }
        // (With no match as typed the fuzzy fallback answers: another contract, rank-many-contract's.)
        if (matches > 0) assert.equal(merged.length, Math.min(limit, matches), 'every match up to the page');
      }),
      { numRuns: 300 },
    );
  });

  it('switched off, lists each spec by the catalogue statistics (the ablation bench measures it so)', () => {
    // Found by the property above with the rule off: "block email" over these two specs.
    const raws = [
      [
        { method: 'GET' as const, segments: ['block'], summary: ['spam'] },
        { method: 'GET' as const, segments: ['spam'], summary: ['email', 'spam'] },
      ],
      [{ method: 'GET' as const, segments: ['spam'], summary: ['block'] }],
    ];
    const query = parseQuery('block email');
    const loaded = catalogue(raws, false);
    const ids = (on: boolean) => withRules({ ownOrder: on }, () => loaded.ranker.rank(loaded.states, query, 10, () => true, true).map((r) => r.entry.endpoint.id));
    const own = rankOne(loaded.states[0]!, query, 10, () => true, true).map((r) => r.entry.endpoint.id);
    assert.deepEqual(ids(true).filter((id) => id.startsWith('api0:')), own);
    assert.deepEqual(ids(false).filter((id) => id.startsWith('api0:')), [...own].reverse());
  });

  it('keeps the scores in their places; past the depth, and any its own ranking leaves out, as they were', () => {
    const entry = (position: number) => ({ endpoint: { id: `e${position}` }, position }) as unknown as Entry;
    const ranked = Array.from({ length: OWN_ORDER_DEPTH + 2 }, (_, i) => ({ entry: entry(i), score: 100 - i }));
    const ids = (rs: readonly { entry: { endpoint: { id: string } }; score: number }[]) => rs.map((r) => `${r.entry.endpoint.id} ${r.score}`);
    const reversed = ranked.slice(0, OWN_ORDER_DEPTH).reverse();
    const want = [...reversed.map((r, i) => `${r.entry.endpoint.id} ${100 - i}`), ...ids(ranked.slice(OWN_ORDER_DEPTH))];
    // The own ranking may name an entry past the depth, or one twice: neither moves.
    assert.deepEqual(ids(inOwnOrder(ranked, () => [ranked[OWN_ORDER_DEPTH + 1]!, ...reversed, reversed[0]!])), want);
    assert.deepEqual(ids(inOwnOrder(ranked.slice(0, 3), () => [ranked[1]!])), ['e1 100', 'e0 99', 'e2 98']);
    let asked = false;
    assert.deepEqual(ids(inOwnOrder(ranked.slice(0, 1), () => ((asked = true), []))), ['e0 100']);
    assert.equal(asked, false, 'one hit needs no order of its own');
  });
});
