// MiniSearch's text scores, without its result objects. `MiniSearch.search` builds, for every
// document a query touches, a result with a score, a list of terms and a match object, then a
// second object per result, and sorts them all; a search of a common word over many APIs made
// megabytes of them, and the collections that followed were the slowest searches. Re-ranking
// reads only the best `pool` of them, and of each only its score and how much of the query its
// fields cover. Here the same postings are read in the same order, the same BM25 arithmetic in
// the same order accumulates into typed arrays reused from search to search, and what each
// scoring visit matched (index term, field) is kept in a typed list, from which coverage is
// worked out as MiniSearch's match object would give it: the same scores, order and coverage
// (test/catalog/text-scores.test.ts holds them to MiniSearch's). The index, its term tree and its
// prefix look-ups stay MiniSearch's; fuzzy search, a rare fallback, stays MiniSearch's `search`.
// svc never removes a document from an index (a changed spec gets a new one), so the check
// MiniSearch makes for removed documents is not needed here.
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import { coverage, creditTerm, fieldCoverage, fieldStrength, startCoverage } from './coverage.ts';
import type { Doc } from './document.ts';
import { FieldLengths, FieldPostings } from './lean-maps.ts';
import { descending } from './order.ts';
import type { ParsedQuery } from './query.ts';

/** What re-ranking reads of a text match (a subset of MiniSearch's `SearchResult`). */
export interface TextMatch {
  readonly id: number;
  readonly score: number;
}

/** A search of one index, as the options of `MiniSearch.search` the ranking passes. */
export interface TextQuery {
  /** Query terms, in order (MiniSearch's query string, split), each once (a repeated term would count twice here). */
  readonly terms: readonly string[];
  /** Fields searched, in order. */
  readonly fields: readonly string[];
  readonly boost: Readonly<Record<string, number>>;
  readonly bm25: { readonly k: number; readonly b: number; readonly d: number };
  /** Weight of prefix matches. */
  readonly prefixWeight: number;
  readonly prefix: (term: string) => boolean;
  readonly boostTerm: (term: string) => number;
  /** Called for every posting visited, in MiniSearch's order (gates may keep state); 0 leaves it out. */
  readonly boostDocument?: (id: number, term: string) => number;
}

/** Text matches, best first, each made when asked for. */
export interface TextMatches {
  readonly length: number;
  at(i: number): TextMatch | undefined;
  /** How much of `q` match `i` covers (`coverage.ts`), from the fields each of its terms matched in. */
  coverage(i: number, q: ParsedQuery): number;
}

/** MiniSearch's own results (the fuzzy fallback) as `TextMatches`. */
export function searchResults(results: readonly SearchResult[]): TextMatches {
  return { length: results.length, at: (i) => results[i], coverage: (i, q) => fieldCoverage(results[i]!.match, q) };
}

/** The text matches of one search: how many documents matched, and the best `pool` of them. */
export interface TextScores {
  readonly matched: number;
  readonly best: TextMatches;
}

/** MiniSearch's private fields read here (named as in MiniSearch 7). */
interface Internals {
  _index: {
    get(term: string): FieldMap | undefined;
    atPrefix(prefix: string): Iterable<[string, FieldMap]>;
  };
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _documentCount: number;
  _nextId: number;
  _fieldLength: FieldLengths | Map<number, number[]>;
  _documentIds: { get(short: number): unknown };
}

/** One term's postings: field id -> short document id -> count (a Map, or the lean form). */
type FieldMap = { get(field: number): PostingMap | undefined };
type PostingMap = FieldPostings | Map<number, number>;

/**
 * Working arrays, grown to the largest index searched and reused: a search allocates no per-document
 * state. `mark` tells whether a document's slots belong to the current search.
 */
class Scratch {
  size = 0;
  mark = new Int32Array(0);
  score = new Float64Array(0);
  termScore = new Float64Array(0);
  /** Index of the last query term that matched the document (for MiniSearch's quality factor). */
  lastTerm = new Int32Array(0);
  quality = new Int32Array(0);
  /** Documents in the order they first matched (MiniSearch's Map insertion order). */
  order = new Int32Array(0);
  /** Where the document is in `order` (ties keep that order, as MiniSearch's stable sort). */
  rank = new Int32Array(0);
  /** Documents matched by the current term, for its sums. */
  termDocs = new Int32Array(0);
  termMark = new Int32Array(0);
  /** Per document, its first and last scoring visit (chained through `visits`). */
  firstVisit = new Int32Array(0);
  lastVisit = new Int32Array(0);
  current = 0;
  termCurrent = 0;
  /** Which search the visits belong to: matches made later from stale visits would be wrong. */
  generation = 0;
  /** Visits that scored, `VISIT` numbers each: index term (`derived`), field, next visit of the document (-1: none). */
  visits = new Int32Array(0);

  ensure(n: number): void {
    // Stryker disable next-line EqualityOperator: growing when already large enough changes only memory
    if (n <= this.size) return;
    // Stryker disable next-line ArithmeticOperator: any growth of at least n gives the same results
    const size = Math.max(n, this.size * 2, 64);
    this.mark = new Int32Array(size);
    this.score = new Float64Array(size);
    this.termScore = new Float64Array(size);
    this.lastTerm = new Int32Array(size);
    this.quality = new Int32Array(size);
    this.order = new Int32Array(size);
    this.rank = new Int32Array(size);
    this.termDocs = new Int32Array(size);
    this.termMark = new Int32Array(size);
    this.firstVisit = new Int32Array(size);
    this.lastVisit = new Int32Array(size);
    this.size = size;
    this.current = 0;
    this.termCurrent = 0;
  }

  /** Room for `n` more visits after `used` numbers. */
  visitRoom(used: number, n: number): void {
    if (used + VISIT * n <= this.visits.length) return;
    const grown = new Int32Array(Math.max(used + VISIT * n, this.visits.length * 2, 1024));
    grown.set(this.visits.subarray(0, used));
    this.visits = grown;
  }
}

/** Numbers per visit in `Scratch.visits`. */
const VISIT = 3;

const scratch = new Scratch();

/** The best `pool` text matches of `query` over `mini`, scored as `mini.search` scores them. */
export function textScores(mini: MiniSearch<Doc>, query: TextQuery, pool: number): TextScores {
  const inner = mini as unknown as Internals;
  const s = scratch;
  const docCount = inner._documentCount;
  const lengths = inner._fieldLength;
  // Short ids are below MiniSearch's next id (0..n-1 in svc's indexes): the scratch spans them.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the document count already spans svc's short ids; the next id only matters for an index svc does not build
  s.ensure(Math.max(docCount, inner._nextId || 0, 1) + 1);
  // Stryker disable next-line ConditionalExpression,BlockStatement: reached after 2^31 searches; marks below the new one are stale either way
  if (s.current >= 0x7ffffff0) {
    s.mark.fill(0);
    s.current = 0;
  }
  // Stryker disable next-line UpdateOperator: any value no earlier search used marks this one
  const current = ++s.current;
  // Stryker disable next-line UpdateOperator: any value no earlier search used tells this search's visits apart
  const generation = ++s.generation;
  const { mark, score, termScore, lastTerm, quality, order, rank, termDocs, termMark, firstVisit, lastVisit } = s;
  const { k, b, d } = query.bm25;
  const boostDocument = query.boostDocument;
  const ids = inner._documentIds;
  let matched = 0;
  let visitsUsed = 0;
  // Field boosts in the order MiniSearch builds them (`boost || 1`).
  const fields = query.fields;
  const fieldIds = fields.map((f) => inner._fieldIds[f]!);
  const fieldBoosts = fields.map((f) => query.boost[f] || 1);
  // Stryker disable next-line ArrayDeclaration: index terms are found by the place they were pushed at, whatever came before
  const derived: string[] = [];
  // Stryker disable next-line EqualityOperator: past the last term there is none, and none is skipped below
  for (let q = 0; q < query.terms.length; q++) {
    const term = query.terms[q]!;
    // Stryker disable next-line ConditionalExpression: svc's query terms are never empty
    if (!term) continue;
    const termBoost = query.boostTerm(term);
    // Stryker disable next-line ConditionalExpression,BlockStatement: reached after 2^31 query terms; marks below the new one are stale either way
    if (s.termCurrent >= 0x7ffffff0) {
      termMark.fill(0);
      s.termCurrent = 0;
    }
    // Stryker disable next-line UpdateOperator: any value no earlier term used marks this one
    const termNow = ++s.termCurrent;
    let termDocCount = 0;
    // One derived index term: the query term itself (weight 1), then each longer term it begins.
    const visit = (indexTerm: string, weight: number, data: FieldMap | undefined) => {
      if (!data) return;
      const derivedAt = derived.length;
      derived.push(indexTerm);
      // Stryker disable next-line EqualityOperator: past the last field there is no field id, and so no postings
      for (let f = 0; f < fields.length; f++) {
        const fieldId = fieldIds[f]!;
        const postings = data.get(fieldId);
        if (postings == null) continue;
        const matchingFields = postings.size;
        const avgFieldLength = inner._avgFieldLength[fieldId]!;
        const fieldBoost = fieldBoosts[f]!;
        const invDocFreq = Math.log(1 + (docCount - matchingFields + 0.5) / (matchingFields + 0.5));
        s.visitRoom(visitsUsed, matchingFields);
        const each = (doc: number, termFreq: number) => {
          const docBoost = boostDocument ? boostDocument(ids.get(doc) as number, indexTerm) : 1;
          if (!docBoost) return;
          const fieldLength = lengths instanceof FieldLengths ? lengths.lengthOf(doc, fieldId) : lengths.get(doc)![fieldId]!;
          const rawScore = invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)));
          const weighted = weight * termBoost * fieldBoost * docBoost * rawScore;
          if (termMark[doc] !== termNow) {
            termMark[doc] = termNow;
            termScore[doc] = weighted;
            termDocs[termDocCount++] = doc;
          } else termScore[doc] = termScore[doc]! + weighted;
          const v = s.visits;
          v[visitsUsed] = derivedAt;
          v[visitsUsed + 1] = f;
          v[visitsUsed + 2] = -1;
          if (mark[doc] !== current) {
            mark[doc] = current;
            score[doc] = 0;
            quality[doc] = 0;
            lastTerm[doc] = -1;
            rank[doc] = matched;
            order[matched++] = doc;
            firstVisit[doc] = visitsUsed;
          } else v[lastVisit[doc]! + 2] = visitsUsed;
          lastVisit[doc] = visitsUsed;
          visitsUsed += VISIT;
          if (lastTerm[doc] !== q) {
            lastTerm[doc] = q;
            quality[doc] = quality[doc]! + 1;
          }
        };
        // Stryker disable next-line ConditionalExpression: the lean postings iterate as a Map does; scan only saves the iterator (speed only)
        if (postings instanceof FieldPostings) postings.scan(each);
        else for (const [doc, count] of postings) each(doc, count);
      }
    };
    const data = inner._index.get(term);
    visit(term, 1, data);
    if (query.prefix(term)) {
      for (const [longer, byField] of inner._index.atPrefix(term)) {
        const distance = longer.length - term.length;
        if (!distance) continue;
        visit(longer, (query.prefixWeight * longer.length) / (longer.length + 0.3 * distance), byField);
      }
    }
    // The term's sum joins each document's total as MiniSearch's OR joins one term's results to the others'.
    for (let i = 0; i < termDocCount; i++) {
      const doc = termDocs[i]!;
      score[doc] = score[doc]! + termScore[doc]!;
    }
  }
  // Stryker disable next-line ConditionalExpression: with nothing matched, the rest makes the same empty answer (speed only)
  if (matched === 0) return { matched, best: searchResults([]) };
  // MiniSearch's final score: the sum times how many query terms matched; best first, ties in first-match order.
  for (let i = 0; i < matched; i++) {
    const doc = order[i]!;
    score[doc] = score[doc]! * (quality[doc]! || 1);
  }
  const chosen = bestOf(order.subarray(0, matched), score, rank, pool);
  const scores = chosen.map((doc) => score[doc]!);
  const fresh = () => {
    if (s.generation !== generation) throw new Error('text matches read after the next search');
  };
  return {
    matched,
    best: {
      length: chosen.length,
      at: (i) => (i >= 0 && i < chosen.length ? { id: ids.get(chosen[i]!) as number, score: scores[i]! } : undefined),
      coverage: (i, q) => {
        fresh();
        return visitCoverage(s.visits, firstVisit[chosen[i]!]!, derived, fields, q);
      },
    },
  };
}

/**
 * The documents (their ids, ascending) whose `field` holds `term`: that field's postings of the
 * term, read from the index (undefined when none). A document's summary terms are its `s` field's,
 * so this finds the documents naming a term in their summary without a pass over every document.
 */
export function documentsHolding(mini: MiniSearch<Doc>, field: string, term: string): number[] | undefined {
  const inner = mini as unknown as Internals;
  const fieldId = inner._fieldIds[field];
  const postings = fieldId === undefined ? undefined : inner._index.get(term)?.get(fieldId);
  if (!postings || postings.size === 0) return undefined;
  const ids = inner._documentIds;
  const out: number[] = [];
  let ascending = true;
  for (const doc of postings.keys()) {
    const id = ids.get(doc) as number;
    if (out.length > 0 && id < out[out.length - 1]!) ascending = false;
    out.push(id);
  }
  // Short ids follow document order in every index svc builds; an index loaded otherwise is sorted here.
  return ascending ? out : out.sort((a, b) => a - b);
}

/** The `pool` best of `docs` by score, ties by `rank`, best first. */
function bestOf(docs: Int32Array, score: Float64Array, rank: Int32Array, pool: number): number[] {
  const better = (a: number, b: number) => descending(score[a]!, score[b]!) || rank[a]! - rank[b]!;
  // Stryker disable next-line EqualityOperator: the bounded selection below gives the same pool (speed only)
  if (docs.length <= pool) return Array.from(docs).sort(better);
  // A bounded selection: keep the pool sorted, insert only what beats its last.
  const top: number[] = [];
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i]!;
    // Stryker disable next-line ConditionalExpression: inserting a document that does not beat the pool's last, then dropping the last, changes nothing (speed only)
    if (top.length === pool && better(doc, top[pool - 1]!) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // Stryker disable next-line EqualityOperator: `better` is never 0 for two documents (their ranks differ)
      if (better(top[mid]!, doc) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, doc);
    if (top.length > pool) top.pop();
  }
  return top;
}

/** Index terms and their fields' strength, in the order of MiniSearch's match object's keys (reused lists). */
const keyTerms: string[] = [];
const keyStrengths: number[] = [];

/**
 * One document's coverage (`coverage.ts`) from its visits, as `fieldCoverage` works it out from the
 * match object MiniSearch would have made (see `matchObject`): each index term with the strongest
 * of its fields, in the object's key order (array-index keys first, ascending, then the others in
 * the order they came), a later query term's list replacing an earlier one's in place.
 */
function visitCoverage(visits: Int32Array, first: number, derived: readonly string[], fields: readonly string[], q: ParsedQuery): number {
  let m = 0;
  let last = -1;
  // Stryker disable next-line UnaryOperator: set before it is read
  let slot = -1;
  let indexKeys = 0;
  for (let v = first; v >= 0; v = visits[v + 2]!) {
    const at = visits[v]!;
    const strength = fieldStrength(fields[visits[v + 1]!]!);
    if (at !== last) {
      last = at;
      const term = derived[at]!;
      slot = 0;
      while (slot < m && keyTerms[slot] !== term) slot++;
      if (slot === m) {
        keyTerms[m] = term;
        m++;
        if (isArrayIndex(term)) indexKeys++;
      }
      keyStrengths[slot] = strength;
    } else if (strength > keyStrengths[slot]!) keyStrengths[slot] = strength;
  }
  startCoverage();
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the ordered branch gives the same order when no key is an array index (speed only)
  if (indexKeys > 0) {
    const order = Array.from({ length: m }, (_, k) => k).filter((k) => isArrayIndex(keyTerms[k]!));
    order.sort((a, b) => Number(keyTerms[a]) - Number(keyTerms[b]));
    for (const k of order) creditTerm(keyTerms[k]!, keyStrengths[k]!, q);
    for (let k = 0; k < m; k++) if (!isArrayIndex(keyTerms[k]!)) creditTerm(keyTerms[k]!, keyStrengths[k]!, q);
  } else for (let k = 0; k < m; k++) creditTerm(keyTerms[k]!, keyStrengths[k]!, q);
  return coverage(q);
}

/** A key JavaScript objects order first, numerically: a canonical array index. */
function isArrayIndex(key: string): boolean {
  // Most terms start with a letter: no pattern match for them (it would flatten the string first).
  const c = key.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return false;
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295;
}
