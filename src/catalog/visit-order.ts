// The order a search over many specs visits their indexes in: by the bound of what each could
// score, and beside the budget the APIs whose own words fit the query best (rank-many.ts).

/**
 * The order a search visits candidate indexes in (catalogue positions, with their `bound` and
 * `fit`): by bound, highest first (catalogue order among equals), and beyond the budget of
 * `budget` indexes the `extra` best-fitting APIs among those the budget leaves out, when they fit
 * better than one the budget takes (one that fits no better than all of those adds nothing the
 * bounds missed: an API loaded twice under two names fits as well as its copy). The extras are
 * left out of the bound order and visited last (`extras`), so that the floor the others set skips
 * any of them that cannot reach the top (their bound is below it): searched first, with no floor
 * yet, each was ranked in full, which cost more than the rest of a query at a few hundred APIs.
 * The bound order comes from a heap: a search visits a few of what may be thousands of candidates.
 */
export class VisitOrder {
  /** Positions not handed out yet, a heap by bound (`#higher` at the top). */
  readonly #heap: number[];
  readonly #bound: ArrayLike<number>;
  /** The budget's candidates, taken off the heap to choose the extras, handed out first. */
  readonly #first: number[] = [];
  #firstAt = 0;
  /** Best fit first (catalogue order among equals). */
  readonly extras: readonly number[];

  constructor(positions: readonly number[], bound: ArrayLike<number>, fit: ArrayLike<number>, budget: number, extra: number) {
    this.#bound = bound;
    const heap = (this.#heap = [...positions]);
    // Stryker disable next-line ArithmeticOperator: speed only (nodes past the last parent are leaves: sifting them down does nothing)
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) this.#down(i);
    const extras: number[] = [];
    if (extra > 0 && heap.length > budget) {
      while (this.#first.length < budget) this.#first.push(this.#pop());
      let least = budget > 0 ? Infinity : 0;
      for (const p of this.#first) least = Math.min(least, fit[p]!);
      // The `extra` best fits among the rest, each above `least` (and above 0: holding a query word as such).
      const fitter = (a: number, b: number) => fit[a]! > fit[b]! || (fit[a] === fit[b] && a < b);
      for (const p of heap) {
        if (!(fit[p]! > 0 && fit[p]! > least)) continue;
        if (extras.length === extra && !fitter(p, extras[extra - 1]!)) continue;
        let i = extras.length < extra ? extras.length : extra - 1;
        while (i > 0 && fitter(p, extras[i - 1]!)) {
          extras[i] = extras[i - 1]!;
          i--;
        }
        extras[i] = p;
      }
    }
    this.extras = extras;
  }

  /** The next candidate by bound, extras left out; -1 when none is left. */
  next(): number {
    if (this.#firstAt < this.#first.length) return this.#first[this.#firstAt++]!;
    const extras = this.extras;
    while (this.#heap.length > 0) {
      const p = this.#pop();
      if (extras.length === 0 || !extras.includes(p)) return p;
    }
    return -1;
  }

  #higher(a: number, b: number): boolean {
    const bound = this.#bound;
    return bound[a]! > bound[b]! || (bound[a] === bound[b] && a < b);
  }

  #pop(): number {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      this.#down(0);
    }
    return top;
  }

  #down(i: number): void {
    const heap = this.#heap;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const c = r < n && this.#higher(heap[r]!, heap[l]!) ? r : l;
      if (!this.#higher(heap[c]!, heap[i]!)) return;
      const t = heap[i]!;
      heap[i] = heap[c]!;
      heap[c] = t;
      i = c;
    }
  }
}
