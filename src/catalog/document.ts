// What the index knows of one endpoint: its entry (path shape, resource, verbs its own words spell)
// and its index document (each field as index terms). Built once per spec; shared by the index
// build and the ranking.
import type { Endpoint } from '../model/index.ts';
import {
  INTENT_TERMS,
  type Intent,
  firstSentenceOfPlain,
  intentOfTerm,
  plainText,
  splitWords,
  termsOf,
  textTerms,
  verbHint,
} from './text.ts';
import type { Field } from './weights.ts';

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

/** An index document: each field as its index terms, in order (tokenized once, fed to MiniSearch as is). */
export type Doc = { readonly i: number } & Readonly<Record<Field, readonly string[]>>;
/**
 * An empty field as MiniSearch saw it when fields were strings: one empty token, which counts one
 * towards the field's length and indexes nothing. Kept so BM25 field lengths, and so scores, stay the same.
 */
export const EMPTY_FIELD: readonly string[] = Object.freeze(['']);

/** How much of a long description is worth indexing (beyond it, prose rarely names the endpoint). */
const DESCRIPTION_CHARS = 600;

const NOISE_PATH_WORD = /^(v\d+[a-z]*\d*|\d+|json|xml|api)$/;

/**
 * The segments of a path. A query string or fragment (`/files/{id}#add_shared_link`,
 * `/{container}?restype=container&comp=list`, `/{Bucket}#cors`) is how a spec writes several
 * operations on one path: its parts name the variant, so they count as literal segments after the
 * path's own. Of a `key=value` part only the value does (the key is a parameter's name), and a part
 * that names an identifier (`uploadId`, `id`) is a placeholder in all but form, so it is left out.
 */
function pathSegments(path: string): string[] {
  const cut = path.search(/[?#]/);
  const segs = (cut < 0 ? path : path.slice(0, cut)).split('/').filter((s) => s.length > 0);
  if (cut < 0) return segs;
  for (const part of path.slice(cut + 1).split(/[?#&]/)) {
    const eq = part.indexOf('=');
    // Stryker disable next-line ConditionalExpression,EqualityOperator: without an `=` (eq -1) the slice from eq + 1 is the whole part, and a part starting with `=` gives the same words either way
    const value = eq >= 0 ? part.slice(eq + 1) : part;
    if (value.length > 0 && !IDENTIFIER_PART.test(value)) segs.push(value);
  }
  return segs;
}

/** `id`, `uploadId`, `file_id`: a qualifier that names an identifier. */
const IDENTIFIER_PART = /(^|[^a-zA-Z])id$|[a-z]Id$/;

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

/** The last segment of a normalized path (`pulls`, `{}`). */
export function lastSegment(normalized: string): string {
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
      for (const t of termsOf(w)) {
        const intent = intentOfTerm(t) ?? verbHint(t);
        if (intent) out.add(intent);
      }
    }
  };
  // Stryker disable next-line StringLiteral: without an operationId any text without a verb does, and the one a mutant puts there has none
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
  // Stryker disable next-line ConditionalExpression: speed only (the facts are worked out again, the same)
  if (facts) return facts;
  const segs = pathSegments(path);
  // Stryker disable next-line StringLiteral: a path of no segments is no item either way (neither text is a placeholder or a self word)
  const last = segs[segs.length - 1] ?? '';
  const item = last.includes('{') || last.startsWith(':') || SELF_SEGMENT.test(last);
  let resource: string[] = [];
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i]!;
    // A placeholder segment names no resource. (`{name}` and `:name` give pathTerms no words; this
    // also skips one with a placeholder inside, `report-{date}`.)
    if (seg.includes('{')) continue;
    resource = pathTerms(seg).filter((t) => !INTENT_TERMS.has(t));
    if (resource.length > 0) break;
  }
  const pathWords = new Set<string>();
  for (const seg of segs) {
    if (seg.includes('{')) continue;
    for (const t of pathTerms(seg)) if (!INTENT_TERMS.has(t)) pathWords.add(t);
  }
  facts = { item, resource, pathWords: [...pathWords], words: splitWords(path), terms: pathTerms(path) };
  // Stryker disable next-line OptionalChaining,CallExpression: speed only (the facts are worked out again, the same)
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
  // Stryker disable next-line ConditionalExpression: speed only (the terms are worked out again, the same)
  if (terms === undefined) {
    terms = orEmpty(textTerms(text));
    // Stryker disable next-line OptionalChaining,CallExpression: speed only (the terms are worked out again, the same)
    cache?.set(text, terms);
  }
  return terms;
}

/**
 * A query parameter more than this share of a spec's endpoints take (`alt`, `key`, `pretty` on every
 * endpoint of a generated API) says nothing about any one of them, so it is not indexed as a word
 * of theirs (specs of at least `COMMON_PARAMETERS.minEndpoints` endpoints).
 * Test APIs, whole catalogue (hit@1 / hit@5 / MRR): 0.720 / 0.864 / 0.777 with every parameter,
 * 0.724 / 0.864 / 0.780 without the common ones; 0.5 instead of 0.3 gained less.
 */
const COMMON_PARAMETERS = { share: 0.3, minEndpoints: 8 } as const;

/** Names of the query parameters most of `entries` take (see `COMMON_PARAMETERS`). */
export function commonParameters(entries: readonly Entry[]): ReadonlySet<string> {
  const out = new Set<string>();
  if (entries.length < COMMON_PARAMETERS.minEndpoints) return out;
  const counts = new Map<string, number>();
  for (const entry of entries) for (const p of entry.endpoint.parameters) if (p.in === 'query') counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  for (const [name, n] of counts) if (n > entries.length * COMMON_PARAMETERS.share) out.add(name);
  return out;
}

/** The index documents of one spec's entries, in order. */
export function documentsOf(entries: readonly Entry[], paths: PathCache = new Map()): Doc[] {
  const texts: TextCache = new Map();
  const common = commonParameters(entries);
  return entries.map((entry) => documentOf(entry, paths, texts, common));
}

/** `common`: query parameters of most of the spec's endpoints, left out of the parameter field. */
export function documentOf(entry: Entry, paths?: PathCache, texts?: TextCache, common?: ReadonlySet<string>): Doc {
  const e = entry.endpoint;
  // Only the start of a long description is indexed, so only the start is cleaned.
  // (Trimmed before the first sentence is cut off: the rest starts where that sentence ends.)
  const description = e.description ? plainText(e.description.slice(0, DESCRIPTION_CHARS * 3)).trim() : '';
  const head = description ? firstSentenceOfPlain(description) : '';
  // Joined before splitting: one non-ASCII name sends the whole field through the Unicode splitter, as it always did.
  let params = '';
  for (const p of e.parameters) if (p.in === 'path' || (p.in === 'query' && !common?.has(p.name))) params += ` ${p.name}`;
  return {
    i: entry.doc,
    // Without a summary, the description's first sentence is the summary ("Deletes a message."), and
    // without either, the operation's own name (`listSiteFiles`): it is what the API calls it.
    s: orEmpty(textTerms(e.summary || head || e.operationId)),
    p: orEmpty(paths ? pathFacts(e.path, paths).terms : pathTerms(e.path)),
    o: orEmpty(textTerms(e.operationId)),
    // Stryker disable next-line ConditionalExpression: no tags give the empty field either way, and one tag joined is that tag
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
  // Stryker disable next-line ConditionalExpression: speed only (no text has no terms: the empty field either way)
  if (!text) return EMPTY_FIELD;
  const seen = new Set<string>();
  for (const w of splitWords(text)) for (const t of termsOf(w)) seen.add(t);
  return seen.size > 0 ? [...seen] : EMPTY_FIELD;
}


