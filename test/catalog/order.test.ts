// Scores are sorted by `descending`, which stands for `b - a` in comparators: a sort reads only the
// sign, and a fraction returned is a heap number allocated per comparison. Held to `b - a` here:
// the same sign for any two numbers (infinities, zeros and NaN included), and so the same order
// from a sort, ties broken alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { descending } from '../../src/catalog/order.ts';

const score = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1, 0.5, Infinity, -Infinity, Number.NaN, Number.MIN_VALUE), fc.integer({ min: -3, max: 3 }));

describe('descending', () => {
  it('has the sign of b - a, and 0 where b - a is NaN', () => {
    fc.assert(
      fc.property(score, score, (a, b) => {
        const d = b - a;
        assert.equal(descending(a, b), Number.isNaN(d) || d === 0 ? 0 : Math.sign(d));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts scores, ties broken by a second key, as b - a does', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ s: score, k: fc.integer({ min: 0, max: 5 }) }), { maxLength: 40 }), (items) => {
        const indexed = items.map((x, i) => ({ ...x, i }));
        const byDifference = [...indexed].sort((a, b) => b.s - a.s || a.k - b.k).map((x) => x.i);
        const bySign = [...indexed].sort((a, b) => descending(a.s, b.s) || a.k - b.k).map((x) => x.i);
        assert.deepEqual(bySign, byDifference);
      }),
      { numRuns: 1000 },
    );
  });
});
