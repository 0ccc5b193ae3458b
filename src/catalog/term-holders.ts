// Word statistics over every spec of the catalogue, kept up to date spec by spec as specs come and
// go: how many documents hold each term in all (what makes scores of different specs' indexes
// comparable), which indexes hold it (so a search over many specs visits only those holding a query
// word), and the sorted vocabulary for prefix look-ups.
import { editDistance } from './similar.ts';
import { type SpecState, push } from './spec-state.ts';
import { PREFIX_MIN } from './search.ts';

/**
 * The indexes holding one term, with the term's document count and best score (`SearchIndex.best`)
 * in each: `stats` holds df, best per holder, in `states` order. What lets a search over many
 * indexes visit only those holding a query word, without a look-up per index.
 */
export interface Holders {
  readonly states: SpecState[];
  readonly stats: number[];
}

/** BM25's inverse document frequency, as MiniSearch computes it. */
export function idf(documents: number, matching: number): number {
  return Math.log(1 + (documents - matching + 0.5) / (matching + 0.5));
}

export class TermHolders {
  /** Documents per term over every spec. */
  readonly #df = new Map<string, number>();
  /** Term -> the indexes holding it. */
  readonly #holders = new Map<string, Holders>();
  /** The catalogue's terms, sorted, for prefix look-ups; built on first need after a change. */
  #vocabulary: string[] | undefined;
  /** The same terms by length, for fuzzy look-ups; built on first need after a change. */
  #byLength: Map<number, LengthBucket> | undefined;

  /** Documents holding `term` over every spec (0 when none). */
  df(term: string): number {
    return this.#df.get(term) ?? 0;
  }

  holders(term: string): Holders | undefined {
    return this.#holders.get(term);
  }

  /**
   * Builds now what the first prefix or fuzzy look-up after a change would (the sorted terms, the
   * terms by length): over the 2,600 APIs of a hub, about 20 ms that the first search paid.
   */
  warm(): void {
    this.#vocabulary ??= [...this.#df.keys()].sort();
    this.#byLength ??= lengthBuckets(this.#df.keys());
  }

  /** Counts the specs in: their terms join the totals and the holders. */
  add(states: Iterable<SpecState>): void {
    for (const s of states) this.#count(s, 1);
  }

  /** Takes the specs out of the totals and of every term's holders. */
  remove(removed: ReadonlySet<SpecState>): void {
    for (const s of removed) this.#count(s, -1);
    this.#dropHolders(removed);
  }

  #count(state: SpecState, delta: number): void {
    this.#vocabulary = undefined;
    this.#byLength = undefined;
    const df = this.#df;
    const holders = this.#holders;
    const index = state.index;
    for (const [term, n] of index.terms()) {
      const total = (df.get(term) ?? 0) + delta * n;
      if (total > 0) df.set(term, total);
      else df.delete(term);
      if (delta > 0) {
        const h = holders.get(term);
        if (h) {
          h.states.push(state);
          h.stats.push(n, index.best(term));
        } else holders.set(term, { states: [state], stats: [n, index.best(term)] });
      }
    }
  }

  /** Takes the removed specs out of every term's holders: one pass per term they held. */
  #dropHolders(removed: ReadonlySet<SpecState>): void {
    // Stryker disable next-line ConditionalExpression: speed only (no spec removed: no holder list changes)
    if (removed.size === 0) return;
    const holders = this.#holders;
    const dirty = new Set<string>();
    for (const s of removed) for (const [term] of s.index.terms()) dirty.add(term);
    for (const term of dirty) {
      const h = holders.get(term);
      if (!h) continue;
      const states: SpecState[] = [];
      const stats: number[] = [];
      for (let i = 0; i < h.states.length; i++) {
        if (removed.has(h.states[i]!)) continue;
        states.push(h.states[i]!);
        stats.push(h.stats[2 * i]!, h.stats[2 * i + 1]!);
      }
      if (states.length > 0) holders.set(term, { states, stats });
      else holders.delete(term);
    }
  }

  /**
   * The catalogue's terms within `distance` edits of `term` (Levenshtein: an insertion, deletion or
   * change of one letter each, as MiniSearch's fuzzy look-up counts them), `term` itself included.
   * Only terms whose length is within `distance` of its own are compared, each given up as soon as
   * a row of the edit table passes `distance`. Before that, a term whose letters differ from
   * `term`'s in more than twice `distance` (`letterMask`: an edit adds or drops at most one letter
   * each side) is passed over without the table: over the ~21,000 terms of 2,600 APIs, 7-12 ms a
   * word without it.
   */
  near(term: string, distance: number): string[] {
    this.warm();
    const byLength = this.#byLength!;
    const out: string[] = [];
    const mask = letterMask(term);
    const most = 2 * distance;
    // Stryker disable next-line MethodExpression: speed only (shorter lengths hold no word within reach: the edit table says so)
    for (let n = Math.max(1, term.length - distance); n <= term.length + distance; n++) {
      const bucket = byLength.get(n);
      if (!bucket) continue;
      const { terms, masks } = bucket;
      for (let i = 0; i < terms.length; i++) {
        // Stryker disable next-line ConditionalExpression: speed only (never skipping leaves every word to the edit table; skipping too much fails test/catalog/fallback-holders-contract)
        if (bitCount(mask ^ masks[i]!) > most) continue;
        if (editDistance(term, terms[i]!, distance) <= distance) out.push(terms[i]!);
      }
    }
    return out;
  }

  /**
   * The catalogue's terms closest to `term`, within `distance` edits, two adjacent letters swapped
   * counting as one edit ("paymnet" / "payment"): those at the least distance, commonest first
   * (more endpoints say them). None when no term is within reach; `term` itself when the catalogue has it.
   */
  closest(term: string, distance: number): string[] {
    // Stryker disable next-line ConditionalExpression: speed only (the scan finds the term itself, alone at distance 0)
    if (this.#df.has(term)) return [term];
    this.warm();
    const byLength = this.#byLength!;
    let best = distance;
    let out: string[] = [];
    const mask = letterMask(term);
    // Stryker disable next-line MethodExpression: speed only (shorter lengths hold no word within reach: the edit table says so)
    for (let n = Math.max(1, term.length - distance); n <= term.length + distance; n++) {
      const bucket = byLength.get(n);
      if (!bucket) continue;
      const { terms, masks } = bucket;
      for (let i = 0; i < terms.length; i++) {
        // Stryker disable next-line ConditionalExpression: speed only (as in near(): the mask only spares the edit table)
        if (bitCount(mask ^ masks[i]!) > 2 * best) continue;
        const d = editDistance(term, terms[i]!, best, true);
        if (d > best) continue;
        if (d < best) {
          best = d;
          out = [];
        }
        out.push(terms[i]!);
      }
    }
    // (Terms are distinct: code-unit order breaks a tie.)
    return out.sort((a, b) => this.df(b) - this.df(a) || (a < b ? -1 : 1));
  }

  /**
   * The indexes whose fuzzy fallback (rank.ts) can match any of `terms`: those holding a term, a
   * longer term it begins (`expansions`), or a term within its fuzzy distance (`distanceOf`); any
   * other index holds no term the fallback looks up, so it can only answer with nothing. Each with
   * the best score (`SearchIndex.best`) of such a term in it: how promising it is.
   */
  fallbackHolders(terms: readonly string[], expansions: ReadonlyMap<string, readonly string[]>, distanceOf: (term: string) => number): Map<SpecState, number> {
    const out = new Map<SpecState, number>();
    const add = (t: string) => {
      const h = this.#holders.get(t);
      if (!h) return;
      for (let i = 0; i < h.states.length; i++) {
        const s = h.states[i]!;
        out.set(s, Math.max(out.get(s) ?? 0, h.stats[2 * i + 1]!));
      }
    };
    for (const t of terms) {
      add(t);
      for (const longer of expansions.get(t) ?? []) add(longer);
      const distance = distanceOf(t);
      if (distance > 0) for (const near of this.near(t, distance)) add(near);
    }
    return out;
  }

  /** Prefix-searched query terms -> the catalogue's longer terms they begin. */
  expansions(terms: readonly string[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const t of terms) {
      if (t.length < PREFIX_MIN) continue;
      this.warm();
      const vocabulary = this.#vocabulary!;
      let lo = 0;
      let hi = vocabulary.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        // Stryker disable next-line EqualityOperator: starting past `t` itself changes nothing, as `t` is left out below
        if (vocabulary[mid]! < t) lo = mid + 1;
        else hi = mid;
      }
      const longer: string[] = [];
      for (let i = lo; i < vocabulary.length && vocabulary[i]!.startsWith(t); i++) if (vocabulary[i] !== t) longer.push(vocabulary[i]!);
      if (longer.length > 0) out.set(t, longer);
    }
    return out;
  }
}

/** Terms of one length, and each one's `letterMask`. */
interface LengthBucket {
  readonly terms: string[];
  readonly masks: Int32Array;
}

function lengthBuckets(terms: Iterable<string>): Map<number, LengthBucket> {
  const byLength = new Map<number, string[]>();
  for (const t of terms) push(byLength, t.length, t);
  const out = new Map<number, LengthBucket>();
  for (const [n, list] of byLength) out.set(n, { terms: list, masks: Int32Array.from(list, letterMask) });
  return out;
}

/**
 * Which characters a word holds, one bit each (by the character code's low five bits, so a few
 * characters share a bit): two words within `d` edits differ in at most `2 * d` bits, since an edit
 * changes at most one character each way. Sharing bits only hides differences, never makes them.
 */
// Stryker disable all: speed only. A mask or count that parts words less (all bits alike, none set,
// a count too low) only leaves more words to the edit table; one that parts them more than their
// edits allow fails test/catalog/fallback-holders-contract (the mask's bound, and near() against the table).
export function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) & 31);
  return mask;
}

/** Set bits of a 32-bit number. */
function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
// Stryker restore all
