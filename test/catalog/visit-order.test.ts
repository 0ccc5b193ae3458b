// Which indexes a search over many APIs visits, and in what order: the budget's best by bound, and
// beside them the APIs whose own words fit the query best, visited last so the floor the others set
// can skip them (the bound still stops the search exactly).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { VisitOrder } from '../../src/catalog/visit-order.ts';

/** Every candidate `VisitOrder` hands out: by bound (extras left out), then the extras. */
function visit(bounds: readonly number[], fits: readonly number[], budget: number, extra: number): { order: number[]; extra: number[] } {
  const positions = bounds.map((_, i) => i);
  const visits = new VisitOrder(positions, bounds, fits, budget, extra);
  const order: number[] = [];
  for (let p = visits.next(); p >= 0; p = visits.next()) order.push(p);
  return { order: [...order, ...visits.extras], extra: [...visits.extras] };
}

/** Bounds falling with the position, so that bound order is catalogue order. */
const falling = (n: number) => Array.from({ length: n }, (_, i) => 100 - i);

describe('VisitOrder', () => {
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
      const { order, extra } = visit(falling(row.fits.length), row.fits, row.budget, row.extra);
      assert.deepEqual(extra, row.first);
      assert.deepEqual(order.slice(order.length - row.first.length), row.first);
    });
  }

  it('hands out every candidate once: the rest by bound (catalogue order among equals), then the extras by fit (generated)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ bound: fc.nat(8), fit: fc.nat(20) }), { maxLength: 40 }),
        fc.nat(10),
        fc.nat(5),
        (candidates, budget, extraCount) => {
          const bounds = candidates.map((c) => c.bound);
          const fits = candidates.map((c) => c.fit);
          const { order, extra } = visit(bounds, fits, budget, extraCount);
          assert.deepEqual([...order].sort((a, b) => a - b), bounds.map((_, i) => i));
          const byBound = bounds.map((_, i) => i).sort((a, b) => bounds[b]! - bounds[a]! || a - b);
          const rest = order.slice(0, order.length - extra.length);
          assert.deepEqual(rest, byBound.filter((p) => !extra.includes(p)));
          assert.ok(extra.length <= extraCount);
          const taken = byBound.slice(0, budget);
          const least = budget > 0 ? Math.min(...taken.map((p) => fits[p]!)) : 0;
          // The extras are the best fits (catalogue order among equals) of those left out above `least`.
          const eligible = byBound.slice(budget).filter((p) => fits[p]! > 0 && fits[p]! > least);
          const expected = candidates.length > budget ? eligible.sort((a, b) => fits[b]! - fits[a]! || a - b).slice(0, extraCount) : [];
          assert.deepEqual(extra, expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
