// The endpoint catalogue: every imported spec in memory, listings precomputed, one search index per spec.
// `replace` does all its work in one synchronous call, so a reader (JS being single-threaded) sees
// either the old catalogue or the new one, never a mix.
// Why one index per spec: a spec's search answers must not depend on what else is loaded. A shared
// index ranks with catalogue-wide word statistics, so the same query within the same spec ranked
// differently with 100,000 other endpoints loaded. Per spec, a spec-filtered search is exactly a
// search of a catalogue holding that spec alone; a spec is indexed once when it arrives and its
// index goes when it goes (no removals from a shared index, no stale postings).
import type { Endpoint, ImportedSpec } from '../model/index.ts';
import { SvcError, parseEndpointId } from '../model/index.ts';
import type { ListFilter, SearchFilters, SearchHit, SearchPage, SpecSummary } from './index.ts';
import { type Entry, type ParsedQuery, PREFIX_MIN, type Ranked, RULES, type SearchIndex, boundOf, normalizePath, parseQuery, withVerbsSearched, withoutTerms } from './search.ts';
import { SpecState, lastTwo, push, takePrepared } from './spec-state.ts';
import { type QueryVocabulary, withAlternatives } from './expand.ts';
import { IDF_RESCALE, SPEC_CHOICE, SPEC_NAMING, WEIGHTS, lateGainBound } from './weights.ts';
import { editDistance, pathSimilarity } from './similar.ts';
import { FullNameIndex } from './spec-choice.ts';

export type { IndexImage } from './search.ts';
export { indexImage, prepareSpec, prepareSpecInSteps } from './spec-state.ts';

/** Listings derived from the current specs, computed on first use and dropped on `replace`. */
interface Views {
  all?: readonly Endpoint[];
  byCollection?: ReadonlyMap<string, readonly Endpoint[]>;
  byTag?: ReadonlyMap<string, readonly Endpoint[]>;
  collections?: ReturnType<Catalog['collections']>;
  summaries?: readonly SpecSummary[];
}

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
 * e-fold of APIs beyond `SPEC_CHOICE.moreIndexesFrom` (4 up to 256 APIs, 8 at ~2,600). Each costs
 * up to ~1 ms for a large spec, so it starts only where the catalogue is large enough to need it.
 */
function indexesSearched(base: number, apis: number): number {
  return base + Math.floor(SPEC_CHOICE.moreIndexesPerLog * Math.max(0, Math.log(apis / SPEC_CHOICE.moreIndexesFrom)));
}
/** See `CatalogOptions.budgetMs`. */
const SEARCH_BUDGET_MS = 500;
/** See `CatalogOptions.budgetPostings`. */
const SEARCH_BUDGET_POSTINGS = 200_000;
const byPosition = (entry: Entry): number => entry.position;

/** One spec's search: exactly what a catalogue holding that spec alone answers. */
function rankOne(state: SpecState, parsed: ParsedQuery, limit: number, accept: (e: Entry) => boolean, all: boolean): Ranked[] {
  return state.index.rank(parsed, { limit, accept, all, order: byPosition });
}

/**
 * The indexes holding one term, with the term's document count and best score (`SearchIndex.best`)
 * in each: `stats` holds df, best per holder, in `states` order. What lets a search over many
 * indexes visit only those holding a query word, without a look-up per index.
 */
interface Holders {
  readonly states: SpecState[];
  readonly stats: number[];
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

const EMPTY: readonly Endpoint[] = Object.freeze([]);
/** How deep search pages reach (offset + limit). */
export const MAX_SEARCH_DEPTH = 1000;
const DEFAULT_SEARCH_LIMIT = 10;
const DEFAULT_SUGGEST_LIMIT = 5;

/** BM25's inverse document frequency, as MiniSearch computes it. */
function idf(documents: number, matching: number): number {
  return Math.log(1 + (documents - matching + 0.5) / (matching + 0.5));
}

/** How a catalogue searches; the defaults are what the daemon uses. */
export interface CatalogOptions {
  /** A search over many specs stops after this many indexes once it has a full page (a work budget; default: see `MAX_INDEXES_SEARCHED` and `indexesSearched`). */
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
  /** Related English words searched as low-weight alternatives of the query's (none by default; see expand.ts). */
  readonly vocabulary?: QueryVocabulary;
}

export class Catalog {
  /** Documents per term over every spec: what makes scores of different specs' indexes comparable. */
  readonly #df = new Map<string, number>();
  /** Term -> the indexes holding it (see `Holders`), kept up to date by `replace`. */
  readonly #holders = new Map<string, Holders>();
  #scratch: Scratch | undefined;
  #mark = 0;
  /** The catalogue's terms, sorted, for prefix look-ups; built on first need after a `replace`. */
  #vocabulary: string[] | undefined;
  #states: readonly SpecState[] = [];
  #byName: ReadonlyMap<string, SpecState> = new Map();
  /** Name term -> the specs a query may name by it (`SpecState.names`). */
  #nameHolders = new Map<string, SpecState[]>();
  /** Specs by their full names (`FullNameIndex`), built on the first search over several specs. */
  #fullNames: FullNameIndex | undefined;
  #specs: readonly ImportedSpec[] = [];
  #size = 0;
  #generation = 0;
  #views: Views = {};

  readonly #options: Required<Omit<CatalogOptions, 'vocabulary'>>;
  #queryVocabulary: QueryVocabulary | undefined;

  constructor(specs?: readonly ImportedSpec[], options: CatalogOptions = {}) {
    this.#options = {
      maxIndexesSearched: options.maxIndexesSearched ?? -1,
      prune: options.prune ?? true,
      budgetMs: options.budgetMs ?? SEARCH_BUDGET_MS,
      budgetPostings: options.budgetPostings ?? SEARCH_BUDGET_POSTINGS,
    };
    this.#queryVocabulary = options.vocabulary;
    if (specs && specs.length > 0) this.replace(specs);
  }

  /** Search with this vocabulary from now on (it may load after the catalogue); undefined for none. */
  useVocabulary(vocabulary: QueryVocabulary | undefined): void {
    this.#queryVocabulary = vocabulary;
  }

  /** A query, read, with the vocabulary's alternatives the catalogue holds. */
  #parse(query: string): ParsedQuery {
    const parsed = parseQuery(query);
    const vocabulary = this.#queryVocabulary;
    return vocabulary ? withAlternatives(parsed, vocabulary, (t) => this.#df.get(t) ?? 0) : parsed;
  }

  /** Increments on every `replace`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Swap in a new set of specs. Specs passed again as the same object keep their index; specs that
   * are new or changed (a different object) get a new one. If indexing fails, nothing changes.
   */
  replace(specs: readonly ImportedSpec[]): void {
    const seen = new Set<string>();
    for (const spec of specs) {
      if (seen.has(spec.name)) {
        throw new SvcError('catalog-duplicate-spec', `Two specs are named "${spec.name}": spec names must be unique.`, {
          hint: 'Give each spec its own name in svc.yaml.',
        });
      }
      seen.add(spec.name);
    }
    const next: SpecState[] = [];
    const added: SpecState[] = [];
    const kept = new Set<SpecState>();
    for (const spec of specs) {
      const old = this.#byName.get(spec.name);
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
    for (const s of this.#states) if (!kept.has(s)) removed.add(s);
    for (const s of removed) this.#countTerms(s, -1);
    this.#dropHolders(removed);
    for (const s of added) this.#countTerms(s, 1);
    next.forEach((s, i) => (s.position = i));
    this.#scratch = undefined;
    this.#vocabulary = undefined;
    this.#states = next;
    this.#byName = new Map(next.map((s) => [s.spec.name, s]));
    const nameHolders = new Map<string, SpecState[]>();
    for (const s of next) for (const t of s.names) push(nameHolders, t, s);
    this.#nameHolders = nameHolders;
    this.#fullNames = undefined;
    this.#specs = next.map((s) => s.spec);
    this.#size = next.reduce((sum, s) => sum + s.entries.length, 0);
    this.#views = {};
    this.#generation++;
  }

  #countTerms(state: SpecState, delta: number): void {
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

  specs(): readonly ImportedSpec[] {
    return this.#specs;
  }

  spec(name: string): ImportedSpec | undefined {
    return this.#byName.get(name)?.spec;
  }

  summaries(): readonly SpecSummary[] {
    return (this.#views.summaries ??= this.#states.map((s) => ({
      name: s.spec.name,
      collection: s.spec.collection,
      ...(s.spec.title !== undefined ? { title: s.spec.title } : {}),
      endpoints: s.entries.length,
      deprecated: s.deprecated,
    })));
  }

  get(id: string): Endpoint | undefined {
    return this.#entry(id)?.endpoint;
  }

  #entry(id: string): Entry | undefined {
    const colon = id.indexOf(':');
    if (colon <= 0) return undefined;
    return this.#byName.get(id.slice(0, colon))?.byId.get(id);
  }

  /** Endpoints in source order (spec order, then document order). */
  list(filter: ListFilter): readonly Endpoint[] {
    const { spec, collection, tag } = filter;
    if (spec !== undefined) {
      const state = this.#byName.get(spec);
      if (!state || (collection !== undefined && state.spec.collection !== collection)) return EMPTY;
      return tag !== undefined ? (state.byTag.get(tag) ?? EMPTY) : state.endpoints;
    }
    if (collection !== undefined) {
      const inCollection = this.#collectionMap().get(collection) ?? EMPTY;
      return tag !== undefined ? inCollection.filter((e) => e.tags.includes(tag)) : inCollection;
    }
    if (tag !== undefined) return this.#tagMap().get(tag) ?? EMPTY;
    return (this.#views.all ??= this.#states.length === 1 ? this.#states[0]!.endpoints : this.#states.flatMap((s) => s.endpoints));
  }

  #collectionMap(): ReadonlyMap<string, readonly Endpoint[]> {
    if (this.#views.byCollection) return this.#views.byCollection;
    const map = new Map<string, Endpoint[]>();
    for (const s of this.#states) {
      const list = map.get(s.spec.collection);
      if (list) for (const e of s.endpoints) list.push(e);
      else map.set(s.spec.collection, [...s.endpoints]);
    }
    return (this.#views.byCollection = map);
  }

  #tagMap(): ReadonlyMap<string, readonly Endpoint[]> {
    if (this.#views.byTag) return this.#views.byTag;
    const map = new Map<string, Endpoint[]>();
    for (const s of this.#states) {
      for (const [tag, endpoints] of s.byTag) {
        const list = map.get(tag);
        if (list) for (const e of endpoints) list.push(e);
        else map.set(tag, [...endpoints]);
      }
    }
    return (this.#views.byTag = map);
  }

  collections(): readonly { name: string; specs: readonly { name: string; endpoints: number }[]; endpoints: number }[] {
    if (this.#views.collections) return this.#views.collections;
    const out: { name: string; specs: { name: string; endpoints: number }[]; endpoints: number }[] = [];
    const byName = new Map<string, (typeof out)[number]>();
    for (const s of this.#states) {
      let c = byName.get(s.spec.collection);
      if (!c) {
        c = { name: s.spec.collection, specs: [], endpoints: 0 };
        byName.set(c.name, c);
        out.push(c);
      }
      c.specs.push({ name: s.spec.name, endpoints: s.entries.length });
      c.endpoints += s.entries.length;
    }
    return (this.#views.collections = out);
  }

  /** Tags in first-seen order with their endpoint counts; one spec's, or all specs' merged. */
  tags(spec?: string): readonly { tag: string; endpoints: number }[] {
    const map = spec !== undefined ? this.#byName.get(spec)?.byTag : this.#tagMap();
    if (!map) return [];
    return [...map].map(([tag, endpoints]) => ({ tag, endpoints: endpoints.length }));
  }

  search(query: string, filters: SearchFilters = {}, limit = DEFAULT_SEARCH_LIMIT): readonly SearchHit[] {
    if (limit <= 0) return [];
    const parsed = this.#parse(query);
    const states = this.#statesFor(filters);
    if (states.length === 0) return [];
    const { tag, method } = filters;
    const all = tag === undefined && method === undefined;
    const accept = all
      ? () => true
      : (entry: Entry) => (method === undefined || entry.endpoint.method === method) && (tag === undefined || entry.endpoint.tags.includes(tag));
    // A path the query names outright comes first: the caller already knows what it wants.
    const named = parsed.paths.length > 0 ? this.#pathMatches(states, parsed.paths, accept, limit, parsed.method) : [];
    // Then an endpoint whose summary or operationId the query is, word for word.
    const exact = parsed.paths.length === 0 ? this.#exactMatches(states, parsed.exact, accept) : [];
    // When the named path fills the page (the same path in many specs), the text ranking is not needed.
    let ranked = named.length >= limit ? [] : this.#rank(states, query, parsed, limit, accept, all);
    // No other word matched: the verbs are what is left to find something by.
    const verbs = ranked.length === 0 && named.length < limit ? withVerbsSearched(parsed) : undefined;
    if (verbs) ranked = this.#rank(states, query, verbs, limit, accept, all);
    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    const top = ranked[0]?.score ?? 1;
    for (const entry of named) {
      if (hits.length >= limit) break;
      seen.add(entry.endpoint.id);
      hits.push({ endpoint: entry.endpoint, score: top * 2 + 1 });
    }
    if (exact.length > 0) {
      // Several endpoints say the same words: the ranking orders them.
      const place = new Map<Entry, number>();
      ranked.forEach((r, i) => place.set(r.entry, i));
      const order = (e: Entry) => place.get(e) ?? ranked.length;
      for (const entry of [...exact].sort((a, b) => order(a) - order(b))) {
        if (hits.length >= limit) break;
        if (seen.has(entry.endpoint.id)) continue;
        seen.add(entry.endpoint.id);
        hits.push({ endpoint: entry.endpoint, score: top * 1.5 + 1 });
      }
    }
    for (const r of ranked) {
      if (hits.length >= limit) break;
      if (seen.has(r.entry.endpoint.id)) continue;
      hits.push({ endpoint: r.entry.endpoint, score: r.score });
    }
    return hits;
  }

  /**
   * The text ranking over `states`. A query that names one of several APIs ("... in Trello") ranks
   * that API's matches first, searched without the naming words; the other APIs' matches follow.
   */
  #rank(states: readonly SpecState[], query: string, parsed: ParsedQuery, limit: number, accept: (e: Entry) => boolean, all: boolean): Ranked[] {
    if (states.length === 1) {
      // Within one spec, its own name says nothing about which of its endpoints is meant.
      const own = RULES.specChoice ? parsed.terms.filter((t) => states[0]!.names.has(t)) : [];
      return rankOne(states[0]!, own.length > 0 ? withoutTerms(parsed, new Set(own)) : parsed, limit, accept, all);
    }
    const choice = RULES.specChoice ? ((RULES.fullNames ? this.#fullyNamed(query, parsed, states) : undefined) ?? this.#namedSpecs(parsed, states)) : undefined;
    if (!choice) return this.#rankMany(states, parsed, limit, accept, all);
    const rankIn = (some: readonly SpecState[], query: ParsedQuery, n: number) =>
      some.length === 0 ? [] : some.length === 1 ? rankOne(some[0]!, query, n, accept, all) : this.#rankMany(some, query, n, accept, all);
    // The named specs' matches first, searched without the naming words; then every other spec's.
    const first = rankIn(choice.named, choice.query, limit);
    if (first.length >= limit) return first;
    const named = new Set(choice.named);
    return [...first, ...rankIn(states.filter((s) => !named.has(s)), parsed, limit - first.length)];
  }

  /** The specs among `states` the query names in full (see `FullNameIndex`), and the query without the naming words. */
  #fullyNamed(query: string, parsed: ParsedQuery, states: readonly SpecState[]): { named: SpecState[]; query: ParsedQuery } | undefined {
    const naming = (this.#fullNames ??= new FullNameIndex(this.#states)).named(query, states === this.#states ? undefined : new Set(states));
    if (!naming || naming.named.length === states.length) return undefined;
    return { named: naming.named, query: withoutTerms(parsed, naming.terms) };
  }

  /**
   * The specs among `states` the query names, and the query without the naming words (unless they
   * are all it says). A word names a spec when it is one of the spec's name words (`specNameTerms`),
   * few specs are named by it (or a vendor's group of them, see `SPEC_NAMING`), and few other specs
   * use it in their endpoints: "zoom" in a catalogue of unrelated APIs, not "user" because one API
   * is called "User Service".
   */
  #namedSpecs(
    parsed: ParsedQuery,
    states: readonly SpecState[],
  ): { named: SpecState[]; query: ParsedQuery } | undefined {
    const member = states === this.#states ? undefined : new Set(states);
    const total = this.#states.length;
    const few = Math.max(SPEC_NAMING.fewSpecs, Math.ceil(SPEC_NAMING.fewShare * total));
    const group = Math.max(few, Math.ceil(SPEC_NAMING.groupShare * total));
    const named = new Set<SpecState>();
    const naming = new Set<string>();
    for (const t of parsed.terms) {
      if (parsed.alternatives?.has(t)) continue;
      const namers = this.#nameHolders.get(t);
      if (!namers || namers.length > group) continue;
      const namerSet = new Set(namers);
      let others = 0;
      for (const h of this.#holders.get(t)?.states ?? []) if (!namerSet.has(h) && (!member || member.has(h))) others++;
      // A word naming a vendor's many APIs ("every API of one company") still names them while
      // few other specs use it; a word naming a handful must be that rare outside them too.
      if (others > few) continue;
      let any = false;
      for (const s of namers) {
        if (member && !member.has(s)) continue;
        named.add(s);
        any = true;
      }
      if (any) naming.add(t);
    }
    if (named.size === 0 || named.size === states.length) return undefined;
    return { named: states.filter((s) => named.has(s)), query: withoutTerms(parsed, naming) };
  }

  /** Entries of `states` whose summary or operationId is, word for word, the query. */
  #exactMatches(states: readonly SpecState[], key: string, accept: (e: Entry) => boolean): Entry[] {
    if (!key) return [];
    const out: Entry[] = [];
    for (const state of states) for (const entry of state.exact(key) ?? []) if (accept(entry)) out.push(entry);
    return out;
  }

  /**
   * One page of a search, and the true number of endpoints that match: the ranked hits first, then
   * every other endpoint holding one of the query's words, in catalogue order. Pages reach at most
   * `MAX_SEARCH_DEPTH` results deep (ranking deeper is work nobody reads).
   */
  searchPage(query: string, filters: SearchFilters, offset: number, limit: number): SearchPage {
    if (offset + limit > MAX_SEARCH_DEPTH) {
      throw new SvcError('search-too-deep', `search pages reach ${MAX_SEARCH_DEPTH} results deep; this page would end at ${offset + limit}`, {
        hint: 'add words or a spec, tag or method filter to narrow the search',
      });
    }
    const ranked = this.search(query, filters, offset + limit);
    const parsed = this.#parse(query);
    const { tag, method } = filters;
    const accept =
      tag === undefined && method === undefined
        ? undefined
        : (entry: Entry) => (method === undefined || entry.endpoint.method === method) && (tag === undefined || entry.endpoint.tags.includes(tag));
    const seen = new Set(ranked.map((h) => h.endpoint.id));
    let total = ranked.length;
    const need = offset + limit - ranked.length;
    const tail: SearchHit[] = [];
    const holders = new Set<SpecState>();
    const holdersOf = (terms: readonly string[]) => {
      for (const t of terms) for (const s of this.#holders.get(t)?.states ?? []) holders.add(s);
    };
    holdersOf(parsed.terms);
    // When no other word is held, search() ranked by the verbs ("list card": by "list"): count by them too,
    // or the total would change from page to page.
    const verbs = holders.size === 0 ? withVerbsSearched(parsed) : undefined;
    if (verbs) holdersOf(verbs.terms);
    const counted = verbs ? verbs.terms : parsed.terms;
    for (const state of this.#statesFor(filters)) {
      if (!holders.has(state)) continue;
      const docs = [...state.index.matching(counted, accept)].sort((a, b) => a - b);
      for (const doc of docs) {
        const endpoint = state.index.entryOf(doc)?.endpoint;
        if (!endpoint || seen.has(endpoint.id)) continue;
        total++;
        if (tail.length < need) tail.push({ endpoint, score: 0 });
      }
    }
    const all = tail.length > 0 ? [...ranked, ...tail] : ranked;
    return { hits: all.slice(offset, offset + limit), total };
  }

  /** The specs a search with these filters looks in (an unknown spec: none). */
  #statesFor(filters: SearchFilters): readonly SpecState[] {
    const { spec, collection } = filters;
    if (spec !== undefined) {
      const state = this.#byName.get(spec);
      return state && (collection === undefined || state.spec.collection === collection) ? [state] : [];
    }
    return collection === undefined ? this.#states : this.#states.filter((s) => s.spec.collection === collection);
  }

  /**
   * Search several specs' indexes and merge. Each index's term weights are rescaled from its own
   * inverse document frequency to the catalogue's, so scores compare across specs as in one index.
   * Indexes holding none of the query's terms (nor words they begin) are skipped without a search.
   */
  #rankMany(states: readonly SpecState[], parsed: ParsedQuery, limit: number, accept: (e: Entry) => boolean, all: boolean): Ranked[] {
    if (parsed.terms.length === 0) return [];
    const documents = this.#size;
    const globalIdf = new Map<string, number>();
    for (const t of parsed.terms) globalIdf.set(t, idf(documents, this.#df.get(t) ?? 0));
    const expansions = this.#expansions(parsed.terms);
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
    const { prune, budgetMs, budgetPostings } = this.#options;
    const maxIndexesSearched = this.#options.maxIndexesSearched >= 0 ? this.#options.maxIndexesSearched : indexesSearched(MAX_INDEXES_SEARCHED, this.#states.length);
    const deadline = performance.now() + budgetMs;
    let work = 0;
    for (const c of candidates) {
      if (prune && top.length >= limit && (c.bound < top[limit - 1]!.r.score || searched >= maxIndexesSearched)) break;
      if (prune && top.length > 0 && (work > budgetPostings || performance.now() > deadline)) break;
      work += c.postings;
      searched++;
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
  ): { state: SpecState; spec: number; bound: number; postings: number; cover: number }[] {
    const member = states === this.#states ? undefined : new Set(states);
    const n = this.#states.length;
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
    for (const t of parsed.terms) {
      const w = parsed.weights.get(t) ?? 1;
      const term = ++this.#mark;
      termTouched.length = 0;
      const specificity = Math.log((n + 1) / (this.#holders.get(t)?.states.length ?? n));
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
          } else {
            // A prefix match weighs at most `WEIGHTS.prefix` of an exact one.
            best[p] = best[p]! + WEIGHTS.prefix * stats[2 * i + 1]!;
          }
        }
      };
      visit(this.#holders.get(t), true);
      for (const x of expansions.get(t) ?? []) visit(this.#holders.get(x), false);
      for (const p of termTouched) text[p] = text[p]! + w * scale[p]! * best[p]!;
    }
    // An API whose own words cover more of the query (weighted by how few APIs hold each word) is
    // the likelier one: its scores count as (its cover / the best cover) to a small power.
    let bestCover = 0;
    for (const state of touched) bestCover = Math.max(bestCover, cover[state.position]!);
    const coverPower = WEIGHTS.specCover.perLog * Math.max(0, Math.log(n / WEIGHTS.specCover.from));
    const out: { state: SpecState; spec: number; bound: number; postings: number; cover: number }[] = [];
    for (const state of touched) {
      const p = state.position;
      const coverFactor = bestCover > 0 && coverPower > 0 ? (cover[p]! / bestCover) ** coverPower : 1;
      out.push({ state, spec: p, bound: coverFactor * boundOf(parsed, text[p]!, postings[p]!, lateFactor, held[p]!), postings: postings[p]!, cover: coverFactor });
    }
    out.sort((a, b) => b.bound - a.bound || a.spec - b.spec);
    return out;
  }

  /** Prefix-searched query terms -> the catalogue's longer terms they begin. */
  #expansions(terms: readonly string[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const t of terms) {
      if (t.length < PREFIX_MIN) continue;
      const vocabulary = (this.#vocabulary ??= [...this.#df.keys()].sort());
      let lo = 0;
      let hi = vocabulary.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (vocabulary[mid]! < t) lo = mid + 1;
        else hi = mid;
      }
      const longer: string[] = [];
      for (let i = lo; i < vocabulary.length && vocabulary[i]!.startsWith(t); i++) if (vocabulary[i] !== t) longer.push(vocabulary[i]!);
      if (longer.length > 0) out.set(t, longer);
    }
    return out;
  }

  /**
   * Endpoints whose path is one the query names: exact matches, then tail matches (`/pulls`); with
   * a method named, that method's go first and the others follow as near misses. Only the first
   * `limit` are asked for, so the walk over the specs stops once they are certain: when the
   * leading group (exact matches, of the named method if any) already holds `limit`.
   */
  #pathMatches(states: readonly SpecState[], paths: readonly string[], accept: (entry: Entry) => boolean, limit: number, method?: string): Entry[] {
    // Groups in the order they are returned: [exact, tail], or with a method
    // [exact of the method, tail of the method, other exact, other tail].
    const groups: Entry[][] = method ? [[], [], [], []] : [[], []];
    const lead = groups[0]!;
    for (const raw of paths) {
      const want = normalizePath(raw);
      const last = want.slice(want.lastIndexOf('/') + 1);
      // `/pulls` looks up its one segment; `/customers/{id}` its last two (a lone `{}` matches too much).
      const deep = want.split('/').length > 2;
      const key = deep ? lastTwo(want) : last;
      for (const state of states) {
        if (lead.length >= limit) break;
        for (const entry of (deep ? state.byLastTwo.get(key) : state.byLastSegment.get(key)) ?? []) {
          if (!accept(entry)) continue;
          const have = normalizePath(entry.endpoint.path);
          const kind = have === want ? 0 : have.endsWith(want) ? 1 : -1;
          if (kind < 0) continue;
          groups[method && entry.endpoint.method !== method ? kind + 2 : kind]!.push(entry);
        }
      }
    }
    return groups.flat().slice(0, limit);
  }

  /**
   * Closest existing ids to an unknown one, best first. Narrows first (same path in another method,
   * same last segment, the search index within the spec), then compares paths: never the whole catalogue.
   */
  suggest(id: string, limit = DEFAULT_SUGGEST_LIMIT): readonly string[] {
    if (limit <= 0) return [];
    const parsed = parseEndpointId(id);
    if (!parsed) return this.search(id, {}, limit).map((h) => h.endpoint.id);
    const states = this.#closestSpecs(parsed.spec);
    const want = normalizePath(parsed.path);
    const last = want.slice(want.lastIndexOf('/') + 1);
    const candidates = new Set<Entry>();
    for (const state of states) {
      for (const e of state.byPath.get(want) ?? []) candidates.add(e);
      for (const e of state.byLastSegment.get(last) ?? []) candidates.add(e);
    }
    const query = parseQuery(`${parsed.path}`);
    const ranked = states.length === 1 ? rankOne(states[0]!, query, 40, () => true, true) : this.#rankMany(states, query, 40, () => true, true);
    for (const r of ranked.slice(0, 40)) candidates.add(r.entry);
    const scored = [...candidates].map((entry) => {
      const e = entry.endpoint;
      let score = pathSimilarity(want, normalizePath(e.path));
      if (e.method === parsed.method) score += 0.25;
      if (e.spec === parsed.spec) score += 0.1;
      return { id: e.id, score };
    });
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.id);
  }

  /** The named spec, else the specs whose names are a typo away, else every spec. */
  #closestSpecs(name: string): readonly SpecState[] {
    const exact = this.#byName.get(name);
    if (exact) return [exact];
    const lower = name.toLowerCase();
    let best = Infinity;
    let closest: SpecState[] = [];
    for (const s of this.#states) {
      const d = editDistance(lower, s.spec.name.toLowerCase(), 3);
      if (d < best) {
        best = d;
        closest = [s];
      } else if (d === best) closest.push(s);
    }
    return best <= 3 ? closest : this.#states;
  }
}
