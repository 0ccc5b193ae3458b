// Reading a query: its terms and their weights, what it asks to do (intent), whether it speaks of
// one thing or many, and any method or path it names. Rules here are about English and API
// language in general; each family can be switched off (`RULES`) to measure what it is worth.
import type { HttpMethod } from '../model/index.ts';
import { HTTP_METHODS, SvcError } from '../model/index.ts';
import { type Intent, PLURAL_HINTS, intentOfTerm, isPluralWord, splitWords, termsOf, verbHint } from './text.ts';
import { pathTerms } from './document.ts';
import { RULES } from './rules.ts';

/** A query, read: the terms to search, what it asks to do, and any method or path it names. */
export interface ParsedQuery {
  readonly terms: readonly string[];
  /** Weight per term (words that mostly say how, not what, weigh less). */
  readonly weights: ReadonlyMap<string, number>;
  /** What the query asks to do: its first CRUD verb, else a verb that implies one ("send"). */
  readonly intent?: Intent;
  /** The intent comes from an implying verb, not a CRUD verb: weaker evidence. */
  readonly hinted: boolean;
  readonly method?: HttpMethod;
  readonly paths: readonly string[];
  /** The query speaks of many things ("all", plural nouns): prefer collections. */
  readonly plural: boolean;
  /** Shaped like a command ("rent a number", "set up an alert"): it asks to act, even with a verb we do not know. */
  readonly imperative: boolean;
  /** Every term the query says, its verbs included: compared with what an endpoint's summary says. */
  readonly said: ReadonlySet<string>;
  /** The query's words as typed, lower case, joined by one space: what exact summaries are looked up by. */
  readonly exact: string;
  /** The CRUD verbs it said, which are read as intent and not searched (unless nothing else matches). */
  readonly verbTerms: readonly string[];
  /** The words of its prose, lower case, as split for the index (what a vocabulary expands). */
  readonly words: readonly string[];
  /**
   * Terms the query did not say but a vocabulary added as low-weight alternatives (see expand.ts),
   * each with the said term it stands for. They are searched and weighed like the others, never name an API.
   */
  readonly alternatives?: ReadonlyMap<string, string>;
}

/**
 * Bounds on a query's size. Past the limits a query is refused with a clear error; within them, only
 * the first `MAX_SEARCHED_TERMS` distinct terms are searched (each term is work on every index that
 * holds it), while a long query still finds the endpoint whose summary it is, word for word.
 */
export const MAX_QUERY_CHARS = 2000;
export const MAX_QUERY_WORDS = 300;
export const MAX_SEARCHED_TERMS = 32;

export class QueryTooLargeError extends SvcError {
  constructor(what: string) {
    super('search-query-too-large', `search query is too large: ${what}`, {
      hint: `use at most ${MAX_QUERY_WORDS} words and ${MAX_QUERY_CHARS} characters: a few keywords say what the endpoint does`,
    });
  }
}

const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'this', 'that', 'some', 'our', 'your', 'its', 'their', 'new']);
const PARTICLES = new Set(['up', 'out', 'down', 'on', 'off', 'in', 'back', 'over']);
const SELF_WORDS = new Set(['i', 'current', 'authenticated', 'logged']);
/** Weight of the `me` a self word adds. */
const SELF_ME_WEIGHT = 0.6;
/** Weight of a self word once it has been read as `me` (lowered, never dropped: it may be the only word that matches). */
const SELF_WORD_WEIGHT = 0.3;

/**
 * Verbs with a particle, read as one verb: the pair may imply another intent than the verb alone
 * ("set" changes a thing, "set up" creates one). Common English phrasal verbs of everyday tasks,
 * not words from any API.
 */
const PHRASAL_VERBS: ReadonlyMap<string, Intent> = new Map([
  ['set up', 'create'], ['sign up', 'create'], ['back up', 'create'],
  ['turn on', 'update'], ['turn off', 'update'], ['switch on', 'update'], ['switch off', 'update'],
  ['roll back', 'update'], ['hang up', 'update'], ['shut down', 'update'],
  ['clean up', 'delete'], ['take down', 'delete'],
  ['look up', 'get'], ['find out', 'get'], ['check on', 'get'],
]);

/** Weight of a term from a verb that implies an intent ("send"): it may name the endpoint, but mostly says what to do. */
const HINT_TERM_WEIGHT = 0.6;

/** The words of a text as exact look-ups compare them: lower case, split like index text, one space between. */
export function exactKey(text: string): string {
  return splitWords(text).join(' ');
}

export function parseQuery(query: string): ParsedQuery {
  if (query.length > MAX_QUERY_CHARS) throw new QueryTooLargeError(`${query.length} characters`);
  const tokens = query.trim().split(/\s+/).filter(Boolean);
  if (tokens.length > MAX_QUERY_WORDS) throw new QueryTooLargeError(`${tokens.length} words`);
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
  const self = RULES.selfWords && words.some((w) => SELF_WORDS.has(w)) && !words.includes('me') && !words.includes('my');
  if (self) {
    searchTerms.push('me');
    weights.set('me', SELF_ME_WEIGHT);
  }
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (PLURAL_HINTS.has(word) || isPluralWord(word)) plural = true;
    for (const t of termsOf(word)) {
      const crud = intentOfTerm(t);
      if (crud) {
        intent ??= crud;
        verbTerms.push(t);
        continue;
      }
      // "set up an alert": a verb and its particle may mean another thing than the verb alone.
      const next = words[i + 1];
      const implied = (RULES.verbHints && next !== undefined ? PHRASAL_VERBS.get(`${word} ${next}`) : undefined) ?? verbHint(t);
      if (implied) hint ??= implied;
      searchTerms.push(t);
      // A word that was read as the caller ("current", "authenticated") has said most of what it had to say.
      const w = implied ? HINT_TERM_WEIGHT : self && SELF_WORDS.has(word) ? SELF_WORD_WEIGHT : 1;
      // A word said twice keeps its larger weight.
      if ((weights.get(t) ?? 0) < w) weights.set(t, w);
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
  const terms = [...new Set(searchTerms)].slice(0, MAX_SEARCHED_TERMS);
  const chosen = intent ?? hint;
  const lower = prose.map((t) => t.toLowerCase());
  // A plural noun first ("channels in a guild") names things; a command starts with a verb.
  const imperative =
    RULES.imperative &&
    lower.length >= 2 &&
    !isPluralWord(lower[0]!) &&
    (DETERMINERS.has(lower[1]!) || (PARTICLES.has(lower[1]!) && lower.length >= 3 && DETERMINERS.has(lower[2]!)));
  // Every query has every property, in one order (`undefined` where it has no intent, method or
  // alternatives): one object shape for all queries, so that the code reading them, optimized for
  // the first queries, is not thrown back to the interpreter by the first query of another shape.
  return {
    imperative,
    said: new Set([...terms, ...verbTerms]),
    terms,
    weights,
    intent: chosen || undefined,
    hinted: intent === undefined && hint !== undefined,
    method: method || undefined,
    paths,
    plural,
    exact: exactKey(query),
    verbTerms: [...new Set(verbTerms)].filter((t) => !terms.includes(t)),
    words,
    alternatives: undefined,
  };
}

/** The query without some of its terms (words that named the API), unless they are all it says. */
export function withoutTerms(q: ParsedQuery, drop: ReadonlySet<string>): ParsedQuery {
  // An alternative goes with the term it stands for.
  const alternatives = q.alternatives;
  const gone = (t: string) => drop.has(t) || (alternatives !== undefined && drop.has(alternatives.get(t) ?? ''));
  const terms = q.terms.filter((t) => !gone(t));
  if (terms.length === q.terms.length || terms.every((t) => alternatives?.has(t))) return q;
  const weights = new Map(q.weights);
  const said = new Set(q.said);
  for (const t of q.terms) {
    if (!gone(t)) continue;
    weights.delete(t);
    said.delete(t);
  }
  return { ...q, terms, weights, said };
}

/**
 * The query with the terms of `lower` weighing `factor` times as much, and no longer among what it
 * says (`said`): words that named the API searched say little about which of its endpoints is meant,
 * but may be the only words that match, so they stay.
 */
export function withTermsLowered(q: ParsedQuery, lower: ReadonlySet<string>, factor: number): ParsedQuery {
  const alternatives = q.alternatives;
  const hit = (t: string) => lower.has(t) || (alternatives !== undefined && lower.has(alternatives.get(t) ?? ''));
  if (!q.terms.some(hit)) return q;
  const weights = new Map(q.weights);
  const said = new Set(q.said);
  for (const t of q.terms) {
    if (!hit(t)) continue;
    weights.set(t, (q.weights.get(t) ?? 1) * factor);
    said.delete(t);
  }
  return { ...q, weights, said };
}

/**
 * The query with its verbs searched too: when none of its other words matches ("info list"), the
 * verbs are what it has left to find something by.
 */
export function withVerbsSearched(q: ParsedQuery): ParsedQuery | undefined {
  if (q.verbTerms.length === 0) return undefined;
  const weights = new Map(q.weights);
  for (const t of q.verbTerms) weights.set(t, 1);
  return { ...q, terms: [...q.terms, ...q.verbTerms], weights, verbTerms: [] };
}
