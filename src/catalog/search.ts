// The catalogue's search: one shared MiniSearch index over every endpoint, then a re-ranking pass
// that knows API conventions (verbs -> methods, collections vs items, deprecation, named paths).
import MiniSearch, { type SearchResult } from 'minisearch';
import type { Endpoint, HttpMethod } from '../model/index.ts';
import { HTTP_METHODS } from '../model/index.ts';
import {
  INTENT_TERMS,
  type Intent,
  PLURAL_HINTS,
  VERB_HINTS,
  firstSentence,
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
  /** MiniSearch document id (a number: cheaper than the string id, and never reused). */
  readonly doc: number;
  /** The path ends in a placeholder (`/pods/{name}`): it names one thing, not a collection. */
  readonly item: boolean;
  /** Terms of the last literal path segment: the resource the endpoint acts on (`payment intent`). */
  readonly resource: readonly string[];
  /** Intents the operationId or path words spell out (`listPods`, `/chat.delete`). */
  readonly verbs: readonly Intent[];
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
type Doc = { readonly i: number } & Readonly<Record<Field, string>>;

/** How much of a long description is worth indexing (beyond it, prose rarely names the endpoint). */
const DESCRIPTION_CHARS = 600;
/** How many text matches the re-ranking looks at. */
const RERANK_POOL = 120;

const NOISE_PATH_WORD = /^(v\d+[a-z]*\d*|\d+|json|xml|api)$/;

function pathSegments(path: string): string[] {
  return path.split(/[/?&=]/).filter((s) => s.length > 0);
}

/** Words of a path: literal segments and placeholder names, minus version and format noise. */
export function pathTerms(path: string): string[] {
  const out: string[] = [];
  for (const seg of pathSegments(path)) {
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

function endpointVerbs(endpoint: Endpoint): Intent[] {
  const words = [...splitWords(endpoint.operationId ?? ''), ...splitWords(endpoint.path)];
  const out = new Set<Intent>();
  for (const w of words) {
    if (w === 'info') out.add('get');
    for (const t of termsOf(w)) {
      const intent = intentOfTerm(t) ?? VERB_HINTS.get(t);
      if (intent) out.add(intent);
    }
  }
  return [...out];
}

const NO_VERBS: readonly Intent[] = [];

export function makeEntry(endpoint: Endpoint, doc: number): Entry {
  const segs = pathSegments(endpoint.path);
  const last = segs[segs.length - 1] ?? '';
  const item = last.includes('{') || last.startsWith(':');
  let resource: string[] = [];
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i]!;
    if (seg.includes('{') || seg.startsWith(':')) continue;
    resource = pathTerms(seg);
    if (resource.length > 0) break;
  }
  const verbs = endpointVerbs(endpoint);
  return { endpoint, doc, item, resource, verbs: verbs.length ? verbs : NO_VERBS };
}

function documentOf(entry: Entry): Doc {
  const e = entry.endpoint;
  const description = e.description ? plainText(e.description) : '';
  const head = e.description ? firstSentence(e.description) : '';
  const params: string[] = [];
  for (const p of e.parameters) if (p.in === 'path' || p.in === 'query') params.push(p.name);
  return {
    i: entry.doc,
    s: textTerms(e.summary).join(' '),
    p: pathTerms(e.path).join(' '),
    o: textTerms(e.operationId).join(' '),
    t: textTerms(e.tags.join(' ')).join(' '),
    d: textTerms(head).join(' '),
    a: textTerms(params.join(' ')).join(' '),
    e: textTerms(description.slice(head.length, head.length + DESCRIPTION_CHARS)).join(' '),
  };
}

/** A query, read: the terms to search, what it asks to do, and any method or path it names. */
export interface ParsedQuery {
  readonly terms: readonly string[];
  /** Weight per term (intent words that also name things weigh less). */
  readonly weights: ReadonlyMap<string, number>;
  readonly intents: ReadonlySet<Intent>;
  readonly method?: HttpMethod;
  readonly paths: readonly string[];
  /** The query speaks of many things ("all", plural nouns): prefer collections. */
  readonly plural: boolean;
}

const LOW_WEIGHT_TERMS = new Map<string, number>([
  ['all', 0.3],
  ['me', 0.4],
  ['my', 0.4],
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
  const intents = new Set<Intent>();
  const searchTerms: string[] = [];
  const verbTerms: string[] = [];
  const weights = new Map<string, number>();
  let plural = false;
  for (const word of splitWords(prose.join(' '))) {
    if (PLURAL_HINTS.has(word)) plural = true;
    if (isPluralWord(word)) plural = true;
    const terms = termsOf(word);
    for (const t of terms) {
      const intent = intentOfTerm(t);
      if (intent) {
        intents.add(intent);
        verbTerms.push(t);
        continue;
      }
      const hint = VERB_HINTS.get(t);
      if (hint) intents.add(hint);
      searchTerms.push(t);
      weights.set(t, hint ? 0.6 : (LOW_WEIGHT_TERMS.get(word) ?? LOW_WEIGHT_TERMS.get(t) ?? 1));
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
  return { terms, weights, intents, ...(method ? { method } : {}), paths, plural };
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

export interface RankOptions {
  readonly limit: number;
  readonly accept: (entry: Entry) => boolean;
}

export interface Ranked {
  readonly entry: Entry;
  readonly score: number;
}

/** The shared full-text index, plus the ranking that reads it. */
export class SearchIndex {
  readonly #mini: MiniSearch<Doc>;
  readonly #entries = new Map<number, Entry>();

  constructor() {
    this.#mini = new MiniSearch<Doc>({
      idField: 'i',
      fields: Object.keys(FIELDS),
      storeFields: [],
      // Documents and queries arrive as normalized terms joined by spaces.
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term || null,
      searchOptions: { boost: { ...FIELDS }, bm25: { k: 1.2, b: 0.6, d: 0.5 } },
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  add(entries: readonly Entry[]): void {
    const docs: Doc[] = new Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      this.#entries.set(entry.doc, entry);
      docs[i] = documentOf(entry);
    }
    this.#mini.addAll(docs);
  }

  /** Forget documents by id; MiniSearch cleans its tree up later (vacuuming). */
  discard(entries: readonly Entry[]): void {
    for (const entry of entries) {
      this.#mini.discard(entry.doc);
      this.#entries.delete(entry.doc);
    }
  }

  /** Text matches for `parsed`, best first, re-ranked with API conventions. */
  rank(parsed: ParsedQuery, options: RankOptions): Ranked[] {
    if (parsed.terms.length === 0) return [];
    const weights = parsed.weights;
    const filter = (r: SearchResult) => {
      const entry = this.#entries.get(r.id as number);
      return entry !== undefined && options.accept(entry);
    };
    const run = (fuzzy: boolean) =>
      this.#mini.search(parsed.terms.join(' '), {
        filter,
        boostTerm: (term) => weights.get(term) ?? 1,
        prefix: (term) => term.length >= 5,
        fuzzy: fuzzy ? (term) => (term.length >= 5 ? 0.2 : false) : false,
        weights: { prefix: 0.3, fuzzy: 0.2 },
      });
    let results = run(false);
    if (results.length === 0) results = run(true);
    const totalWeight = parsed.terms.reduce((sum, t) => sum + (weights.get(t) ?? 1), 0);
    const pool = results.length > RERANK_POOL ? results.slice(0, RERANK_POOL) : results;
    const ranked: Ranked[] = [];
    for (const r of pool) {
      const entry = this.#entries.get(r.id as number)!;
      let matched = 0;
      for (const t of r.queryTerms) matched += weights.get(t) ?? 1;
      ranked.push({ entry, score: r.score * this.#factor(entry, parsed, matched / totalWeight) });
    }
    ranked.sort((a, b) => b.score - a.score);
    return ranked;
  }

  /** Multiplier from what the query asks against what the endpoint is. */
  #factor(entry: Entry, q: ParsedQuery, coverage: number): number {
    const e = entry.endpoint;
    let f = coverage * coverage;
    if (q.method) f *= e.method === q.method ? 2 : 0.3;
    let methodFit = 1;
    let verbMatch = false;
    for (const intent of q.intents) {
      methodFit = Math.min(methodFit, METHOD_FIT[intent][e.method] ?? METHOD_FIT_DEFAULT);
      if (entry.verbs.includes(intent)) verbMatch = true;
    }
    if (q.intents.size > 0) {
      f *= methodFit;
      if (verbMatch) f *= 1.3;
    }
    f *= this.#shape(entry, q);
    if (entry.resource.length > 0) {
      let hits = 0;
      for (const t of entry.resource) if (q.weights.has(t)) hits++;
      f *= 1 + 0.35 * (hits / entry.resource.length);
    }
    if (e.deprecated) f *= 0.6;
    return f;
  }

  /** Collections for "list ..." and plurals, items for "get/update/delete a ...". */
  #shape(entry: Entry, q: ParsedQuery): number {
    const wantsCollection = q.intents.has('list') || q.intents.has('create') || (q.plural && !q.intents.has('update'));
    const wantsItem =
      !wantsCollection && (q.intents.has('get') || q.intents.has('update') || q.intents.has('delete'));
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
