// String keys -> small numbers (an endpoint's place in its spec), without keeping the keys: each
// key's 32-bit hash and its number sit in one sorted typed array, about 8 bytes per pair, where a
// Map<string, ...> costs 40-90 bytes per key beside the key strings it holds. A look-up returns the
// numbers stored under the key's hash; the caller checks each against the real key (two keys may
// share a hash), which is cheap since it reads fields the entry already has.

/** FNV-1a over the UTF-16 code units of `s`. */
export function hashKey(s: string): number {
  let h = 0x811c9dc5;
  // Stryker disable next-line EqualityOperator: one more round past the end mixes in the same value for every key, so tables and look-ups still agree
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Numbers kept below this (2^21): hash and number share one float64 exactly (2^32 x 2^21 = 2^53). */
export const MAX_VALUE = 2 ** 21;

/** A [key, value] pair as one number: `hashKey(key) * MAX_VALUE + value`. */
export function hashed(key: string, value: number): number {
  if (!(Number.isInteger(value) && value >= 0 && value < MAX_VALUE)) throw new RangeError(`KeyTable: value ${value} out of range`);
  return hashKey(key) * MAX_VALUE + value;
}

export class KeyTable {
  /** `hash * MAX_VALUE + value`, ascending. */
  readonly #pairs: Float64Array;
  /** The largest value stored (0 when none). */
  readonly #max: number;

  /**
   * `pairs`: [key, value] in any order, or such pairs already made into numbers (`hashed`, or
   * `shifted` from another table); a repeated pair is kept once.
   */
  constructor(pairs: Iterable<readonly [string, number]> | Float64Array) {
    let list: number[] | Float64Array;
    if (pairs instanceof Float64Array) list = pairs;
    else {
      list = [];
      for (const [key, value] of pairs) list.push(hashed(key, value));
    }
    const sorted = sortPairs(list);
    let n = 0;
    let max = 0;
    for (let i = 0; i < sorted.length; i++) {
      // Stryker disable next-line ConditionalExpression: at i = 0, sorted[n - 1] is undefined, which no number equals
      if (i === 0 || sorted[i] !== sorted[n - 1]) {
        max = Math.max(max, sorted[i]! % MAX_VALUE);
        sorted[n++] = sorted[i]!;
      }
    }
    // Stryker disable next-line ConditionalExpression: a slice of all of it holds the same pairs
    this.#pairs = n === sorted.length ? sorted : sorted.slice(0, n);
    this.#max = max;
  }

  /** The table's pairs with every value raised by `offset` (tables of parts put together into one of the whole). */
  shifted(offset: number): Float64Array {
    const out = new Float64Array(this.#pairs.length);
    this.copyShifted(out, 0, offset);
    return out;
  }

  /** `shifted(offset)` written into `into` from `at`, without a table of its own (a whole of 2,600 parts made 2,600 of them). */
  copyShifted(into: Float64Array, at: number, offset: number): void {
    if (!(Number.isInteger(offset) && offset >= 0 && offset + this.#max < MAX_VALUE)) throw new RangeError(`KeyTable: offset ${offset} out of range`);
    const pairs = this.#pairs;
    for (let i = 0; i < pairs.length; i++) into[at + i] = pairs[i]! + offset;
  }

  get size(): number {
    return this.#pairs.length;
  }

  /** Values stored under keys that hash as `key` does, ascending: check each against `key`. */
  candidates(key: string): number[] {
    return this.candidatesOfHash(hashKey(key));
  }

  /** The same by the key's `hashKey`, for a caller asking many tables with one key. */
  candidatesOfHash(hash: number): number[] {
    const pairs = this.#pairs;
    const from = hash * MAX_VALUE;
    const to = from + MAX_VALUE;
    let lo = 0;
    let hi = pairs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pairs[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < pairs.length && pairs[i]! < to; i++) out.push(pairs[i]! - from);
    return out;
  }
}

/** Tables up to this many pairs are sorted by the engine; larger ones by `bucketSort`. */
const BUCKET_SORT_FROM = 4096;
/** A pair's bucket: the top 16 bits of its hash (pairs are `hash * MAX_VALUE + value`, hash below 2^32). */
const BUCKET_DIVISOR = 2 ** 16 * MAX_VALUE;

/** A sorted copy of `list`. */
function sortPairs(list: readonly number[] | Float64Array): Float64Array {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only (both sorts give the same order: test/catalog/key-table-contract)
  return list.length < BUCKET_SORT_FROM ? Float64Array.from(list).sort() : bucketSort(list);
}

/**
 * Sorted by the top 16 bits of the hash first (a count and a copy), then each bucket by insertion
 * (about three pairs a bucket at 200,000): the table of a whole hub's 200,000 pairs took 14 ms to
 * sort as doubles, the bulk of the first search over 2,600 APIs.
 */
export function bucketSort(list: readonly number[] | Float64Array): Float64Array {
  const buckets = 2 ** 16;
  const starts = new Uint32Array(buckets + 1);
  for (let i = 0; i < list.length; i++) starts[Math.floor(list[i]! / BUCKET_DIVISOR) + 1]!++;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  const next = starts.slice(0, buckets);
  const out = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) out[next[Math.floor(list[i]! / BUCKET_DIVISOR)]!++] = list[i]!;
  for (let b = 0; b < buckets; b++) {
    for (let i = starts[b]! + 1; i < starts[b + 1]!; i++) {
      const v = out[i]!;
      let j = i - 1;
      while (j >= starts[b]! && out[j]! > v) {
        out[j + 1] = out[j]!;
        j--;
      }
      out[j + 1] = v;
    }
  }
  return out;
}
