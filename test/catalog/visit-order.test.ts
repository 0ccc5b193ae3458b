// Which indexes a search over many APIs visits, and in what order: the budget's best by bound, and
// beside them the APIs whose own words fit the query best, visited last so the floor the others set
// can skip them (the bound still stops the search exactly).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type Candidate, visitOrder } from '../../src/catalog/rank-many.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { spec } from './fixtures.ts';

const state = new SpecState(spec('s', [{ method: 'GET', path: '/things', summary: 'List things' }]));

/** Candidates sorted by bound (descending), as the ranker hands them over, with the given fits. */
function candidates(fits: readonly number[]): Candidate[] {
  return fits.map((fit, i) => ({ state, spec: i, bound: 100 - i, postings: 1, cover: 1, fit }));
}

const specs = (cs: readonly Candidate[]) => cs.map((c) => c.spec);

describe('visitOrder', () => {
  const ROWS: { name: string; fits: number[]; budget: number; extra: number; first: number[] }[] = [
    { name: 'the best fits the budget leaves out go last', fits: [1, 1, 1, 5, 2, 9], budget: 2, extra: 2, first: [5, 3] },
    { name: 'fits within the budget do not count', fits: [9, 2, 1, 2, 3], budget: 2, extra: 1, first: [4] },
    { name: 'an API fitting no better than every one the budget takes is not taken', fits: [9, 9, 1, 2, 9], budget: 2, extra: 2, first: [] },
    { name: 'an API fitting as well as the worst the budget takes is not taken', fits: [9, 4, 4, 5, 1], budget: 2, extra: 2, first: [3] },
    { name: 'no extra: bound order', fits: [1, 2, 3, 4], budget: 1, extra: 0, first: [] },
    { name: 'all within the budget: bound order', fits: [1, 2, 3], budget: 3, extra: 2, first: [] },
    { name: 'an API holding none of the query words as such (fit 0) is not taken', fits: [1, 0, 0, 3], budget: 1, extra: 2, first: [3] },
    { name: 'equal fits: catalogue order', fits: [1, 4, 4, 4], budget: 1, extra: 2, first: [1, 2] },
  ];
  for (const row of ROWS) {
    it(row.name, () => {
      const { order, extra } = visitOrder(candidates(row.fits), row.budget, row.extra);
      assert.deepEqual(specs([...extra]), row.first);
      assert.deepEqual(specs(order.slice(order.length - row.first.length)), row.first);
    });
  }

  it('visits every candidate once, the rest in bound order', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { maxLength: 30 }), fc.nat(10), fc.nat(5), (fits, budget, extraCount) => {
        const all = candidates(fits);
        const { order, extra } = visitOrder(all, budget, extraCount);
        assert.deepEqual([...specs(order)].sort((a, b) => a - b), specs(all));
        const rest = order.filter((c) => !extra.has(c));
        for (let i = 1; i < rest.length; i++) assert.ok(rest[i - 1]!.bound >= rest[i]!.bound);
        assert.ok(extra.size <= extraCount);
        const least = budget > 0 ? Math.min(...all.slice(0, budget).map((c) => c.fit)) : 0;
        for (const c of extra) {
          assert.ok(c.spec >= budget, 'an extra index is one the budget leaves out');
          assert.ok(c.fit > least, 'an extra index fits better than one the budget takes');
        }
      }),
    );
  });
});
