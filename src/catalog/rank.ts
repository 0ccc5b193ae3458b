// Ranking within one spec's index: MiniSearch's BM25 text score over the query's terms, narrowed
// cheaply when words are common, then re-ranked by API conventions (`factor`). A caller merging
// several indexes passes a floor: results that provably cannot reach it are not re-ranked.
import MiniSearch, { type SearchResult } from 'minisearch';
import { type Doc, EMPTY_FIELD, type Entry, type PathCache, documentOf } from './document.ts';
import { fieldCoverage } from './coverage.ts';
import { factor } from './factor.ts';
import { type BuiltIndex, type IndexImage, MINI_OPTIONS, type MiniIndexData, buildIndex } from './index-build.ts';
import { loadLean, loadLeanAsync } from './lean-mini.ts';
import type { ParsedQuery } from './query.ts';
import { type BoundQuery, IDF_RESCALE, WEIGHTS, factorBound, lateGainBound } from './weights.ts';

/** How many text matches the re-ranking looks at. */
const RERANK_POOL = 120;
/**
 * MiniSearch's cost is the postings it visits. When a query's terms together appear in more
 * documents than this (common words in a very large catalogue), the most common terms are left
 * out of the index query and checked on the candidates instead.
 */
const POSTINGS_BUDGET = 1500;
/** Fields that say what an endpoint is; prose and parameter names are skipped for expensive queries. */
const STRONG_FIELDS = ['s', 'p', 'o', 't', 'd'];
/** Of more candidates than this, only the likeliest by the re-ranking factor are scored. */
const SCORED_CANDIDATES = 600;
/** A query word in more of an index's documents than this share (and `COMMON_MIN_DOCS`) only scores documents holding a rarer query word. */
const COMMON_SHARE = 0.2;
const COMMON_MIN_DOCS = 100;
/** Query terms shorter than this are never prefix-expanded (`ap` would expand to half the index). */
export const PREFIX_MIN = 5;
/** How many documents a query of only common words scores, at most (beyond the first term's). */
const CANDIDATES = 2000;

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

export interface RankOptions {
  readonly limit: number;
  readonly accept: (entry: Entry) => boolean;
  /** `accept` takes everything: skip calling it. */
  readonly all?: boolean;
  /** Catalogue position (spec order, then document order): breaks ties, so equal hits keep source order. */
  readonly order?: (entry: Entry) => number;
  /** Retry with fuzzy matching when nothing matches (default true; a caller merging many indexes retries itself). */
  readonly fuzzy?: boolean;
  /**
   * Multiplier per query term on top of its weight: a caller merging several indexes rescales each
   * index's own inverse document frequency to the catalogue-wide one, so their scores compare.
   * Text scores count it up to `IDF_RESCALE.max` (see weights.ts).
   */
  readonly termScale?: (term: string) => number;
  /**
   * Leave out results that cannot score above this (a caller merging indexes passes the score of
   * its current last hit): they are not re-ranked, which is most of a search's own work.
   */
  readonly floor?: number;
}

export interface Ranked {
  readonly entry: Entry;
  readonly score: number;
}

/** Term -> documents (ascending) naming it in their resource, or in their summary. */
interface Named {
  readonly byResource: Map<string, number[]>;
  readonly bySummary: Map<string, number[]>;
}

/** Distinct items, in first-seen order (the array itself when it has no repeats). */
function distinct(items: readonly string[]): readonly string[] {
  const set = new Set(items);
  return set.size === items.length ? items : [...set];
}


/** The shared full-text index, plus the ranking that reads it. */
export class SearchIndex {
  /** MiniSearch, loaded from `#data` on the first search (a spec never searched never pays for it). */
  #mini: MiniSearch<Doc> | undefined;
  #data: MiniIndexData | (() => MiniIndexData) | undefined;
  /** Document id -> entry (ids are small integers: an array, not a Map). */
  readonly #entries: Entry[] = [];
  #size = 0;
  /** Documents per term (any field): how expensive a term is to look up. */
  #df = new Map<string, number>();
  /**
   * Term -> documents that name it: in the resource (last literal path segment) or in the summary.
   * For a query made only of very common words, these are the candidates worth scoring. Only such
   * queries need them, so they are built on the first one.
   */
  #named: Named | undefined;
  /** Document id -> its summary's distinct terms (the description's first sentence when it has no summary). */
  readonly #summaries: (readonly string[] | undefined)[] = [];
  /** Term -> upper bound of one document's score for it (`best`). */
  #best = new Map<string, number>();
  /** Term -> `#prefixDf`, for the current index contents. */
  readonly #prefixCost = new Map<string, number>();
  /** Terms of the fields that say what an endpoint is, for candidates checked against left-out terms. */
  readonly #strong = new WeakMap<Entry, ReadonlySet<string>>();

  constructor() {
    this.#mini = undefined;
  }

  get size(): number {
    return this.#size;
  }

  /** Documents that hold `term` in any field (0 when none). */
  df(term: string): number {
    return this.#df.get(term) ?? 0;
  }

  /** MiniSearch's serialized form of this index (what `JSON.stringify` of a MiniSearch writes). */
  toJSON(): MiniIndexData {
    return this.#loaded().toJSON();
  }

  /** Loads MiniSearch now, in batches that leave the thread free in between, rather than on the first search. */
  async preload(): Promise<void> {
    if (this.#mini || !this.#data) return;
    const data = typeof this.#data === 'function' ? this.#data() : this.#data;
    const mini = await loadLeanAsync(data);
    if (!this.#mini) {
      this.#mini = mini;
      this.#data = undefined;
    }
  }

  #loaded(): MiniSearch<Doc> {
    if (!this.#mini) {
      const data = typeof this.#data === 'function' ? this.#data() : this.#data;
      this.#mini = data ? loadLean(data) : new MiniSearch<Doc>(MINI_OPTIONS);
      this.#data = undefined;
    }
    return this.#mini;
  }

  /** Every indexed term with its document frequency. */
  terms(): IterableIterator<[string, number]> {
    return this.#df.entries();
  }

  /**
   * Index `entries` (one spec's endpoints). An index is built once and never changed: a changed
   * spec gets a new one, so no removal leaves stale postings behind to skew BM25 statistics.
   * One pass over the documents counts everything (see `buildIndex`); MiniSearch loads it whole
   * on the first search (or `preload`).
   */
  add(entries: readonly Entry[], paths: PathCache = new Map()): void {
    this.load(entries, buildIndex(entries, paths));
  }

  /** Take in an index `buildIndex` built from these same entries (MiniSearch loads it on first use). */
  load(entries: readonly Entry[], built: BuiltIndex): void {
    if (this.#size > 0) throw new Error('SearchIndex.load: an index is built once');
    const docs = built.docs;
    this.#data = built.data;
    this.#df = built.df;
    this.#best = built.best;
    for (let i = 0; i < docs.length; i++) {
      const entry = entries[i]!;
      this.#entries[entry.doc] = entry;
      const s = docs[i]!.s;
      if (s !== EMPTY_FIELD) this.#summaries[entry.doc] = distinct(s);
    }
    this.#size = entries.length;
  }

  /** This index in a form that can be stored and restored without re-tokenizing (snapshots). */
  image(): IndexImage {
    const terms = [...this.#df.keys()];
    return {
      // As built (or restored), without loading MiniSearch just to serialize it again.
      mini: (typeof this.#data === 'function' ? this.#data() : this.#data) ?? this.#loaded().toJSON(),
      terms,
      df: terms.map((t) => this.#df.get(t)!),
      best: terms.map((t) => this.#best.get(t) ?? 0),
      summaries: this.#entries.map((e) => (e ? (this.#summaries[e.doc] ?? null) : null)),
    };
  }

  /** The index `image()` described, over `entries` made as when it was built (same order and doc ids). */
  static restore(entries: readonly Entry[], image: IndexImage): SearchIndex {
    const index = new SearchIndex();
    index.#data = image.mini;
    image.terms.forEach((t, i) => {
      index.#df.set(t, image.df[i]!);
      index.#best.set(t, image.best[i]!);
    });
    for (const entry of entries) {
      index.#entries[entry.doc] = entry;
      const s = image.summaries[entry.doc];
      if (s) index.#summaries[entry.doc] = s;
    }
    index.#size = entries.length;
    return index;
  }

  #entry(doc: number): Entry | undefined {
    return this.#entries[doc];
  }

  /** `#named`, built on first need from the entries' resources and summaries (in document order). */
  #namedMaps(): Named {
    if (this.#named) return this.#named;
    const byResource = new Map<string, number[]>();
    const bySummary = new Map<string, number[]>();
    const note = (map: Map<string, number[]>, t: string, doc: number) => {
      const docs = map.get(t);
      if (!docs) map.set(t, [doc]);
      else if (docs[docs.length - 1] !== doc) docs.push(doc);
    };
    for (const entry of this.#entries) {
      if (!entry) continue;
      for (const t of entry.resource) if (t) note(byResource, t, entry.doc);
      for (const t of this.#summaries[entry.doc] ?? []) note(bySummary, t, entry.doc);
    }
    return (this.#named = { byResource, bySummary });
  }

  /** The highest score MiniSearch can give one document for `term` at weight 1 (0 when not indexed). */
  best(term: string): number {
    return this.#best.get(term) ?? 0;
  }

  /**
   * Documents that name the query's terms, rarest terms and resources first, up to `CANDIDATES`
   * (the first set is taken whole): what a query of only common words scores instead of every posting.
   */
  #candidates(byRarity: readonly string[], weights: ReadonlyMap<string, number>): Set<number> | undefined {
    const out = new Set<number>();
    const named = this.#namedMaps();
    for (const map of [named.byResource, named.bySummary]) {
      for (const t of byRarity) {
        if ((weights.get(t) ?? 1) < 1) continue;
        const docs = map.get(t);
        if (!docs) continue;
        if (out.size > 0 && out.size + docs.length > CANDIDATES) continue;
        for (const d of docs) out.add(d);
      }
    }
    return out.size > 0 ? out : undefined;
  }

  /**
   * Documents per term summed over every index term the term is a prefix of: what a prefix search
   * for it visits. Remembered until the index changes.
   */
  #prefixDf(term: string): number {
    let n = this.#prefixCost.get(term);
    if (n === undefined) {
      n = 0;
      for (const [t, df] of this.#df) if (t.startsWith(term)) n += df;
      if (this.#prefixCost.size > 10_000) this.#prefixCost.clear();
      this.#prefixCost.set(term, n);
    }
    return n;
  }

  #strongTerms(entry: Entry): ReadonlySet<string> {
    let terms = this.#strong.get(entry);
    if (!terms) {
      const doc = documentOf(entry);
      terms = new Set([...doc.s, ...doc.p, ...doc.o, ...doc.t, ...doc.d]);
      this.#strong.set(entry, terms);
    }
    return terms;
  }

  /**
   * Documents holding any of `terms` exactly (in any field), accepted by `accept`: what a search's
   * total counts. MiniSearch visits the postings and `boostDocument` notes each document, returning
   * 0 so that no result is built.
   */
  matching(terms: readonly string[], accept?: (entry: Entry) => boolean): Set<number> {
    const out = new Set<number>();
    const held = terms.filter((t) => this.df(t) > 0);
    if (held.length === 0) return out;
    const entries = this.#entries;
    this.#loaded().search(held.join(' '), {
      boostDocument: (id: number) => {
        if (!out.has(id)) {
          const entry = entries[id];
          if (entry !== undefined && (!accept || accept(entry))) out.add(id);
        }
        return 0;
      },
      prefix: false,
      fuzzy: false,
    });
    return out;
  }

  /** The entry of a document id (as `matching` returns them). */
  entryOf(doc: number): Entry | undefined {
    return this.#entries[doc];
  }

  /** Text matches for `parsed`, best first, re-ranked with API conventions. */
  rank(parsed: ParsedQuery, options: RankOptions): Ranked[] {
    if (parsed.terms.length === 0) return [];
    const weights = parsed.weights;
    // `boostDocument` runs before MiniSearch builds a result object, so a 0 there is the cheapest filter.
    // Rarest terms first; past the budget, the rest are checked on the candidates only.
    // Low-weight words ("my", "all") go last: a candidate pool drawn from them alone would miss the point.
    const cost = (t: string) => (this.#df.get(t) ?? 0) * ((weights.get(t) ?? 1) < 1 ? 100 : 1);
    const byRarity = [...parsed.terms].sort((a, b) => cost(a) - cost(b));
    const searched: string[] = [];
    const late: string[] = [];
    let postings = 0;
    for (const t of byRarity) {
      const df = this.#df.get(t) ?? 0;
      if (searched.length > 0 && postings + df > POSTINGS_BUDGET) late.push(t);
      else {
        searched.push(t);
        postings += df;
      }
    }
    const entries = this.#entries;
    const accept = options.accept;
    const filter: ((id: number, term: string) => number) | undefined = options.all ? undefined : (id: number) => {
      const entry = entries[id];
      return entry !== undefined && accept(entry) ? 1 : 0;
    };
    let boostDocument = filter;
    // Even the rarest word is everywhere ("create a namespace" in a catalogue of many Kubernetes
    // copies): score only the documents that name the query's words in their resource or summary.
    // With a filter, only accepted documents are scored already; narrowing further would cost answers.
    // (A word this index does not hold at all says nothing about which of its documents to score.)
    const rarest = this.#df.get(searched.find((t) => this.df(t) > 0) ?? '') ?? 0;
    if (options.all && (rarest > POSTINGS_BUDGET || (rarest > COMMON_MIN_DOCS && rarest > this.size * COMMON_SHARE))) {
      let candidates = this.#candidates(byRarity, weights);
      if (candidates && candidates.size > SCORED_CANDIDATES) candidates = this.#mostLikely(candidates, parsed, options);
      if (candidates) {
        const all = options.all === true;
        boostDocument = (id: number) => {
          if (!candidates.has(id)) return 0;
          if (all) return 1;
          const entry = this.#entry(id);
          return entry !== undefined && accept(entry) ? 1 : 0;
        };
      }
    }
    // Prefix expansion multiplies the postings visited: only while the query is cheap.
    let cheap = late.length === 0 && postings < POSTINGS_BUDGET / 2;
    if (cheap) {
      let expanded = 0;
      for (const t of searched) expanded += t.length >= PREFIX_MIN ? this.#prefixDf(t) : (this.#df.get(t) ?? 0);
      cheap = expanded < POSTINGS_BUDGET / 2;
    }
    const prefix = cheap;
    boostDocument = this.#gateCommon(searched, prefix, boostDocument);
    const scale = options.termScale;
    const run = (fuzzy: boolean) =>
      this.#loaded().search(searched.join(' '), {
        ...(cheap ? {} : { fields: STRONG_FIELDS }),
        ...(boostDocument ? { boostDocument } : {}),
        boostTerm: scale ? (term) => (weights.get(term) ?? 1) * Math.min(scale(term), IDF_RESCALE.max) : (term) => weights.get(term) ?? 1,
        prefix: (term) => prefix && term.length >= PREFIX_MIN,
        fuzzy: fuzzy ? (term) => (term.length >= 5 ? 0.2 : false) : false,
        weights: { prefix: WEIGHTS.prefix, fuzzy: WEIGHTS.fuzzy },
      });
    let results = run(false);
    // The narrowing above is a shortcut for speed, never a reason for no answer: a query whose words
    // this index holds gets its matches, at the cost of a full look-up.
    if (results.length === 0 && boostDocument !== filter && searched.some((t) => this.df(t) > 0)) {
      boostDocument = filter;
      results = run(false);
    }
    if (results.length === 0 && options.fuzzy !== false) results = run(true);
    const totalWeight = parsed.terms.reduce((sum, t) => sum + (weights.get(t) ?? 1), 0);
    // A deep page asks for more than the usual pool: re-rank as many as it needs.
    const poolSize = Math.max(RERANK_POOL, options.limit);
    const pool = results.length > poolSize ? results.slice(0, poolSize) : results;
    const ranked: Ranked[] = [];
    // Results come best text score first, and a final score is at most sqrt(text x what the
    // left-out terms can add) x the largest factor: past the floor, no later result can reach it.
    const e = WEIGHTS.textExponent;
    let ceiling = 0;
    let floor = -1;
    if (options.floor !== undefined) {
      const lateGain = lateGainBound(late.map((t) => weights.get(t) ?? 1));
      ceiling = lateGain * factorBound(parsed) ** (1 / e);
      floor = options.floor ** (1 / e);
    }
    for (const r of pool) {
      if (r.score * ceiling < floor) break;
      const entry = this.#entry(r.id as number)!;
      let covered = fieldCoverage(r, parsed);
      let score = r.score;
      if (late.length > 0) {
        const strong = this.#strongTerms(entry);
        for (const t of late) {
          if (!strong.has(t)) continue;
          const w = weights.get(t) ?? 1;
          covered += WEIGHTS.lateTermCredit * w;
          score *= 1 + WEIGHTS.lateTermGain * w;
        }
      }
      const f = factor(entry, parsed, covered / totalWeight, this.#summaries[entry.doc]);
      // The text score to the power `textExponent` (see WEIGHTS): the API conventions weigh more than repeated words.
      ranked.push({ entry, score: score ** e * f });
    }
    const order = options.order;
    ranked.sort(order ? (a, b) => b.score - a.score || order(a.entry) - order(b.entry) : (a, b) => b.score - a.score);
    return ranked;
  }

  /**
   * A word in a large share of this index's documents ("namespace" in Kubernetes) is most of a
   * query's postings, and each document that holds it becomes a result to build and sort. Such a
   * word scores only the documents that also hold one of the query's rarer words: a document
   * naming only the commonest word seldom is the answer. MiniSearch looks terms up in query order
   * (rarest first), so the rarer words have marked their documents before the common word comes.
   */
  #gateCommon(
    searched: readonly string[],
    prefix: boolean,
    inner: ((id: number, term: string) => number) | undefined,
  ): ((id: number, term: string) => number) | undefined {
    if (searched.length < 2) return inner;
    const threshold = Math.max(COMMON_MIN_DOCS, this.size * COMMON_SHARE);
    // When every word is common, the rarest the index holds gates the others; a word it does not
    // hold gates nothing (it would leave no document to score).
    const held = searched.filter((t) => this.df(t) > 0);
    if (held.length < 2) return inner;
    const rare = searched.filter((t) => t === held[0] || this.df(t) <= threshold);
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
      return inner ? inner(id, term) : 1;
    };
  }

  /**
   * The `SCORED_CANDIDATES` candidates whose method, shape and path words fit the query best (the
   * re-ranking factor alone, text score aside): all of them name a query word, so this is what
   * tells them apart, at a fraction of the cost of scoring their text.
   */
  #mostLikely(candidates: ReadonlySet<number>, parsed: ParsedQuery, options: RankOptions): Set<number> {
    const scored: { doc: number; f: number; order: number }[] = [];
    for (const doc of candidates) {
      const entry = this.#entry(doc);
      if (!entry || (!options.all && !options.accept(entry))) continue;
      scored.push({ doc, f: factor(entry, parsed, 1, this.#summaries[entry.doc]), order: options.order ? options.order(entry) : doc });
    }
    scored.sort((a, b) => b.f - a.f || a.order - b.order);
    const out = new Set<number>();
    for (let i = 0; i < scored.length && i < SCORED_CANDIDATES; i++) out.add(scored[i]!.doc);
    return out;
  }

}
