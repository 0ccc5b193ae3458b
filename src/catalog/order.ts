// Sort comparators over scores. `b - a` is what they mean, but a comparator's result that is not a
// small integer is a heap number: sorting results by score allocated one per comparison, tens of
// kilobytes a search. The sign is all a sort reads of it, and the sign is what this gives.

/** -1, 0 or 1 as `b - a` is negative, zero or positive; 0 when either is NaN (as `b - a || ...` goes on to its tie-break then). */
export function descending(a: number, b: number): number {
  return b > a ? 1 : b < a ? -1 : 0;
}
