// Which documents a query of common words scores. When even a query's rarest word is in a large
// share of an index ("create a namespace" in a catalogue of many Kubernetes copies), scoring every
// posting is most of a search's cost and seldom finds more: the documents that name the query's
// words in their resource or summary are scored instead, and a common word only scores documents
// that also hold a rarer query word.
import type { Entry } from './document.ts';
import { factor } from './factor.ts';
import { descending } from './order.ts';
import type { ParsedQuery } from './query.ts';
import type { RankOptions } from './rank-options.ts';
import { POSTINGS_BUDGET } from './term-plan.ts';

/** Of more candidates than this, only the likeliest by the re-ranking factor are scored. */
const SCORED_CANDIDATES = 600;
/** A query word in more of an index's documents than this share (and `COMMON_MIN_DOCS`) only scores documents holding a rarer query word. */
const COMMON_SHARE = 0.2;
const COMMON_MIN_DOCS = 100;
/** How many documents a query of only common words scores, at most (beyond the first term's). */
const CANDIDATES = 2000;

/** What narrowing reads of one index. */
export interface IndexView {
  readonly size: number;
  /** Documents holding the term in any field. */
  df(term: string): number;
  entryOf(doc: number): Entry | undefined;
  /** The document's summary's distinct terms. */
  summaryOf(doc: number): readonly string[] | undefined;
}

/** A MiniSearch `boostDocument` hook: 0 leaves a document out before a result is built. */
export type DocumentGate = (id: number, term: string) => number;

/** Term -> documents (ascending) naming it in their resource, or in their summary. */
export interface Named {
  byResource(term: string): readonly number[] | undefined;
  bySummary(term: string): readonly number[] | undefined;
}

/** Terms remembered per `Named` before its memory starts again (queries bring new terms without end). */
const NAMED_TERMS = 1000;

/** `docs` remembered as `term`'s in `known` (one function for every index: no closure per index for the optimized callers to tell apart). */
function remember(known: Map<string, readonly number[] | undefined>, term: string, docs: readonly number[] | undefined): readonly number[] | undefined {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a memory bound only (a forgotten term is found again, the same)
  if (known.size >= NAMED_TERMS) known.clear();
  known.set(term, docs);
  return docs;
}

/**
 * The `Named` look-ups of `entries` (in document order, gaps skipped), each term's documents found
 * on its first look-up and then remembered: for resources by one pass over the entries, for
 * summaries by `summaryDocuments` (the index's postings of the summary field). A query of common
 * words asks for its few terms only, where a map of every resource and summary term of the index
 * cost milliseconds on the first such query reaching each index (and the memory of every term's list).
 */
export function namedDocuments(entries: readonly (Entry | undefined)[], summaryDocuments: (term: string) => readonly number[] | undefined): Named {
  const byResource = new Map<string, readonly number[] | undefined>();
  const bySummary = new Map<string, readonly number[] | undefined>();
  return {
    byResource(term) {
      // An empty resource word names nothing.
      if (!term) return undefined;
      if (byResource.has(term)) return byResource.get(term);
      let docs: number[] | undefined;
      // Entries of one path share their resource list (spec-state.ts `leanEntry`): checked once for them.
      let last: readonly string[] | undefined;
      let names = false;
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        if (!entry) continue;
        if (entry.resource !== last) {
          last = entry.resource;
          names = last.includes(term);
        }
        if (names) (docs ??= []).push(entry.doc);
      }
      return remember(byResource, term, docs);
    },
    bySummary(term) {
      if (bySummary.has(term)) return bySummary.get(term);
      return remember(bySummary, term, summaryDocuments(term));
    },
  };
}

/**
 * Whether a query whose rarest held word is in `rarest` documents should score only the named
 * candidates. With a filter, only accepted documents are scored already; narrowing further would
 * cost answers.
 */
export function narrows(view: IndexView, rarest: number, all: boolean): boolean {
  return all && (rarest > POSTINGS_BUDGET || (rarest > COMMON_MIN_DOCS && rarest > view.size * COMMON_SHARE));
}

/**
 * The gate that scores only the documents naming the query's words (`named` built on first need),
 * or undefined when no document names them.
 */
export function candidateGate(view: IndexView, named: () => Named, byRarity: readonly string[], parsed: ParsedQuery, options: RankOptions): DocumentGate | undefined {
  let candidates = candidatesOf(named(), byRarity, parsed.weights);
  if (candidates && candidates.size > SCORED_CANDIDATES) candidates = mostLikely(view, candidates, parsed, options);
  if (!candidates) return undefined;
  const chosen = candidates;
  const all = options.all === true;
  return (id: number) => {
    if (!chosen.has(id)) return 0;
    if (all) return 1;
    const entry = view.entryOf(id);
    return entry !== undefined && options.accept(entry) ? 1 : 0;
  };
}

/**
 * Documents that name the query's terms, rarest terms and resources first, up to `CANDIDATES`
 * (the first set is taken whole): what a query of only common words scores instead of every posting.
 */
function candidatesOf(named: Named, byRarity: readonly string[], weights: ReadonlyMap<string, number>): Set<number> | undefined {
  const out = new Set<number>();
  for (const lookUp of [named.byResource, named.bySummary]) {
    for (const t of byRarity) {
      if ((weights.get(t) ?? 1) < 1) continue;
      const docs = lookUp(t);
      if (!docs) continue;
      if (out.size > 0 && out.size + docs.length > CANDIDATES) continue;
      for (const d of docs) out.add(d);
    }
  }
  return out.size > 0 ? out : undefined;
}

/**
 * The `SCORED_CANDIDATES` candidates whose method, shape and path words fit the query best (the
 * re-ranking factor alone, text score aside): all of them name a query word, so this is what
 * tells them apart, at a fraction of the cost of scoring their text.
 */
function mostLikely(view: IndexView, candidates: ReadonlySet<number>, parsed: ParsedQuery, options: RankOptions): Set<number> {
  const scored: { doc: number; f: number; order: number }[] = [];
  for (const doc of candidates) {
    const entry = view.entryOf(doc);
    if (!entry || (!options.all && !options.accept(entry))) continue;
    scored.push({ doc, f: factor(entry, parsed, 1, view.summaryOf(entry.doc)), order: options.order ? options.order(entry) : doc });
  }
  scored.sort((a, b) => descending(a.f, b.f) || a.order - b.order);
  const out = new Set<number>();
  for (let i = 0; i < scored.length && i < SCORED_CANDIDATES; i++) out.add(scored[i]!.doc);
  return out;
}

/**
 * A word in a large share of this index's documents ("namespace" in Kubernetes) is most of a
 * query's postings, and each document that holds it becomes a result to build and sort. Such a
 * word scores only the documents that also hold one of the query's rarer words: a document
 * naming only the commonest word seldom is the answer. MiniSearch looks terms up in query order
 * (rarest first), so the rarer words have marked their documents before the common word comes.
 */
export function gateCommon(view: IndexView, searched: readonly string[], prefix: boolean, inner: DocumentGate | undefined): DocumentGate | undefined {
  const threshold = Math.max(COMMON_MIN_DOCS, view.size * COMMON_SHARE);
  // When every word is common, the rarest the index holds gates the others; a word it does not
  // hold gates nothing (it would leave no document to score). With fewer than two words held,
  // every word counts as rare below (held nowhere or the rarest), so nothing is gated.
  const held = searched.filter((t) => view.df(t) > 0);
  const rare = searched.filter((t) => t === held[0] || view.df(t) <= threshold);
  if (rare.length === searched.length) return inner;
  const isRare = new Map<string, boolean>();
  const rareOf = (term: string) => {
    let r = isRare.get(term);
    if (r === undefined) isRare.set(term, (r = rare.some((t) => term === t || (prefix && term.startsWith(t)))));
    return r;
  };
  const holders = new Set<number>();
  return (id, term) => {
    if (rareOf(term)) {
      const b = inner ? inner(id, term) : 1;
      if (b) holders.add(id);
      return b;
    }
    if (!holders.has(id)) return 0;
    // Stryker disable next-line ConditionalExpression: every inner gate answers by document alone, so a holder it let through for a rare word it lets through again
    return inner ? inner(id, term) : 1;
  };
}
