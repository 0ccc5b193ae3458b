// The catalogue's search: one MiniSearch index per spec, then a re-ranking pass
// that knows API conventions (verbs -> methods, collections vs items, deprecation, named paths).
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import type { Endpoint, HttpMethod } from '../model/index.ts';
import { HTTP_METHODS } from '../model/index.ts';
import {
  INTENT_TERMS,
  type Intent,
  PLURAL_HINTS,
  VERB_HINTS,
  firstSentenceOfPlain,
  intentOfTerm,
  isPluralWord,
  plainText,
  splitWords,
  termsOf,
  textTerms,
} from './text.ts';

/** What the index and the ranking keep per endpoint, beside the endpoint itself. */
export interface Entry {
  readonly endpoint: Endpoint;
  /** MiniSearch document id within its spec's index (a number: cheaper than the string id). */
  readonly doc: number;
  /** Index of the endpoint within its spec (document order). */
  readonly position: number;
  /** The path ends in a placeholder (`/pods/{name}`): it names one thing, not a collection. */
  readonly item: boolean;
  /** Terms of the last literal path segment: the resource the endpoint acts on (`payment intent`). */
  readonly resource: readonly string[];
  /** Intents the operationId or path words spell out (`listPods`, `/chat.delete`). */
  readonly verbs: readonly Intent[];
  /** Distinct terms of the literal path segments, verbs aside: what the path is about. */
  readonly pathWords: readonly string[];
}

/** Field keys of the index documents, with the weight each gets in ranking. */
const FIELDS = {
  s: 3, // summary
  p: 2.2, // path words
  o: 1.6, // operationId words
  t: 1.2, // tags
  d: 1.4, // description's first sentence
  a: 0.5, // parameter names
  e: 0.25, // the rest of the description
} as const;
type Field = keyof typeof FIELDS;
/** BM25 parameters: `b` a little under MiniSearch's 0.7, so long summaries are penalised less. */
const BM25 = { k: 1.2, b: 0.6, d: 0.5 } as const;
const FIELD_KEYS = Object.keys(FIELDS) as Field[];
/** An index document: each field as its index terms, in order (tokenized once, fed to MiniSearch as is). */
export type Doc = { readonly i: number } & Readonly<Record<Field, readonly string[]>>;
/**
 * An empty field as MiniSearch saw it when fields were strings: one empty token, which counts one
 * towards the field's length and indexes nothing. Kept so BM25 field lengths, and so scores, stay the same.
 */
const EMPTY_FIELD: readonly string[] = Object.freeze(['']);

/** How much of a long description is worth indexing (beyond it, prose rarely names the endpoint). */
const DESCRIPTION_CHARS = 600;

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

const NOISE_PATH_WORD = /^(v\d+[a-z]*\d*|\d+|json|xml|api)$/;

function pathSegments(path: string): string[] {
  return path.split(/[/?&=]/).filter((s) => s.length > 0);
}

/**
 * Words of a path, minus version and format noise. Placeholder names are left out by default:
 * they are parameters (indexed as such), and `/customers/{customer}` would otherwise count twice.
 */
export function pathTerms(path: string, placeholders = false): string[] {
  const out: string[] = [];
  for (const seg of pathSegments(path)) {
    if (!placeholders && (seg.startsWith('{') || seg.startsWith(':'))) continue;
    for (const w of splitWords(seg)) {
      if (NOISE_PATH_WORD.test(w)) continue;
      for (const t of termsOf(w)) out.push(t);
    }
  }
  return out;
}

/** `/Users/{id}/` and `/users/{user_id}` both become `/users/{}`: how a path is looked up. */
export function normalizePath(path: string): string {
  const p = path
    .toLowerCase()
    .replace(/\{[^}]*\}|:[a-z_][\w-]*/g, '{}')
    .replace(/\/+$/, '');
  return p.startsWith('/') ? p : `/${p}`;
}

function lastSegment(normalized: string): string {
  const i = normalized.lastIndexOf('/');
  return normalized.slice(i + 1);
}

function endpointVerbs(endpoint: Endpoint, pathWords: readonly string[]): Intent[] {
  const own = endpoint.method.toLowerCase();
  const out = new Set<Intent>();
  const note = (words: readonly string[]) => {
    for (const w of words) {
      // `PostCustomers`, `GetCustomers`: an operationId that spells its own HTTP method says nothing more.
      if (w === own) continue;
      if (w === 'info') out.add('get');
      for (const t of termsOf(w)) {
        const intent = intentOfTerm(t) ?? VERB_HINTS.get(t);
        if (intent) out.add(intent);
      }
    }
  };
  note(splitWords(endpoint.operationId ?? ''));
  note(pathWords);
  return [...out];
}

/** What an endpoint's path says, whatever its method: worked out once per distinct path (see `PathFacts`). */
interface PathFacts {
  readonly item: boolean;
  readonly resource: readonly string[];
  readonly pathWords: readonly string[];
  /** Every word of the path, placeholders included (verbs are looked for in them). */
  readonly words: readonly string[];
  /** `pathTerms(path)`: the document's path field. */
  readonly terms: readonly string[];
}

/**
 * A spec names each path for several methods (`GET`, `PUT`, `DELETE /pods/{name}`): callers that
 * build many entries pass one map, so each path is split and stemmed once.
 */
export type PathCache = Map<string, PathFacts>;

function pathFacts(path: string, cache?: PathCache): PathFacts {
  let facts = cache?.get(path);
  if (facts) return facts;
  const segs = pathSegments(path);
  const last = segs[segs.length - 1] ?? '';
  const item = last.includes('{') || last.startsWith(':') || SELF_SEGMENT.test(last);
  let resource: string[] = [];
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i]!;
    if (seg.includes('{') || seg.startsWith(':')) continue;
    resource = pathTerms(seg).filter((t) => !INTENT_TERMS.has(t));
    if (resource.length > 0) break;
  }
  const pathWords = new Set<string>();
  for (const seg of segs) {
    if (seg.includes('{') || seg.startsWith(':')) continue;
    for (const t of pathTerms(seg)) if (!INTENT_TERMS.has(t)) pathWords.add(t);
  }
  facts = { item, resource, pathWords: [...pathWords], words: splitWords(path), terms: pathTerms(path) };
  cache?.set(path, facts);
  return facts;
}

const NO_VERBS: readonly Intent[] = [];
/** `/users/@me`, `/accounts/self`: a path ending in the caller names one thing, as a placeholder does. */
const SELF_SEGMENT = /^@?(me|self|current|mine)$/i;

export function makeEntry(endpoint: Endpoint, doc: number, position = 0, paths?: PathCache): Entry {
  const { item, resource, pathWords, words } = pathFacts(endpoint.path, paths);
  const verbs = endpointVerbs(endpoint, words);
  return { endpoint, doc, position, item, resource, verbs: verbs.length ? verbs : NO_VERBS, pathWords };
}

/**
 * Terms of strings a spec repeats from endpoint to endpoint (its parameter lists, its tags), worked
 * out once per index build. Results are shared: do not mutate them.
 */
export type TextCache = Map<string, readonly string[]>;

function cachedTerms(text: string, cache: TextCache | undefined): readonly string[] {
  let terms = cache?.get(text);
  if (terms === undefined) {
    terms = orEmpty(textTerms(text));
    cache?.set(text, terms);
  }
  return terms;
}

export function documentOf(entry: Entry, paths?: PathCache, texts?: TextCache): Doc {
  const e = entry.endpoint;
  // Only the start of a long description is indexed, so only the start is cleaned.
  const description = e.description ? plainText(e.description.slice(0, DESCRIPTION_CHARS * 3)) : '';
  const head = description ? firstSentenceOfPlain(description.trim()) : '';
  // Joined before splitting: one non-ASCII name sends the whole field through the Unicode splitter, as it always did.
  let params = '';
  for (const p of e.parameters) if (p.in === 'path' || p.in === 'query') params += ` ${p.name}`;
  return {
    i: entry.doc,
    // Without a summary, the description's first sentence is the summary ("Deletes a message.").
    s: orEmpty(textTerms(e.summary || head)),
    p: orEmpty(paths ? pathFacts(e.path, paths).terms : pathTerms(e.path)),
    o: orEmpty(textTerms(e.operationId)),
    t: e.tags.length === 0 ? EMPTY_FIELD : cachedTerms(e.tags.length === 1 ? e.tags[0]! : e.tags.join(' '), texts),
    d: e.summary ? orEmpty(textTerms(head)) : EMPTY_FIELD,
    a: cachedTerms(params, texts),
    e: distinctTerms(description.slice(head.length, head.length + DESCRIPTION_CHARS)),
  };
}

function orEmpty(terms: readonly string[] | undefined): readonly string[] {
  return terms && terms.length > 0 ? terms : EMPTY_FIELD;
}


/**
 * Distinct terms only: in the prose beyond the first sentence a repeated word says little more, and
 * each occurrence is indexing work.
 */
function distinctTerms(text: string): readonly string[] {
  if (!text) return EMPTY_FIELD;
  const seen = new Set<string>();
  for (const w of splitWords(text)) for (const t of termsOf(w)) seen.add(t);
  return seen.size > 0 ? [...seen] : EMPTY_FIELD;
}


/** How much a match in each field says the endpoint is about the term (prose and parameters say less). */
const FIELD_STRENGTH: Readonly<Record<string, number>> = { s: 1, p: 1, o: 1, t: 0.8, d: 0.9, a: 0.35, e: 0.45 };

/**
 * `fieldCoverage`'s working lists: query term and its strongest field so far, in the order terms
 * were first credited (the sum runs in that order). Reused from call to call: coverage is worked
 * out for every re-ranked result, and a Map per result was much of a search's garbage.
 */
const coverSources: string[] = [];
const coverStrengths: number[] = [];

/** Sum of query-term weights, each counted by the strongest field it matched in. */
function fieldCoverage(r: SearchResult, q: ParsedQuery): number {
  const terms = q.terms;
  let n = 0;
  const match = r.match;
  for (const indexTerm in match) {
    const fields = match[indexTerm]!;
    // The query term this index term came from: itself, else the longest query term it extends (prefix).
    let source: string | undefined = q.weights.has(indexTerm) ? indexTerm : undefined;
    if (!source) {
      for (let k = 0; k < terms.length; k++) {
        const t = terms[k]!;
        if (indexTerm.startsWith(t) && (!source || t.length > source.length)) source = t;
      }
    }
    // Else (a fuzzy match) the first query term not credited yet.
    if (!source) {
      for (let k = 0; k < terms.length && !source; k++) {
        let credited = false;
        for (let i = 0; i < n; i++) if (coverSources[i] === terms[k]) credited = true;
        if (!credited) source = terms[k];
      }
    }
    if (!source) continue;
    let strength = 0;
    for (let k = 0; k < fields.length; k++) strength = Math.max(strength, FIELD_STRENGTH[fields[k]!] ?? 0.5);
    let i = 0;
    while (i < n && coverSources[i] !== source) i++;
    if (i < n) {
      if (strength > coverStrengths[i]!) coverStrengths[i] = strength;
    } else if (strength > 0) {
      coverSources[n] = source;
      coverStrengths[n] = strength;
      n++;
    }
  }
  let sum = 0;
  for (let i = 0; i < n; i++) sum += coverStrengths[i]! * (q.weights.get(coverSources[i]!) ?? 1);
  return sum;
}

/** A query, read: the terms to search, what it asks to do, and any method or path it names. */
export interface ParsedQuery {
  readonly terms: readonly string[];
  /** Weight per term (words that mostly say how, not what, weigh less). */
  readonly weights: ReadonlyMap<string, number>;
  /** What the query asks to do: its first CRUD verb, else a verb that implies one ("send", "kick"). */
  readonly intent?: Intent;
  /** The intent comes from an implying verb, not a CRUD verb: weaker evidence. */
  readonly hinted: boolean;
  readonly method?: HttpMethod;
  readonly paths: readonly string[];
  /** The query speaks of many things ("all", plural nouns): prefer collections. */
  readonly plural: boolean;
  /** Shaped like a command ("buy a number", "set up an alert"): it asks to act, even with a verb we do not know. */
  readonly imperative: boolean;
  /** Every term the query says, its verbs included: compared with what an endpoint's summary says. */
  readonly said: ReadonlySet<string>;
}

const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'this', 'that', 'some', 'our', 'your', 'its', 'their', 'new']);
const PARTICLES = new Set(['up', 'out', 'down', 'on', 'off', 'in', 'back', 'over']);
const SELF_WORDS = new Set(['i', 'current', 'authenticated', 'logged']);
/** Weight of a self word once it has been read as `me`. */
const SELF_WORD_WEIGHT = 0.3;

/** Words that mostly say how, not what. "all" is read as asking for a collection already (see `plural`). */
const LOW_WEIGHT_TERMS = new Map<string, number>([
  ['all', 0.1],
  ['me', 0.4],
  ['id', 0.4],
  ['info', 0.5],
]);

export function parseQuery(query: string): ParsedQuery {
  const tokens = query.trim().split(/\s+/).filter(Boolean);
  const hasPath = tokens.some((t) => t.includes('/'));
  let method: HttpMethod | undefined;
  const paths: string[] = [];
  const prose: string[] = [];
  for (const token of tokens) {
    const upper = token.toUpperCase();
    if ((HTTP_METHODS as readonly string[]).includes(upper) && (token === upper || hasPath) && method === undefined) {
      method = upper as HttpMethod;
    } else if (token.includes('/')) {
      paths.push(token);
    } else {
      prose.push(token);
    }
  }
  let intent: Intent | undefined;
  let hint: Intent | undefined;
  const searchTerms: string[] = [];
  const verbTerms: string[] = [];
  const weights = new Map<string, number>();
  let plural = false;
  const words = splitWords(prose.join(' '));
  // "the current user", "the authenticated user": the caller, which APIs name `me`.
  // "I" only counts in queries: in prose it is mostly "i.e.".
  const self = words.some((w) => SELF_WORDS.has(w)) && !words.includes('me') && !words.includes('my');
  if (self) {
    searchTerms.push('me');
    weights.set('me', 0.6);
  }
  for (const word of words) {
    if (PLURAL_HINTS.has(word) || isPluralWord(word)) plural = true;
    for (const t of termsOf(word)) {
      const crud = intentOfTerm(t);
      if (crud) {
        intent ??= crud;
        verbTerms.push(t);
        continue;
      }
      const implied = VERB_HINTS.get(t);
      if (implied) hint ??= implied;
      searchTerms.push(t);
      // A word that was read as the caller ("current", "authenticated") has said what it had to say.
      weights.set(t, implied ? 0.6 : self && SELF_WORDS.has(word) ? SELF_WORD_WEIGHT : (LOW_WEIGHT_TERMS.get(t) ?? 1));
    }
  }
  for (const p of paths) {
    for (const t of pathTerms(p)) {
      searchTerms.push(t);
      if (!weights.has(t)) weights.set(t, 1);
    }
  }
  // A query of verbs alone ("list") still has to find something.
  if (searchTerms.length === 0) for (const t of verbTerms) {
    searchTerms.push(t);
    weights.set(t, 1);
  }
  const terms = [...new Set(searchTerms)];
  const chosen = intent ?? hint;
  const lower = prose.map((t) => t.toLowerCase());
  // A plural noun first ("channels in a guild") names things; a command starts with a verb.
  const imperative =
    lower.length >= 2 &&
    !isPluralWord(lower[0]!) &&
    (DETERMINERS.has(lower[1]!) || (PARTICLES.has(lower[1]!) && lower.length >= 3 && DETERMINERS.has(lower[2]!)));
  return {
    imperative,
    said: new Set([...terms, ...verbTerms]),
    terms,
    weights,
    ...(chosen ? { intent: chosen } : {}),
    hinted: intent === undefined && hint !== undefined,
    ...(method ? { method } : {}),
    paths,
    plural,
  };
}

/** 1 when the endpoint's own words say the intent, -1 when they say another, 0 when they say none. */
function verbAgreement(verbs: readonly Intent[], intent: Intent): number {
  if (verbs.length === 0) return 0;
  if (verbs.includes(intent)) return 1;
  // Reading one and reading many are close: `GetCustomers` lists, `listX` may be asked to "get all X".
  if ((intent === 'list' && verbs.includes('get')) || (intent === 'get' && verbs.includes('list'))) return 0;
  return -1;
}

/**
 * The largest multiplier `#factor` can give for a query: coverage, method fit, shape and path
 * words are at most 1; a named method doubles, a verb the endpoint spells out multiplies by 1.6
 * (1.25 for an implied intent), a resource the query names by 1.35.
 */
function factorBound(q: ParsedQuery): number {
  return (q.method ? 2 : 1) * (q.intent ? (q.hinted ? 1.25 : 1.6) : 1) * 1.35 * (1 + SUMMARY_FIT);
}

/**
 * An upper bound of every score `SearchIndex.rank` can give a document of one index for `parsed`,
 * from sums over the query's terms t (each with its weight w and the caller's `termScale` s):
 * `text` = sum of w x s x (best(t) + 0.3 x best(x) for each longer word x that t may expand to:
 * a prefix match weighs at most 0.3 of an exact one), `postings` = sum of df(t), and
 * `lateFactor` = product of (1 + w / 2).
 */
export function boundOf(parsed: ParsedQuery, text: number, postings: number, lateFactor: number): number {
  // Past the postings budget some terms are checked on candidates and multiply the score instead.
  if (postings > POSTINGS_BUDGET) text *= lateFactor;
  return Math.sqrt(text) * factorBound(parsed);
}

/** How well a method fits what the query asks to do (1 = fits, lower = less likely). */
const METHOD_FIT: Record<Intent, Partial<Record<HttpMethod, number>>> = {
  list: { GET: 1, POST: 0.55 },
  get: { GET: 1, POST: 0.6 },
  create: { POST: 1, PUT: 0.8, PATCH: 0.5, GET: 0.45 },
  update: { PATCH: 1, PUT: 1, POST: 0.8, GET: 0.4 },
  delete: { DELETE: 1, POST: 0.7, PUT: 0.4, PATCH: 0.4 },
};
const METHOD_FIT_DEFAULT = 0.35;
/** How much more an endpoint whose summary says exactly what the query says weighs (see `#summaryFit`). */
const SUMMARY_FIT = 0.6;

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

/** How each index's MiniSearch is set up; `MiniSearch.loadJS` must be given the same options. */
export const MINI_OPTIONS: Options<Doc> = {
  idField: 'i',
  fields: FIELD_KEYS,
  storeFields: [],
  // Documents arrive tokenized (each field an array of terms, see `documentOf`): MiniSearch takes
  // the arrays as they are instead of a joined string it would split again.
  stringifyField: (terms) => terms,
  tokenize: (terms) => terms as unknown as string[],
  processTerm: (term) => term || null,
  // Queries arrive as normalized terms joined by spaces.
  searchOptions: { boost: { ...FIELDS }, bm25: BM25, tokenize: (text) => text.split(' ') },
};

/** MiniSearch's serialized form (what `toJSON` writes and `loadJS` reads), version 2. */
type MiniIndexData = Parameters<typeof MiniSearch.loadJS>[0];
/** Postings of one term: field id -> short document id -> count of the term in that field. */
type TermPostings = Record<number, Record<number, number>>;

/** A built index as plain JSON data: what a snapshot stores. */
export interface IndexImage {
  /** MiniSearch's serialized form, or how to get it (a snapshot keeps it undecoded until the first search). */
  readonly mini: MiniIndexData | (() => MiniIndexData);
  readonly terms: readonly string[];
  readonly df: readonly number[];
  readonly best: readonly number[];
  /** Per document id: its summary's distinct terms, or null. */
  readonly summaries: readonly (readonly string[] | null)[];
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
  readonly #df = new Map<string, number>();
  /**
   * Term -> documents that name it: in the resource (last literal path segment) or in the summary.
   * For a query made only of very common words, these are the candidates worth scoring. Only such
   * queries need them, so they are built on the first one.
   */
  #named: Named | undefined;
  /** Document id -> its summary's distinct terms (the description's first sentence when it has no summary). */
  readonly #summaries: (readonly string[] | undefined)[] = [];
  /** Term -> upper bound of one document's score for it (`best`). */
  readonly #best = new Map<string, number>();
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
    const mini = await MiniSearch.loadJSAsync(data, MINI_OPTIONS);
    if (!this.#mini) {
      this.#mini = mini;
      this.#data = undefined;
    }
  }

  #loaded(): MiniSearch<Doc> {
    if (!this.#mini) {
      const data = typeof this.#data === 'function' ? this.#data() : this.#data;
      this.#mini = data ? MiniSearch.loadJS(data, MINI_OPTIONS) : new MiniSearch<Doc>(MINI_OPTIONS);
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
   * One pass over the documents counts everything (see `#build`); MiniSearch then loads it whole.
   */
  add(entries: readonly Entry[], paths: PathCache = new Map()): void {
    if (this.#size > 0) throw new Error('SearchIndex.add: an index is built once');
    const texts: TextCache = new Map();
    const docs = entries.map((entry) => documentOf(entry, paths, texts));
    this.#data = this.#build(docs);
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

  /**
   * MiniSearch's index of `docs` in its serialized form, built in one pass, plus per term its
   * document frequency (any field) and an upper bound of the BM25 score MiniSearch gives one
   * document for it: per field, its boost times the field's inverse document frequency times the
   * term-frequency part at the field's highest count and shortest length. A search over many
   * indexes uses the bound to skip indexes that cannot reach its top hits.
   *
   * Why not `addAll`: it looks every token up in MiniSearch's radix tree and bumps a Map entry,
   * most of an index build's time. Here each distinct term is inserted once, when MiniSearch loads
   * the result; the data is what `addAll` would have built (a test compares the two).
   */
  #build(docs: readonly Doc[]): MiniIndexData {
    const nf = FIELD_KEYS.length;
    // Terms get small integer ids; per id and field: documents, highest count, shortest field length.
    // Typed arrays indexed by id instead of a Map and an array per term: one pass, little garbage.
    const ids = new Map<string, number>();
    const terms: string[] = [];
    let capacity = 1024;
    let stats = new Float64Array(capacity * 3 * nf);
    let lastDoc = new Int32Array(capacity).fill(-1);
    let df = new Int32Array(capacity);
    /** Count of the term in the current field, valid while `stamp` says the current field. */
    let tf = new Int32Array(capacity);
    let stamp = new Int32Array(capacity).fill(-1);
    const grow = () => {
      const more = capacity * 2;
      const s2 = new Float64Array(more * 3 * nf);
      s2.set(stats);
      stats = s2;
      const widen = (a: Int32Array, fill: number) => {
        const b = new Int32Array(more).fill(fill);
        b.set(a);
        return b;
      };
      lastDoc = widen(lastDoc, -1);
      df = widen(df, 0);
      tf = widen(tf, 0);
      stamp = widen(stamp, -1);
      capacity = more;
    };
    const totalLength = new Float64Array(nf);
    const fieldIds: number[] = [];
    const postings: TermPostings[] = [];
    const documentIds: Record<number, number> = {};
    const fieldLength: Record<number, number[]> = {};
    // MiniSearch's running mean, computed as it does (same rounding, so the same scores).
    const averageFieldLength: number[] = new Array<number>(nf).fill(0);
    for (let di = 0; di < docs.length; di++) {
      const doc = docs[di]!;
      documentIds[di] = doc.i;
      const lengths = new Array<number>(nf);
      fieldLength[di] = lengths;
      for (let f = 0; f < nf; f++) {
        const tokens = doc[FIELD_KEYS[f]!];
        // MiniSearch's field length: distinct tokens, the empty one of an empty field included.
        if (tokens === EMPTY_FIELD) {
          totalLength[f]! += 1;
          lengths[f] = 1;
          averageFieldLength[f] = (averageFieldLength[f]! * di + 1) / (di + 1);
          continue;
        }
        const key = di * nf + f;
        fieldIds.length = 0;
        for (const t of tokens) {
          let id = ids.get(t);
          if (id === undefined) {
            id = terms.length;
            if (id === capacity) grow();
            ids.set(t, id);
            terms.push(t);
            const row = id * 3 * nf;
            stats.fill(Infinity, row + 2 * nf, row + 3 * nf);
          }
          if (stamp[id] !== key) {
            stamp[id] = key;
            tf[id] = 0;
            fieldIds.push(id);
          }
          tf[id]!++;
        }
        const length = fieldIds.length;
        totalLength[f]! += length;
        lengths[f] = length;
        averageFieldLength[f] = (averageFieldLength[f]! * di + length) / (di + 1);
        for (const id of fieldIds) {
          // The empty token counts towards the length; MiniSearch indexes nothing for it.
          if (terms[id] !== '') ((postings[id] ??= {})[f] ??= {})[di] = tf[id]!;
          const row = id * 3 * nf;
          stats[row + f]!++;
          if (tf[id]! > stats[row + nf + f]!) stats[row + nf + f] = tf[id]!;
          if (length < stats[row + 2 * nf + f]!) stats[row + 2 * nf + f] = length;
          if (lastDoc[id] !== di) {
            lastDoc[id] = di;
            df[id]!++;
          }
        }
      }
    }
    const n = docs.length;
    const { k, b, d } = BM25;
    for (let id = 0; id < terms.length; id++) {
      const row = id * 3 * nf;
      let best = 0;
      for (let f = 0; f < nf; f++) {
        const matching = stats[row + f]!;
        if (matching === 0) continue;
        const tf = stats[row + nf + f]!;
        const relative = stats[row + 2 * nf + f]! / (totalLength[f]! / n);
        const idf = Math.log(1 + (n - matching + 0.5) / (matching + 0.5));
        best += FIELDS[FIELD_KEYS[f]!] * idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + b * relative)));
      }
      this.#df.set(terms[id]!, df[id]!);
      this.#best.set(terms[id]!, best);
    }
    const index: MiniIndexData['index'] = [];
    for (let id = 0; id < terms.length; id++) {
      const data = postings[id];
      if (data) index.push([terms[id]!, data]);
    }
    const fieldIdsByName: Record<string, number> = {};
    FIELD_KEYS.forEach((key, f) => (fieldIdsByName[key] = f));
    return {
      documentCount: n,
      nextId: n,
      documentIds,
      fieldIds: fieldIdsByName,
      fieldLength,
      averageFieldLength,
      storedFields: {},
      dirtCount: 0,
      index,
      serializationVersion: 2,
    };
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
    let boostDocument: ((id: number, term: string) => number) | undefined = options.all ? undefined : (id: number) => {
      const entry = entries[id];
      return entry !== undefined && accept(entry) ? 1 : 0;
    };
    // Even the rarest word is everywhere ("create a namespace" in a catalogue of many Kubernetes
    // copies): score only the documents that name the query's words in their resource or summary.
    // With a filter, only accepted documents are scored already; narrowing further would cost answers.
    const rarest = this.#df.get(searched[0]!) ?? 0;
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
        boostTerm: scale ? (term) => (weights.get(term) ?? 1) * scale(term) : (term) => weights.get(term) ?? 1,
        prefix: (term) => prefix && term.length >= PREFIX_MIN,
        fuzzy: fuzzy ? (term) => (term.length >= 5 ? 0.2 : false) : false,
        weights: { prefix: 0.3, fuzzy: 0.2 },
      });
    let results = run(false);
    if (results.length === 0 && options.fuzzy !== false) results = run(true);
    const totalWeight = parsed.terms.reduce((sum, t) => sum + (weights.get(t) ?? 1), 0);
    const pool = results.length > RERANK_POOL ? results.slice(0, RERANK_POOL) : results;
    const ranked: Ranked[] = [];
    // Results come best text score first, and a final score is at most sqrt(text x what the
    // left-out terms can add) x the largest factor: past the floor, no later result can reach it.
    let ceiling = 0;
    let floor = -1;
    if (options.floor !== undefined) {
      let lateGain = 1;
      for (const t of late) lateGain *= 1 + 0.5 * (weights.get(t) ?? 1);
      ceiling = lateGain * factorBound(parsed) ** 2;
      floor = options.floor ** 2;
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
          covered += 0.9 * w;
          score *= 1 + 0.5 * w;
        }
      }
      const factor = this.#factor(entry, parsed, covered / totalWeight);
      // The square root of the text score: BM25 sums a word over every field that repeats it (path,
      // operationId, summary), which outweighed what the endpoint is; the API conventions weigh more.
      ranked.push({ entry, score: Math.sqrt(score) * factor });
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
    // When every word is common, the rarest gates the others.
    const rare = searched.filter((t, i) => i === 0 || (this.#df.get(t) ?? 0) <= threshold);
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
      scored.push({ doc, f: this.#factor(entry, parsed, 1), order: options.order ? options.order(entry) : doc });
    }
    scored.sort((a, b) => b.f - a.f || a.order - b.order);
    const out = new Set<number>();
    for (let i = 0; i < scored.length && i < SCORED_CANDIDATES; i++) out.add(scored[i]!.doc);
    return out;
  }

  /** Multiplier from what the query asks against what the endpoint is. */
  #factor(entry: Entry, q: ParsedQuery, coverage: number): number {
    const e = entry.endpoint;
    let f = coverage * coverage;
    if (q.method) f *= e.method === q.method ? 2 : 0.3;
    if (q.intent) {
      const fit = METHOD_FIT[q.intent][e.method] ?? METHOD_FIT_DEFAULT;
      const verb = verbAgreement(entry.verbs, q.intent);
      if (q.hinted) {
        // An implied intent ("send", "kick") is weaker evidence than a CRUD verb.
        f *= Math.sqrt(fit);
        if (verb > 0) f *= 1.25;
      } else {
        f *= fit;
        if (verb > 0) f *= 1.6;
        else if (verb < 0) f *= 0.7;
        // Neither the method nor the name says the endpoint does this (RPC-style APIs post everything).
        else if (fit < 1) f *= 0.6;
      }
    } else if (q.imperative) {
      // "buy a number", "mute a participant": an action we have no verb for, so probably not a read.
      if (e.method === 'GET') f *= 0.8;
    } else if (e.method !== 'GET') {
      // A query that names a thing and no action ("my playlists", "tax rates") wants to read it.
      f *= 0.85;
    }
    f *= this.#shape(entry, q);
    if (entry.resource.length > 0) {
      let hits = 0;
      for (const t of entry.resource) if (q.weights.has(t)) hits++;
      f *= 1 + 0.35 * (hits / entry.resource.length);
    }
    if (entry.pathWords.length > 0) {
      let hits = 0;
      for (const t of entry.pathWords) if (q.weights.has(t)) hits++;
      f *= 0.75 + 0.25 * (hits / entry.pathWords.length);
    }
    if (e.deprecated) f *= 0.6;
    f *= this.#summaryFit(entry, q);
    return f;
  }

  /**
   * An endpoint whose summary says what the query says, and little else ("Deletes a message." for
   * "delete a message"), is the one asked for; a summary that adds qualifiers ("Deletes a pending
   * scheduled message") names a narrower operation.
   */
  #summaryFit(entry: Entry, q: ParsedQuery): number {
    const summary = this.#summaries[entry.doc];
    if (!summary || q.said.size === 0) return 1;
    let shared = 0;
    for (const t of summary) if (q.said.has(t)) shared++;
    return 1 + SUMMARY_FIT * (shared / summary.length) * (shared / q.said.size);
  }

  /** Collections for "list ..." and plurals, items for "get/update/delete a ...". */
  #shape(entry: Entry, q: ParsedQuery): number {
    const wantsCollection = q.intent === 'list' || q.intent === 'create' || (q.plural && q.intent !== 'update');
    const wantsItem = !wantsCollection && (q.intent === 'get' || q.intent === 'update' || q.intent === 'delete');
    if (wantsCollection) return entry.item ? 0.7 : 1;
    if (wantsItem) return entry.item ? 1 : 0.75;
    return 1;
  }

  /** Endpoints whose path is the one the query names, exactly or as its tail (`/pulls`). */
  static pathMatches(queryPath: string, candidates: Iterable<Entry>): Entry[] {
    const want = normalizePath(queryPath);
    const exact: Entry[] = [];
    const tail: Entry[] = [];
    for (const entry of candidates) {
      const have = normalizePath(entry.endpoint.path);
      if (have === want) exact.push(entry);
      else if (have.endsWith(want)) tail.push(entry);
    }
    return [...exact, ...tail];
  }

  static lastSegmentKey(path: string): string {
    return lastSegment(normalizePath(path));
  }
}

export { INTENT_TERMS };
