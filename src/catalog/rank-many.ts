// Ranking over several specs' indexes: each index's term weights rescaled from its own inverse
// document frequency to the catalogue's (so scores compare across specs as in one index), the
// indexes visited most promising first, and the search stopped once no index left can reach the page.
import { type Entry, type ParsedQuery, type Ranked, type SearchIndex, boundOf } from './search.ts';
import type { SpecState } from './spec-state.ts';
import { type Holders, type TermHolders, idf } from './term-holders.ts';
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
}

/** An index a search may visit, with the best score any of its documents could reach. */
export interface Candidate {
  readonly state: SpecState;
  readonly spec: number;
  readonly bound: number;
  readonly postings: number;
  readonly cover: number;
  /** How well the API's own words fit the query, the API read as one document (see `API_FIT`). */
  readonly fit: number;
}

/**
 * The order a search visits `candidates` (sorted by bound) in, and which of them are visited
 * beyond the budget: every candidate by bound, then the `extra` best-fitting APIs (`fit`) among
 * those the budget of `budget` indexes leaves out, when they fit better than one the budget takes
 * (one that fits no better than all of those adds nothing the bounds missed: an API loaded twice
 * under two names fits as well as its copy). The extra ones come last so that the floor the
 * others set skips any of them that cannot reach the top (their bound is below it): searched first,
 * with no floor yet, each was ranked in full, which cost more than the rest of a query at a few
 * hundred APIs.
 */
export function visitOrder(candidates: readonly Candidate[], budget: number, extra: number): { order: readonly Candidate[]; extra: ReadonlySet<Candidate> } {
  if (extra <= 0 || candidates.length <= budget) return { order: candidates, extra: new Set() };
  // Only an API that fits better than one the budget searches adds what the bounds missed.
  let least = budget > 0 ? Infinity : 0;
  for (let i = 0; i < budget; i++) least = Math.min(least, candidates[i]!.fit);
  const rest = candidates.slice(budget).sort((a, b) => b.fit - a.fit || a.spec - b.spec);
  const last = new Set(rest.slice(0, extra).filter((c) => c.fit > 0 && c.fit > least));
  return { order: [...candidates.filter((c) => !last.has(c)), ...last], extra: last };
}

/** Ranks over any subset of one catalogue's specs (`all`, in catalogue order); built anew on every `replace`. */
export class ManyRanker {
  readonly #all: readonly SpecState[];
  readonly #terms: TermHolders;
  /** Endpoints in the catalogue. */
  readonly #size: number;
  readonly #budget: SearchBudget;
  #scratch: Scratch | undefined;
  #fit: Float64Array | undefined;
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
    const candidates = this.#bounds(states, parsed, globalIdf, expansions);
    // Most promising index first; stop once no remaining index can reach the current top `limit`.
    const top: { r: Ranked; spec: number }[] = [];
    const better = (a: { r: Ranked; spec: number }, b: { r: Ranked; spec: number }) =>
      b.r.score - a.r.score || a.spec - b.spec || a.r.entry.position - b.r.entry.position;
    let searched = 0;
    const { prune, budgetMs, budgetPostings } = this.#budget;
    const maxIndexesSearched = this.#budget.maxIndexesSearched >= 0 ? this.#budget.maxIndexesSearched : indexesSearched(MAX_INDEXES_SEARCHED, this.#all.length);
    const deadline = performance.now() + budgetMs;
    let work = 0;
    // With many APIs, the budget also visits the APIs whose own words fit the query best.
    const { order, extra } = visitOrder(candidates, maxIndexesSearched, prune && this.#all.length >= SPEC_CHOICE.moreIndexesFrom ? API_FIT.extraIndexes : 0);
    let stopped = false;
    for (const c of order) {
      const late = extra.has(c);
      if (late) {
        // Past the budget: only one whose bound can still reach the top, whatever stopped the rest.
        if (prune && top.length >= limit && c.bound < top[limit - 1]!.r.score) continue;
      } else if (stopped) {
        continue;
      } else if (prune && top.length >= limit && (c.bound < top[limit - 1]!.r.score || searched >= maxIndexesSearched)) {
        stopped = true;
        continue;
      }
      if (prune && top.length > 0 && (work > budgetPostings || performance.now() > deadline)) break;
      work += c.postings;
      if (!late) searched++;
      const floor = prune && top.length >= limit ? top[limit - 1]!.r.score : undefined;
      const ranked = c.state.index.rank(parsed, {
        limit,
        accept,
        all,
        fuzzy: false,
        termScale: scaleFor(c.state.index),
        order: byPosition,
        ...(floor !== undefined ? { floor: c.cover > 0 ? floor / c.cover : Infinity } : {}),
      });
      for (let i = 0; i < ranked.length && i < limit; i++) top.push({ r: c.cover === 1 ? ranked[i]! : { ...ranked[i]!, score: ranked[i]!.score * c.cover }, spec: c.spec });
      top.sort(better);
      if (top.length > limit) top.length = limit;
    }
    if (top.length === 0) {
      // Nothing matched as typed: let every index try its fuzzy fallback.
      for (let spec = 0; spec < states.length; spec++) {
        if (prune && performance.now() > deadline) break;
        const state = states[spec]!;
        const ranked = state.index.rank(parsed, { limit, accept, all, termScale: scaleFor(state.index), order: byPosition });
        for (let i = 0; i < ranked.length && i < limit; i++) top.push({ r: ranked[i]!, spec });
      }
      top.sort(better);
    }
    return top.slice(0, limit).map((m) => m.r);
  }

  /**
   * Indexes that can match, most promising first, each with the best score any of its documents
   * could reach (`boundOf`), its sums run over the holders of each query word (and of the words it
   * may expand to), so that indexes holding none are never looked at and no index is asked for a
   * term. Sums run term by term, a term's own best before its expansions', in query order: the
   * bounds do not depend on how many indexes there are. `spec` is the catalogue position (the
   * order of `states`, which is a subsequence of the catalogue's).
   */
  #bounds(
    states: readonly SpecState[],
    parsed: ParsedQuery,
    globalIdf: ReadonlyMap<string, number>,
    expansions: ReadonlyMap<string, readonly string[]>,
  ): Candidate[] {
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
      };
      this.#mark = 0;
    }
    const { text, postings, best, scale, termMark, queryMark, held, cover } = scratch;
    const query = ++this.#mark;
    const touched: SpecState[] = [];
    const termTouched: number[] = [];
    const lateFactor = lateGainBound(parsed.terms.map((t) => parsed.weights.get(t) ?? 1));
    const avgSize = this.#size / Math.max(1, n);
    const { k: apiK1, b: apiB } = API_FIT;
    let fit = this.#fit;
    if (!fit || fit.length < n) fit = this.#fit = new Float64Array(n);
    for (const t of parsed.terms) {
      const w = parsed.weights.get(t) ?? 1;
      const term = ++this.#mark;
      termTouched.length = 0;
      const specificity = Math.log((n + 1) / (this.#terms.holders(t)?.states.length ?? n));
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
            scale[p] = Math.min(IDF_RESCALE.max, (globalIdf.get(t) ?? 1) / idf(state.index.size, df));
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
    const out: Candidate[] = [];
    for (const state of touched) {
      const p = state.position;
      const coverFactor = bestCover > 0 && coverPower > 0 ? (cover[p]! / bestCover) ** coverPower : 1;
      out.push({ state, spec: p, bound: coverFactor * boundOf(parsed, text[p]!, postings[p]!, lateFactor, held[p]!), postings: postings[p]!, cover: coverFactor, fit: fit[p]! });
    }
    out.sort((a, b) => b.bound - a.bound || a.spec - b.spec);
    return out;
  }
}
