// One spec's full-text index: MiniSearch over the endpoints' documents (loaded on first use, or
// restored from a snapshot image), and the ranking that reads it: the query's terms looked up by
// cost (term-plan.ts), common words narrowed to likely candidates (narrowing.ts), the text matches
// re-ranked by API conventions (rerank.ts). A caller merging several indexes passes a floor:
// results that provably cannot reach it are not re-ranked.
import MiniSearch from 'minisearch';
import { type Doc, EMPTY_FIELD, type Entry, type PathCache, documentOf } from './document.ts';
import { type BuiltIndex, type IndexImage, MINI_OPTIONS, type MiniIndexData, buildIndex } from './index-build.ts';
import { type IndexSource, loadSource, loadSourceAsync } from './lean-mini.ts';
import { type DocumentGate, type IndexView, type Named, candidateGate, gateCommon, namedDocuments, narrows } from './narrowing.ts';
import type { ParsedQuery } from './query.ts';
import type { RankOptions, Ranked } from './rank-options.ts';
import { type RerankView, rerank, rerankPool } from './rerank.ts';
import { FUZZY_MIN, FUZZY_SHARE, PREFIX_MIN, STRONG_FIELDS, cheapEnough, planTerms } from './term-plan.ts';
import { type TextMatches, documentsHolding, searchResults, textScores } from './text-scores.ts';
import { FIELD_KEYS, IDF_RESCALE, WEIGHTS } from './weights.ts';

export type { RankOptions, Ranked } from './rank-options.ts';
export { PREFIX_MIN, boundOf } from './term-plan.ts';

/** Distinct items, in first-seen order (the array itself when it has no repeats). */
function distinct(items: readonly string[]): readonly string[] {
  const set = new Set(items);
  return set.size === items.length ? items : [...set];
}

/** The shared full-text index, plus the ranking that reads it. */
export class SearchIndex {
  /** MiniSearch, loaded from `#data` on the first search (a spec never searched never pays for it). */
  #mini: MiniSearch<Doc> | undefined;
  #data: IndexSource | undefined;
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
  /** What narrowing and re-ranking read of this index. */
  readonly #view: IndexView & RerankView = this.#makeView();

  // Stryker disable next-line BlockStatement: `#mini` starts undefined either way (the field has no initializer)
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

  /**
   * Loads MiniSearch now, in batches that leave the thread free in between, rather than on the first
   * search. True when this call loaded it (false: it was loaded already, or a search loaded it meanwhile).
   */
  async preload(): Promise<boolean> {
    // Stryker disable next-line LogicalOperator: `#data` is set until `#mini` is, so the two are never both unset
    if (this.#mini || !this.#data) return false;
    const mini = await loadSourceAsync(this.#data);
    if (this.#mini) return false;
    this.#mini = mini;
    this.#data = undefined;
    return true;
  }

  #loaded(): MiniSearch<Doc> {
    if (!this.#mini) {
      this.#mini = this.#data ? loadSource(this.#data) : new MiniSearch<Doc>(MINI_OPTIONS);
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
      // As built (or restored), without loading MiniSearch just to serialize it again; a function
      // (lean postings, or a snapshot's) stays one, read when the image is.
      mini: this.#data ?? this.#loaded().toJSON(),
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

  #makeView(): IndexView & RerankView {
    const size = () => this.#size;
    return {
      get size() {
        return size();
      },
      df: (term) => this.df(term),
      entryOf: (doc) => this.#entries[doc],
      summaryOf: (doc) => this.#summaries[doc],
      strongTerms: (entry) => this.#strongTerms(entry),
    };
  }

  /** `#named`, built on first need from the entries' resources and summaries (in document order). */
  #namedMaps(): Named {
    // A document's summary terms are its summary field's (see `load` and `restore`): that field's postings name them.
    return (this.#named ??= namedDocuments(this.#entries, (term) => documentsHolding(this.#loaded(), 's', term)));
  }

  /** The highest score MiniSearch can give one document for `term` at weight 1 (0 when not indexed). */
  best(term: string): number {
    return this.#best.get(term) ?? 0;
  }

  /**
   * Documents per term summed over every index term the term is a prefix of: what a prefix search
   * for it visits. Remembered until the index changes.
   */
  #prefixDf(term: string, expansions?: ReadonlyMap<string, readonly string[]>): number {
    let n = this.#prefixCost.get(term);
    if (n === undefined) {
      n = 0;
      // The catalogue's terms hold this index's: its longer terms beginning `term` are among the
      // catalogue's (a term of another index counts 0 here), so the sum is the same.
      if (expansions) {
        n = this.df(term);
        for (const t of expansions.get(term) ?? []) n += this.df(t);
      } else for (const [t, df] of this.#df) if (t.startsWith(term)) n += df;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: a memory bound only (a cleared cost is worked out again, the same)
      if (this.#prefixCost.size > 10_000) this.#prefixCost.clear();
      // Stryker disable next-line CallExpression: speed only (a cost not remembered is worked out again, the same)
      this.#prefixCost.set(term, n);
    }
    return n;
  }

  #strongTerms(entry: Entry): ReadonlySet<string> {
    let terms = this.#strong.get(entry);
    if (!terms) {
      const doc = documentOf(entry);
      terms = new Set([...doc.s, ...doc.p, ...doc.o, ...doc.t, ...doc.d]);
      // Stryker disable next-line CallExpression: speed only (terms not remembered are worked out again, the same)
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
    const df = (t: string) => this.#df.get(t) ?? 0;
    const plan = planTerms(parsed, df);
    const { searched, late } = plan;
    const entries = this.#entries;
    const accept = options.accept;
    // `boostDocument` runs before MiniSearch builds a result object, so a 0 there is the cheapest filter.
    const filter: DocumentGate | undefined = options.all ? undefined : (id: number) => {
      const entry = entries[id];
      return entry !== undefined && accept(entry) ? 1 : 0;
    };
    let boostDocument = filter;
    // Even the rarest word is everywhere: score only the documents that name the query's words in
    // their resource or summary. (A word this index does not hold at all says nothing about which
    // of its documents to score.)
    const rarest = df(searched.find((t) => this.df(t) > 0) ?? '');
    if (narrows(this.#view, rarest, options.all === true)) {
      boostDocument = candidateGate(this.#view, () => this.#namedMaps(), plan.byRarity, parsed, options) ?? boostDocument;
    }
    const prefix = cheapEnough(plan, df, (t) => this.#prefixDf(t, options.expansions));
    boostDocument = gateCommon(this.#view, searched, prefix, boostDocument);
    const scale = options.termScale;
    // Fuzzy matching, the fallback when nothing matched as typed, stays MiniSearch's own search.
    const run = (fuzzy: boolean) =>
      this.#loaded().search(searched.join(' '), {
        ...(prefix ? {} : { fields: STRONG_FIELDS }),
        ...(boostDocument ? { boostDocument } : {}),
        boostTerm: scale ? (term) => (weights.get(term) ?? 1) * Math.min(scale(term), IDF_RESCALE.max) : (term) => weights.get(term) ?? 1,
        prefix: (term) => prefix && term.length >= PREFIX_MIN,
        fuzzy: fuzzy ? (term) => (term.length >= FUZZY_MIN ? FUZZY_SHARE : false) : false,
        weights: { prefix: WEIGHTS.prefix, fuzzy: WEIGHTS.fuzzy },
      });
    // MiniSearch's scores without its result objects (text-scores.ts), the best of them only.
    const pool = rerankPool(options.limit);
    const score = (gate: DocumentGate | undefined) =>
      textScores(
        this.#loaded(),
        {
          terms: searched,
          fields: prefix ? FIELD_KEYS : STRONG_FIELDS,
          boost: WEIGHTS.fields,
          bm25: WEIGHTS.bm25,
          prefixWeight: WEIGHTS.prefix,
          prefix: (term) => prefix && term.length >= PREFIX_MIN,
          boostTerm: scale ? (term) => (weights.get(term) ?? 1) * Math.min(scale(term), IDF_RESCALE.max) : (term) => weights.get(term) ?? 1,
          ...(gate ? { boostDocument: gate } : {}),
        },
        pool,
      );
    let scored = score(boostDocument);
    // The narrowing above is a shortcut for speed, never a reason for no answer: a query whose words
    // this index holds gets its matches, at the cost of a full look-up.
    if (scored.matched === 0 && boostDocument !== filter && searched.some((t) => this.df(t) > 0)) {
      boostDocument = filter;
      scored = score(boostDocument);
    }
    let results: TextMatches = scored.best;
    if (scored.matched === 0 && options.fuzzy !== false) results = searchResults(run(true));
    return rerank(this.#view, results, parsed, late, options);
  }
}
