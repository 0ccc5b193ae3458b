// The order a search over many APIs visits their indexes in (rank-many.ts `VisitOrder`), against
// a model of its documentation on generated candidates: the budget's candidates by bound first
// (highest bound first, catalogue order among equals), then the rest by bound, the `extra` best
// fits among the rest left out of that order and handed out as `extras` (each fitting better than
// every candidate the budget took, and better than 0). Without room for extras, or without any
// candidate past the budget, the order is the bound order alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { VisitOrder } from '../../src/catalog/visit-order.ts';

function model(positions: number[], bound: number[], fit: number[], budget: number, extra: number): { order: number[]; extras: number[] } {
  const byBound = [...positions].sort((a, b) => bound[b]! - bound[a]! || a - b);
  if (extra <= 0 || positions.length <= budget) return { order: byBound, extras: [] };
  const first = byBound.slice(0, budget);
  const least = budget > 0 ? Math.min(...first.map((p) => fit[p]!)) : 0;
  const extras = byBound
    .slice(budget)
    .filter((p) => fit[p]! > 0 && fit[p]! > least)
    .sort((a, b) => fit[b]! - fit[a]! || a - b)
    .slice(0, extra);
  return { order: byBound.filter((p) => !extras.includes(p)), extras };
}

describe('the visit order of many indexes', () => {
  it('is the budget by bound, then the rest by bound, the best fits beyond the budget apart (generated)', () => {
    const level = fc.constantFrom(0, 0.5, 1, 2, 3);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }).chain((n) =>
          fc.record({
            positions: fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i)),
            bound: fc.array(level, { minLength: n, maxLength: n }),
            fit: fc.array(level, { minLength: n, maxLength: n }),
            budget: fc.integer({ min: 0, max: n + 2 }),
            extra: fc.integer({ min: 0, max: 4 }),
          }),
        ),
        ({ positions, bound, fit, budget, extra }) => {
          const order = new VisitOrder(positions, bound, fit, budget, extra);
          const visited: number[] = [];
          for (let p = order.next(); p !== -1; p = order.next()) visited.push(p);
          assert.deepEqual({ order: visited, extras: [...order.extras] }, model(positions, bound, fit, budget, extra));
        },
      ),
      { numRuns: 500 },
    );
  });
});
