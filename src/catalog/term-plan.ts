// How one index looks a query's terms up: rarest first within a postings budget, the commonest
// left out and checked on the candidates instead, prefix expansion only while the query is cheap;
// and the upper bound of any score that look-up can give (what a caller merging indexes prunes by).
import type { ParsedQuery } from './query.ts';
import { type BoundQuery, WEIGHTS, factorBound } from './weights.ts';

/**
 * MiniSearch's cost is the postings it visits. When a query's terms together appear in more
 * documents than this (common words in a very large catalogue), the most common terms are left
 * out of the index query and checked on the candidates instead.
 */
export const POSTINGS_BUDGET = 1500;
/** Query terms shorter than this are never prefix-expanded (`ap` would expand to half the index). */
export const PREFIX_MIN = 5;
/**
 * The fuzzy fallback (when nothing matches as typed) looks up terms of at least this many letters,
 * each within `FUZZY_SHARE` of its letters (rounded) of edits: in a short word one changed letter is
 * another word ("pods" / "pads"), in a long one mostly a typo ("widgetz").
 */
export const FUZZY_MIN = 5;
export const FUZZY_SHARE = 0.2;

/** The edits a fuzzy look-up of `term` allows (as MiniSearch counts them: at most 6), 0 for none. */
export function fuzzyDistance(term: string): number {
  return term.length >= FUZZY_MIN ? Math.min(6, Math.round(term.length * FUZZY_SHARE)) : 0;
}
/** Fields that say what an endpoint is; prose and parameter names are skipped for expensive queries. */
export const STRONG_FIELDS = ['s', 'p', 'o', 't', 'd'];

/** The query's terms as one index looks them up. */
export interface TermPlan {
  /** Every term, cheapest to look up first. */
  readonly byRarity: readonly string[];
  /** Terms the index query looks up. */
  readonly searched: readonly string[];
  /** Terms left out (past the budget): checked on the candidates. */
  readonly late: readonly string[];
  /** Postings the searched terms visit (exact matches). */
  readonly postings: number;
}

/** Splits the query's terms by cost (`df`: documents per term in this index). */
export function planTerms(parsed: ParsedQuery, df: (term: string) => number): TermPlan {
  const weights = parsed.weights;
  // Rarest terms first; past the budget, the rest are checked on the candidates only.
  // Low-weight words ("my", "all") go last: a candidate pool drawn from them alone would miss the point.
  const cost = (t: string) => df(t) * ((weights.get(t) ?? 1) < 1 ? 100 : 1);
  const byRarity = [...parsed.terms].sort((a, b) => cost(a) - cost(b));
  const searched: string[] = [];
  const late: string[] = [];
  let postings = 0;
  for (const t of byRarity) {
    const n = df(t);
    if (searched.length > 0 && postings + n > POSTINGS_BUDGET) late.push(t);
    else {
      searched.push(t);
      postings += n;
    }
  }
  return { byRarity, searched, late, postings };
}

/**
 * Prefix expansion multiplies the postings visited: only while the query is cheap, counting for
 * each searched term of `PREFIX_MIN` letters or more every index term it begins (`prefixDf`).
 */
export function cheapEnough(plan: TermPlan, df: (term: string) => number, prefixDf: (term: string) => number): boolean {
  if (plan.late.length > 0 || plan.postings >= POSTINGS_BUDGET / 2) return false;
  let expanded = 0;
  for (const t of plan.searched) expanded += t.length >= PREFIX_MIN ? prefixDf(t) : df(t);
  return expanded < POSTINGS_BUDGET / 2;
}

/**
 * An upper bound of every score `SearchIndex.rank` can give a document of one index for `parsed`,
 * from sums over the query's terms t (each with its weight w and the caller's `termScale` s):
 * `text` = sum of w x s x (best(t) + `WEIGHTS.prefix` x best(x) for each longer word x that t may
 * expand to), `postings` = sum of df(t), `lateFactor` = `lateGainBound` of the weights, and
 * `held` = how many of the query's terms (or words they begin) the index holds.
 */
export function boundOf(parsed: BoundQuery, text: number, postings: number, lateFactor: number, held: number): number {
  // Past the postings budget some terms are checked on candidates and multiply the score instead.
  if (postings > POSTINGS_BUDGET) text *= lateFactor;
  // MiniSearch multiplies a document's score by the number of query terms it matched: at most the
  // number of them (or words they begin) the index holds.
  return (text * Math.max(1, held)) ** WEIGHTS.textExponent * factorBound(parsed);
}
