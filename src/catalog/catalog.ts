// The endpoint catalogue: every imported spec in memory, listings precomputed, one search index per spec.
// `replace` does all its work in one synchronous call, so a reader (JS being single-threaded) sees
// either the old catalogue or the new one, never a mix.
// Why one index per spec: a spec's search answers must not depend on what else is loaded. A shared
// index ranks with catalogue-wide word statistics, so the same query within the same spec ranked
// differently with 100,000 other endpoints loaded. Per spec, a spec-filtered search ranks that
// spec's own index with its own statistics; a spec is indexed once when it arrives and its index
// goes when it goes (no removals from a shared index, no stale postings). One thing still reads the
// whole catalogue: which other forms of a rare query word are searched (expand.ts `withForms`), so a
// filtered search can differ from one in a catalogue holding that spec alone (TESTING.md has a case).
// Where the rest lives: the specs of one generation (loaded.ts), word statistics over specs
// (term-holders.ts), one search start to end (search-pipeline.ts), ranking over several indexes
// (rank-many.ts), which API a query names (spec-choice.ts), paging (search-page.ts), listings
// (listings.ts), suggestions for unknown ids (suggest.ts).
import type { Endpoint, ImportedSpec } from '../model/index.ts';
import { SvcError, parseEndpointId } from '../model/index.ts';
import type { ListFilter, SearchFilters, SearchHit, SearchPage, SpecSummary } from './index.ts';
import { type Entry, type ParsedQuery, parseQuery } from './search.ts';
import { SpecState, takePrepared } from './spec-state.ts';
import { type QueryVocabulary, withAlternatives, withForms } from './expand.ts';
import { RULES } from './rules.ts';
import { type SpellingVocabulary, catalogSpelling, correctSpelling } from './spelling.ts';
import { type EnglishWordList, englishWords } from '../vocabulary/index.ts';
import { type CollectionListing, Listings } from './listings.ts';
import { Loaded } from './loaded.ts';
import type { SearchBudget } from './rank-many.ts';
import { MAX_SEARCH_DEPTH, pageOf } from './search-page.ts';
import { acceptance, searchHits } from './search-pipeline.ts';
import { suggestIds } from './suggest.ts';
import { TermHolders } from './term-holders.ts';

export type { IndexImage } from './search.ts';
export { MAX_SEARCH_DEPTH } from './search-page.ts';
export { type EntryFacts, indexImage, prepareSpec, prepareSpecInSteps, specImage } from './spec-state.ts';
export { type IndexSource, type LeanPostings, type MiniHead, leanPostings, postingsIndex } from './lean-mini.ts';

/** See `CatalogOptions.budgetMs`. */
const SEARCH_BUDGET_MS = 500;
/** See `CatalogOptions.budgetPostings`. */
const SEARCH_BUDGET_POSTINGS = 200_000;
/** See `CatalogOptions.fallbackMs`. */
const FALLBACK_MS = 30;
/** `replaceInSteps`: specs taken into the word statistics between two looks at the clock, and the time between two pauses. */
const STATES_PER_STEP = 64;
const STEP_MS = 10;

const DEFAULT_SEARCH_LIMIT = 10;
const DEFAULT_SUGGEST_LIMIT = 5;

/** How a catalogue searches; the defaults are what the daemon uses. */
export interface CatalogOptions {
  /** A search over many specs stops after this many indexes once it has a full page (a work budget; default: see rank-many.ts `indexesSearched`). */
  readonly maxIndexesSearched?: number;
  /**
   * Skip indexes and results that provably cannot reach the page (default true). Off, every index
   * is ranked in full: what the pruned search must equal (a test compares the two).
   */
  readonly prune?: boolean;
  /**
   * Milliseconds a search over many specs may spend before it stops at the page it has (with
   * pruning on): the last safety valve against a pathological query or catalogue, far above a
   * normal search even on a busy machine.
   */
  readonly budgetMs?: number;
  /**
   * Postings (documents per query word, summed over the indexes searched) a search over many specs
   * may visit before it stops at the page it has, with pruning on: the same bound as `budgetMs`,
   * counted in work rather than time, so the answer does not depend on how busy the machine is.
   */
  readonly budgetPostings?: number;
  /**
   * Milliseconds, counted from the start of the ranking, after which the fuzzy fallback (no word of
   * the query matched as typed, nor as spelling read it) asks no more indexes once it has a hit, with
   * pruning on. It asks the most promising first, and the first such query after a start loads every
   * index it asks: at hub scale (2,600 APIs) that once held the event loop for 160 ms over MCP. With
   * this bound and the tables `warm` builds, the first such query there took 47-49 ms over MCP, the
   * next 37. `Infinity` asks every index the fallback's budget allows.
   */
  readonly fallbackMs?: number;
  /** Related English words searched as low-weight alternatives of the query's (none by default; see expand.ts). */
  readonly vocabulary?: QueryVocabulary;
  /**
   * What tells an English word from a typo, for spelling (spelling.ts): a word no endpoint says is
   * read as the catalogue's nearest term only when it is no English word. Default: WordNet's lemma
   * lists, read on disk (`englishWords`); none there, every such word near a term is read as a typo.
   */
  readonly english?: EnglishWordList;
}

const NO_ENGLISH: EnglishWordList = { has: () => false };

/** A query as the ranking reads it, and the words it was read as when a typo was corrected. */
interface ReadQuery {
  readonly parsed: ParsedQuery;
  readonly readAs?: string;
}

/** What a `replace` serves next (`next`), the specs new to the catalogue (`added`) and those it drops. */
interface ReplacePlan {
  readonly next: SpecState[];
  readonly added: SpecState[];
  readonly removed: Set<SpecState>;
}

export class Catalog {
  /** Word statistics over every spec, kept up to date spec by spec by `replace`. */
  readonly #terms = new TermHolders();
  readonly #budget: SearchBudget;
  #loaded: Loaded;
  #listings: Listings;
  #generation = 0;
  #queryVocabulary: QueryVocabulary | undefined;
  readonly #english: EnglishWordList | undefined;
  #speller: { readonly loaded: Loaded; readonly vocabulary: SpellingVocabulary } | undefined;

  constructor(specs?: readonly ImportedSpec[], options: CatalogOptions = {}) {
    this.#budget = {
      maxIndexesSearched: options.maxIndexesSearched ?? -1,
      prune: options.prune ?? true,
      budgetMs: options.budgetMs ?? SEARCH_BUDGET_MS,
      budgetPostings: options.budgetPostings ?? SEARCH_BUDGET_POSTINGS,
      fallbackMs: options.fallbackMs ?? FALLBACK_MS,
    };
    this.#queryVocabulary = options.vocabulary;
    this.#english = options.english;
    this.#loaded = new Loaded([], this.#terms, this.#budget);
    this.#listings = new Listings([], this.#loaded.byName);
    if (specs && specs.length > 0) this.replace(specs);
  }

  /** Search with this vocabulary from now on (it may load after the catalogue); undefined for none. */
  useVocabulary(vocabulary: QueryVocabulary | undefined): void {
    this.#queryVocabulary = vocabulary;
  }

  /**
   * A query, read: its misspelt words as the catalogue writes them (spelling.ts), then the other
   * forms of its words and the vocabulary's alternatives the catalogue holds.
   */
  #read(query: string): ReadQuery {
    const df = (t: string) => this.#terms.df(t);
    let parsed = parseQuery(query);
    const readAs = RULES.spelling ? correctSpelling(query, parsed, this.#spelling()) : undefined;
    if (readAs !== undefined) parsed = parseQuery(readAs);
    parsed = withForms(parsed, df);
    const vocabulary = this.#queryVocabulary;
    // Stryker disable next-line ConditionalExpression: an absent reading and one that is undefined read the same
    return { parsed: vocabulary ? withAlternatives(parsed, vocabulary, df) : parsed, ...(readAs !== undefined ? { readAs } : {}) };
  }

  /** What spelling asks of this catalogue (spelling.ts `catalogSpelling`), made once per generation of specs. */
  #spelling(): SpellingVocabulary {
    const loaded = this.#loaded;
    if (this.#speller?.loaded !== loaded) {
      // Without WordNet's lists (a damaged install) no word is known as English: every word near a term is read as a typo.
      this.#speller = { loaded, vocabulary: catalogSpelling(this.#terms, loaded, this.#english ?? englishWords() ?? NO_ENGLISH) };
    }
    return this.#speller.vocabulary;
  }

  /**
   * Builds now, a table per step, what the first search after a change would build: the catalogue's
   * terms sorted and by length (prefix and fuzzy look-ups), the specs' full names, the key tables of
   * exact matches. At hub scale (2,600 APIs) each is 10-20 ms that the first search paid.
   */
  async warm(pause: () => Promise<void>): Promise<void> {
    const loaded = this.#loaded;
    // Stryker disable next-line CallExpression: speed only (the first search builds the same tables: test/catalog/warm)
    this.#terms.warm();
    await pause();
    void loaded.fullNames;
    await pause();
    void loaded.tables;
  }

  /** Increments on every `replace`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#loaded.size;
  }

  /**
   * Swap in a new set of specs. Specs passed again as the same object keep their index; specs that
   * are new or changed (a different object) get a new one. If indexing fails, nothing changes.
   */
  replace(specs: readonly ImportedSpec[]): void {
    this.#apply(this.#plan(specs));
  }

  /**
   * `replace`, handing the thread back (`pause`) between batches of specs while the word statistics
   * take them in, when the catalogue serves nothing yet (a daemon's start): with every API of a
   * public directory loaded (2,600 specs) that was 80-110 ms in one block. A catalogue that serves
   * specs already is replaced at once, as `replace` does: a search between two batches would read
   * statistics that hold specs its catalogue does not.
   */
  async replaceInSteps(specs: readonly ImportedSpec[], pause: () => Promise<void>, stepMs = STEP_MS): Promise<void> {
    const plan = this.#plan(specs);
    if (this.#loaded.states.length > 0) return this.#apply(plan);
    const { next, added } = plan;
    let since = performance.now();
    // Stryker disable next-line EqualityOperator: one more turn past the end adds an empty batch
    for (let i = 0; i < added.length; i += STATES_PER_STEP) {
      this.#terms.add(added.slice(i, i + STATES_PER_STEP));
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: when to hand the thread back only (every batch, or none, adds the same)
      if (performance.now() - since > stepMs) {
        await pause();
        since = performance.now();
      }
    }
    this.#swap(next);
  }

  /** The specs `replace` serves next, those new to the catalogue and those it drops (validated: nothing after this can throw). */
  #plan(specs: readonly ImportedSpec[]): ReplacePlan {
    const seen = new Set<string>();
    for (const spec of specs) {
      if (seen.has(spec.name)) {
        throw new SvcError('catalog-duplicate-spec', `Two specs are named "${spec.name}": spec names must be unique.`, {
          hint: 'Give each spec its own name in svc.yaml.',
        });
      }
      seen.add(spec.name);
    }
    const previous = this.#loaded;
    const next: SpecState[] = [];
    const added: SpecState[] = [];
    const kept = new Set<SpecState>();
    for (const spec of specs) {
      const old = previous.byName.get(spec.name);
      if (old && old.spec === spec) {
        next.push(old);
        kept.add(old);
      } else {
        const state = takePrepared(spec) ?? new SpecState(spec);
        next.push(state);
        added.push(state);
      }
    }
    // Everything that can throw is done: from here on the swap cannot fail half-way.
    const removed = new Set<SpecState>();
    for (const s of previous.states) if (!kept.has(s)) removed.add(s);
    return { next, added, removed };
  }

  /** The planned specs served at once: the word statistics updated, then the swap. */
  #apply({ next, added, removed }: ReplacePlan): void {
    this.#terms.remove(removed);
    this.#terms.add(added);
    this.#swap(next);
  }

  #swap(next: SpecState[]): void {
    this.#loaded = new Loaded(next, this.#terms, this.#budget);
    this.#listings = new Listings(next, this.#loaded.byName);
    this.#generation++;
  }

  specs(): readonly ImportedSpec[] {
    return this.#loaded.specs;
  }

  spec(name: string): ImportedSpec | undefined {
    return this.#loaded.byName.get(name)?.spec;
  }

  summaries(): readonly SpecSummary[] {
    return this.#listings.summaries();
  }

  get(id: string): Endpoint | undefined {
    return this.#entry(id)?.endpoint;
  }

  #entry(id: string): Entry | undefined {
    const colon = id.indexOf(':');
    // Stryker disable next-line ConditionalExpression,EqualityOperator: no spec is named "" or holds an id without a colon, so the look-up below finds nothing for these either
    if (colon <= 0) return undefined;
    return this.#loaded.byName.get(id.slice(0, colon))?.byId.get(id);
  }

  /** Endpoints in source order (spec order, then document order). */
  list(filter: ListFilter): readonly Endpoint[] {
    return this.#listings.list(filter);
  }

  collections(): readonly CollectionListing[] {
    return this.#listings.collections();
  }

  /** Tags in first-seen order with their endpoint counts; one spec's, or all specs' merged. */
  tags(spec?: string): readonly { tag: string; endpoints: number }[] {
    return this.#listings.tags(spec);
  }

  search(query: string, filters: SearchFilters = {}, limit = DEFAULT_SEARCH_LIMIT): readonly SearchHit[] {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only (a search for no hits finds none either way)
    if (limit <= 0) return [];
    const loaded = this.#loaded;
    const states = loaded.statesFor(filters);
    // Stryker disable next-line ConditionalExpression: speed only (a search of no spec finds nothing either way)
    if (states.length === 0) return [];
    const { parsed, readAs } = this.#read(query);
    return searchHits(loaded, states, readAs ?? query, parsed, acceptance(filters.tag, filters.method), limit);
  }

  /**
   * One page of a search, and the true number of endpoints that match: the ranked hits first, then
   * every other endpoint holding one of the query's words, in catalogue order. Pages reach at most
   * `MAX_SEARCH_DEPTH` results deep (ranking deeper is work nobody reads), and so does the count:
   * past it the page says more match (see search-page.ts).
   */
  searchPage(query: string, filters: SearchFilters, offset: number, limit: number): SearchPage {
    if (offset + limit > MAX_SEARCH_DEPTH) {
      throw new SvcError('search-too-deep', `search pages reach ${MAX_SEARCH_DEPTH} results deep; this page would end at ${offset + limit}`, {
        hint: 'add words or a spec, tag or method filter to narrow the search',
      });
    }
    // Read once for the ranking and the count (the query is the same).
    const loaded = this.#loaded;
    const states = loaded.statesFor(filters);
    const { parsed, readAs } = this.#read(query);
    const filter = acceptance(filters.tag, filters.method);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: speed only (no hits asked or no spec to search: the ranking finds none either way)
    const ranked = limit + offset > 0 && states.length > 0 ? searchHits(loaded, states, readAs ?? query, parsed, filter, offset + limit) : [];
    const page = pageOf(loaded, states, parsed, ranked, filter, offset, limit);
    return readAs !== undefined ? { ...page, readAs } : page;
  }

  /**
   * Loads the search indexes a search of `query` reads first, one at a time with the thread handed
   * back between them and within each (a spec's index is loaded on the first search that reads it).
   * With every API of a public directory loaded (2,639 specs) a first search read a dozen indexes in
   * one turn: 35-50 ms on an idle machine, up to 80 over MCP on a busy one. Changes no result: a
   * search that reads an index not loaded yet loads it itself, as before. Resolves to how many it
   * loaded (none for one spec: its index is read by the search either way).
   */
  async prepareSearch(query: string, filters: SearchFilters): Promise<number> {
    const loaded = this.#loaded;
    const states = loaded.statesFor(filters);
    if (states.length < 2) return 0;
    const { parsed } = this.#read(query);
    let count = 0;
    for (const index of loaded.ranker.firstVisited(states, parsed)) if (await index.preload()) count++;
    return count;
  }

  /**
   * Closest existing ids to an unknown one, best first. Narrows first (same path in another method,
   * same last segment, the search index within the spec), then compares paths: never the whole catalogue.
   */
  suggest(id: string, limit = DEFAULT_SUGGEST_LIMIT): readonly string[] {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only (the first none of the suggestions are none either way)
    if (limit <= 0) return [];
    const parsed = parseEndpointId(id);
    if (!parsed) return this.search(id, {}, limit).map((h) => h.endpoint.id);
    return suggestIds(this.#loaded, parsed, limit);
  }
}
