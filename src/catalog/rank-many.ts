// Ranking over several specs' indexes: each index's term weights rescaled from its own inverse
// document frequency to the catalogue's (so scores compare across specs as in one index), each
// spec's first hits then put in its own order, the indexes visited most promising first, and the
// search stopped once no index left can reach the page.
import { descending } from './order.ts';
import { VisitOrder } from './visit-order.ts';
import { RULES } from './rules.ts';
import { type Entry, type ParsedQuery, type Ranked, type SearchIndex, boundOf } from './search.ts';
import type { SpecState } from './spec-state.ts';
import { type Holders, type TermHolders, idf } from './term-holders.ts';
import { fuzzyDistance } from './term-plan.ts';
import { API_FIT, IDF_RESCALE, SPEC_CHOICE, WEIGHTS, lateGainBound } from './weights.ts';

/**
 * A search over many specs stops after this many indexes once it has a full page: the bounds are
 * loose enough that near-equal specs (the same API loaded under two names) would otherwise all be
 * searched. The most promising indexes go first, so what is left out seldom beats the page. Four: on the
 * query sets' nine specs, whole-catalogue answers are the same as with every index searched (three
 * loses some); each index searched costs up to ~1 ms for a Kubernetes-sized spec.
 */
const MAX_INDEXES_SEARCHED = 4;

/**
 * The fuzzy fallback (nothing matched as typed) reads up to this many times the index budget once
 * it has a page, the most promising indexes first (by the best score of a term each can match):
 * it has no bounds to stop by. At hub scale (2,600 APIs, budget 11), development queries with a
 * letter dropped from each long word: asking every index that can match, hit@1 / hit@5 / MRR 0.205
 * / 0.363 / 0.269, p99 130 ms; 4 times the budget 0.205 / 0.355 / 0.267, p99 21 ms; once the budget
 * 0.174 / 0.313 / 0.231, p99 25 ms.
 */
const FALLBACK_BUDGET_FACTOR = 4;

/**
 * With many APIs loaded, the bounds tell the likely APIs apart less well (choosing the API is most of
 * the work at that scale), so more indexes are searched: `SPEC_CHOICE.moreIndexesPerLog` more per
 * e-fold of APIs beyond `SPEC_CHOICE.moreIndexesFrom` (4 up to 256 APIs, 11 at ~2,600). Each costs
 * up to ~1 ms for a large spec, so it starts only where the catalogue is large enough to need it.
 */
function indexesSearched(base: number, apis: number): number {
  return base + Math.floor(SPEC_CHOICE.moreIndexesPerLog * Math.max(0, Math.log(apis / SPEC_CHOICE.moreIndexesFrom)));
}

/** How a search over many specs limits its work (see `CatalogOptions`; every field set). */
export interface SearchBudget {
  /** -1: derived from the number of specs (`indexesSearched`). */
  readonly maxIndexesSearched: number;
  readonly prune: boolean;
  readonly budgetMs: number;
  readonly budgetPostings: number;
  /** Milliseconds the fuzzy fallback may ask indexes once it has a hit (none: no time limit of its own). */
  readonly fallbackMs?: number;
}

export const byPosition = (entry: Entry): number => entry.position;

/** One spec's search: exactly what a catalogue holding that spec alone answers. */
export function rankOne(state: SpecState, parsed: ParsedQuery, limit: number, accept: (e: Entry) => boolean, all: boolean): Ranked[] {
  return state.index.rank(parsed, { limit, accept, all, order: byPosition });
}

/** Per-spec sums a many-index search reuses from query to query (indexed by `SpecState.position`). */
interface Scratch {
  text: Float64Array;
  postings: Float64Array;
  best: Float64Array;
  scale: Float64Array;
  /** Which query term last touched the spec (its `best` and `scale` are valid for that term only). */
  termMark: Int32Array;
  /** Which query last touched the spec (its `text` and `postings` are valid for that query only). */
  queryMark: Int32Array;
  /** How many of the query's terms (or words they begin) the spec holds. */
  held: Int32Array;
  /** The specificity (over specs) of the query's own words the spec holds, summed. */
  cover: Float64Array;
  /** How well the API's own words fit the query, the API read as one document (see `API_FIT`). */
  fit: Float64Array;
  /** What the spec's scores count as: (its cover / the best cover) to a power (see `WEIGHTS.specCover`). */
  coverFactor: Float64Array;
  /** The best score any of the spec's documents could reach (`boundOf`, times `coverFactor`). */
  bound: Float64Array;
}

/**
 * How many of a spec's first hits a search over many specs puts in the spec's own order
 * (`inOwnOrder`). A fixed depth, not the page's: the order must be the same for every page.
 */
export const OWN_ORDER_DEPTH = 10;

/**
 * A spec's hits for a search over many (`ranked`: its index ranked with the catalogue's word
 * statistics, so that scores compare across specs and say which API, holding at least its first
 * `OWN_ORDER_DEPTH` hits), with those first hits put in the order the spec's own statistics give
 * them (`own`: the index ranked among them alone, as a search within the spec ranks), each taking
 * in turn the scores of `ranked`; the rest as they were. A word common in this API and rare
 * elsewhere (`spam` in an email API) tells its endpoints apart less than the catalogue's weights
 * claim: within an API its own statistics say which endpoint.
 */
export function inOwnOrder(ranked: readonly Ranked[], own: (among: ReadonlySet<Entry>) => readonly Ranked[]): readonly Ranked[] {
  const n = Math.min(ranked.length, OWN_ORDER_DEPTH);
  if (n < 2) return ranked;
  const first = ranked.slice(0, n).map((r) => r.entry);
  const among = new Set(first);
  const entries: Entry[] = [];
  for (const r of own(among)) if (among.delete(r.entry)) entries.push(r.entry);
  // Any the own ranking left out (none should be) keep the catalogue's order, after the rest.
  for (const entry of first) if (among.has(entry)) entries.push(entry);
  return [...entries.map((entry, i) => ({ entry, score: ranked[i]!.score })), ...ranked.slice(n)];
}

/** Whether `scale` (capped as text scores cap it) is one number for all of `terms`. */
export function sameScale(terms: readonly string[], scale: (term: string) => number): boolean {
  const first = Math.min(scale(terms[0] ?? ''), IDF_RESCALE.max);
  return terms.every((t) => Math.min(scale(t), IDF_RESCALE.max) === first);
}

/** Ranks over any subset of one catalogue's specs (`all`, in catalogue order); built anew on every `replace`. */
export class ManyRanker {
  readonly #all: readonly SpecState[];
  readonly #terms: TermHolders;
  /** Endpoints in the catalogue. */
  readonly #size: number;
  readonly #budget: SearchBudget;
  #scratch: Scratch | undefined;
  #mark = 0;

  constructor(all: readonly SpecState[], terms: TermHolders, size: number, budget: SearchBudget) {
    this.#all = all;
    this.#terms = terms;
    this.#size = size;
    this.#budget = budget;
  }

  /**
   * Search several specs' indexes and merge. Indexes holding none of the query's terms (nor words
   * they begin) are skipped without a search.
   */
  rank(states: readonly SpecState[], parsed: ParsedQuery, limit: number, accept: (e: Entry) => boolean, all: boolean): Ranked[] {
    if (parsed.terms.length === 0) return [];
    // The fuzzy fallback's time bound counts from here: what comes before it is its cost too.
    // Stryker disable next-line ArithmeticOperator,MethodExpression: speed only (a later start of the clock only lets the fallback ask more indexes)
    const started = performance.now();
    const { scaleFor, expansions, maxIndexesSearched, order } = this.#plan(states, parsed);
    const { bound, postings, coverFactor } = this.#scratch!;
    // Most promising index first; stop once no remaining index can reach the current top `limit`.
    // `rank`: the hit's place in its spec's list, which ties keep (equal scores from one spec stay in its order).
    const top: { r: Ranked; spec: number; rank: number }[] = [];
    const better = (a: { r: Ranked; spec: number; rank: number }, b: { r: Ranked; spec: number; rank: number }) =>
      descending(a.r.score, b.r.score) || a.spec - b.spec || a.rank - b.rank;
    let searched = 0;
    const { prune, budgetMs, budgetPostings } = this.#budget;
    const deadline = performance.now() + budgetMs;
    let work = 0;
    const extras = order.extras;
    let extraAt = 0;
    let stopped = false;
    for (;;) {
      let p: number;
      const late = stopped;
      if (!stopped) {
        p = order.next();
        if (p < 0) {
          stopped = true;
          continue;
        }
        if (prune && top.length >= limit && (bound[p]! < top[limit - 1]!.r.score || searched >= maxIndexesSearched)) {
          // Stryker disable next-line BooleanLiteral: speed only (not stopping, every later candidate meets the same test, bounds falling, and is skipped the same way)
          stopped = true;
          continue;
        }
      } else {
        if (extraAt >= extras.length) break;
        p = extras[extraAt++]!;
        // Past the budget: only one whose bound can still reach the top, whatever stopped the rest.
        if (prune && top.length >= limit && bound[p]! < top[limit - 1]!.r.score) continue;
      }
      if (prune && top.length > 0 && (work > budgetPostings || performance.now() > deadline)) break;
      work += postings[p]!;
      if (!late) searched++;
      const floor = prune && top.length >= limit ? top[limit - 1]!.r.score : undefined;
      const index = this.#all[p]!.index;
      const cover = coverFactor[p]!;
      const options = { accept, all, fuzzy: false, termScale: scaleFor(index), expansions, order: byPosition };
      // (A ranking's `limit` sizes its re-rank pool, at least `rerankPool`'s 120: it holds the first `OWN_ORDER_DEPTH` whole.)
      let ranked: readonly Ranked[] = index.rank(parsed, {
        ...options,
        limit,
        // Stryker disable next-line ArithmeticOperator,ObjectLiteral: speed only (a lower floor, or none, re-ranks results that cannot reach the page anyway)
        ...(floor !== undefined ? { floor: cover > 0 ? floor / cover : Infinity } : {}),
      });
      // With one scale for every query term (one term, say), the own statistics give the same order.
      // Stryker disable next-line ConditionalExpression: speed only when always ordered (the same order comes back); never ordered fails test/catalog/own-order-contract
      if (RULES.ownOrder && !sameScale(parsed.terms, options.termScale)) {
        // The floor may have left out some of the first `OWN_ORDER_DEPTH`, which the own order needs whole.
        // (It leaves out only results its loose ceiling puts below the page: no generated catalogue (120,000
        // tried) nor development query has needed this yet, so no test fails without it. Kept: pruning must change nothing.)
        if (floor !== undefined && ranked.length > 0 && ranked.length < OWN_ORDER_DEPTH) ranked = index.rank(parsed, { ...options, limit });
        // Only the hits are ranked (`accept`): a spec with more matches than a re-rank pool holds might leave one of them out of its own pool.
        // Stryker disable next-line BooleanLiteral: below a pool's size (120 matches) the own ranking holds every hit either way
        ranked = inOwnOrder(ranked, (among) => index.rank(parsed, { ...options, accept: (e) => among.has(e), all: false, termScale: undefined, limit: OWN_ORDER_DEPTH }));
      }
      for (let i = 0; i < ranked.length && i < limit; i++) top.push({ r: cover === 1 ? ranked[i]! : { ...ranked[i]!, score: ranked[i]!.score * cover }, spec: p, rank: i });
      top.sort(better);
      if (top.length > limit) top.length = limit;
    }
    if (top.length === 0) {
      // Nothing matched as typed: let every index try its fuzzy fallback. With pruning on, only those
      // that can match (`fallbackHolders`; asking all 2,600 indexes of a hub took over 100 ms), the
      // most promising first, and once the page is full no more than `FALLBACK_BUDGET_FACTOR` times
      // the index budget (a typo of a word 500 APIs hold asked them all: 140 ms).
      const able = prune ? this.#terms.fallbackHolders(parsed.terms, expansions, fuzzyDistance) : undefined;
      let order = states.map((_, i) => i);
      if (able) order = order.filter((i) => able.has(states[i]!)).sort((a, b) => able.get(states[b]!)! - able.get(states[a]!)! || a - b);
      let asked = 0;
      // Once it has a hit, the fallback also stops at its own time bound: the first typo after a
      // start loads each index it asks (see `CatalogOptions.fallbackMs`).
      const stopAt = started + (this.#budget.fallbackMs ?? Infinity);
      for (const spec of order) {
        const now = prune ? performance.now() : 0;
        if (prune && (now > deadline || (top.length > 0 && now > stopAt) || (top.length >= limit && asked >= FALLBACK_BUDGET_FACTOR * maxIndexesSearched))) break;
        asked++;
        const state = states[spec]!;
        const ranked = state.index.rank(parsed, { limit, accept, all, termScale: scaleFor(state.index), order: byPosition });
        for (let i = 0; i < ranked.length && i < limit; i++) top.push({ r: ranked[i]!, spec, rank: i });
      }
      top.sort(better);
    }
    return top.slice(0, limit).map((m) => m.r);
  }

  /**
   * The indexes a ranking of `parsed` over `states` reads first, most promising first: its budget's
   * and the best-fitting extras (the ranking may stop sooner, or read more when the page is not
   * full). A spec's index is loaded on the first search that reads it, so a caller can load these
   * ahead, a few at a time (Catalog.prepareSearch).
   */
  firstVisited(states: readonly SpecState[], parsed: ParsedQuery): SearchIndex[] {
    // Stryker disable next-line ConditionalExpression: speed only (with no term no index has a bound, and the plan names none)
    if (parsed.terms.length === 0) return [];
    const { maxIndexesSearched, order } = this.#plan(states, parsed);
    const out: SearchIndex[] = [];
    for (let p = order.next(); p >= 0 && out.length < maxIndexesSearched; p = order.next()) out.push(this.#all[p]!.index);
    for (const p of order.extras) out.push(this.#all[p]!.index);
    return out;
  }

  /** What a ranking starts from: the catalogue's word weights, each index's bound (in the scratch arrays) and the order of visits. */
  #plan(states: readonly SpecState[], parsed: ParsedQuery) {
    const documents = this.#size;
    const globalIdf = new Map<string, number>();
    for (const t of parsed.terms) globalIdf.set(t, idf(documents, this.#terms.df(t)));
    const expansions = this.#terms.expansions(parsed.terms);
    const scaleFor = (index: SearchIndex) => {
      const size = index.size;
      return (term: string) => {
        const local = index.df(term);
        return local > 0 ? (globalIdf.get(term) ?? 1) / idf(size, local) : 1;
      };
    };
    const positions = this.#bounds(states, parsed, globalIdf, expansions);
    const { bound, fit } = this.#scratch!;
    const maxIndexesSearched = this.#budget.maxIndexesSearched >= 0 ? this.#budget.maxIndexesSearched : indexesSearched(MAX_INDEXES_SEARCHED, this.#all.length);
    // Beside the budget, the APIs whose own words fit the query best are visited, at any number of
    // APIs (a budget of none asks for the fewest indexes that fill the page: nothing beside them).
    const order = new VisitOrder(positions, bound, fit, maxIndexesSearched, this.#budget.prune && maxIndexesSearched > 0 ? API_FIT.extraIndexes : 0);
    return { scaleFor, expansions, maxIndexesSearched, order };
  }

  /**
   * Indexes that can match (their catalogue positions), each with the best score any of its
   * documents could reach (`boundOf`) in the scratch's `bound`, its sums run over the holders of
   * each query word (and of the words it may expand to), so that indexes holding none are never
   * looked at and no index is asked for a term. Sums run term by term, a term's own best before
   * its expansions', in query order: the bounds do not depend on how many indexes there are.
   */
  #bounds(
    states: readonly SpecState[],
    parsed: ParsedQuery,
    globalIdf: ReadonlyMap<string, number>,
    expansions: ReadonlyMap<string, readonly string[]>,
  ): number[] {
    const member = states === this.#all ? undefined : new Set(states);
    const n = this.#all.length;
    let scratch = this.#scratch;
    if (!scratch || scratch.text.length < n) {
      scratch = this.#scratch = {
        text: new Float64Array(n),
        postings: new Float64Array(n),
        best: new Float64Array(n),
        scale: new Float64Array(n),
        termMark: new Int32Array(n),
        queryMark: new Int32Array(n),
        held: new Int32Array(n),
        cover: new Float64Array(n),
        fit: new Float64Array(n),
        coverFactor: new Float64Array(n),
        bound: new Float64Array(n),
      };
      this.#mark = 0;
    }
    const { text, postings, best, scale, termMark, queryMark, held, cover, fit, coverFactor, bound } = scratch;
    const query = ++this.#mark;
    const touched: SpecState[] = [];
    const termTouched: number[] = [];
    const lateFactor = lateGainBound(parsed.terms.map((t) => parsed.weights.get(t) ?? 1));
    const avgSize = this.#size / Math.max(1, n);
    const { k: apiK1, b: apiB } = API_FIT;
    for (const t of parsed.terms) {
      const w = parsed.weights.get(t) ?? 1;
      const term = ++this.#mark;
      termTouched.length = 0;
      const specificity = Math.log((n + 1) / (this.#terms.holders(t)?.states.length ?? n));
      const tIdf = globalIdf.get(t) ?? 1;
      // A vocabulary's alternative covers the query by its weight, not as a word the query said.
      const alternativeShare = parsed.alternatives?.has(t) ? w : 1;
      const visit = (h: Holders | undefined, own: boolean) => {
        if (!h) return;
        const hs = h.states;
        const stats = h.stats;
        for (let i = 0; i < hs.length; i++) {
          const state = hs[i]!;
          if (member && !member.has(state)) continue;
          const p = state.position;
          if (queryMark[p] !== query) {
            queryMark[p] = query;
            text[p] = 0;
            postings[p] = 0;
            held[p] = 0;
            cover[p] = 0;
            fit[p] = 0;
            touched.push(state);
          }
          if (termMark[p] !== term) {
            termMark[p] = term;
            best[p] = 0;
            scale[p] = 1;
            termTouched.push(p);
            held[p] = held[p]! + 1;
          }
          if (own) {
            const df = stats[2 * i]!;
            best[p] = stats[2 * i + 1]!;
            // Capped as the text score caps it (`IDF_RESCALE`): the bound stays an upper bound, and a tight one.
            scale[p] = Math.min(IDF_RESCALE.max, tIdf / idf(state.index.size, df));
            postings[p] = postings[p]! + df;
            cover[p] = cover[p]! + specificity * alternativeShare;
            // BM25 over APIs: the endpoints holding the word are its count in the API, the API's endpoints its length.
            fit[p] = fit[p]! + specificity * alternativeShare * ((df * (apiK1 + 1)) / (df + apiK1 * (1 - apiB + (apiB * state.index.size) / avgSize)));
          } else {
            // A prefix match weighs at most `WEIGHTS.prefix` of an exact one.
            best[p] = best[p]! + WEIGHTS.prefix * stats[2 * i + 1]!;
          }
        }
      };
      visit(this.#terms.holders(t), true);
      for (const x of expansions.get(t) ?? []) visit(this.#terms.holders(x), false);
      for (const p of termTouched) text[p] = text[p]! + w * scale[p]! * best[p]!;
    }
    // An API whose own words cover more of the query (weighted by how few APIs hold each word) is
    // the likelier one: its scores count as (its cover / the best cover) to a small power.
    let bestCover = 0;
    for (const state of touched) bestCover = Math.max(bestCover, cover[state.position]!);
    const coverPower = WEIGHTS.specCover.perLog * Math.max(0, Math.log(n / WEIGHTS.specCover.from));
    const out: number[] = [];
    for (const state of touched) {
      const p = state.position;
      const factor = bestCover > 0 && coverPower > 0 ? (cover[p]! / bestCover) ** coverPower : 1;
      coverFactor[p] = factor;
      bound[p] = factor * boundOf(parsed, text[p]!, postings[p]!, lateFactor, held[p]!);
      out.push(p);
    }
    return out;
  }
}
