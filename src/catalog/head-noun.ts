// The thing a query asks about: the head of its object noun phrase ("list the MEMBERS of a team",
// "delete a team's MEMBER", "get a WIDGET by its labels"), read with general English grammar
// (verbs lead, stop words end a phrase, a compound's last noun is its head), never with words of
// any API. Whether it is one thing or many tells the ranking an item from a collection.
import type { ParsedQuery } from './query.ts';
import { PLURAL_HINTS, intentOfTerm, isPluralWord, termsOf, verbHint } from './text.ts';

export interface HeadNoun {
  /** The head's index term (its last, for a word that stands for several). */
  readonly term: string;
  /** The head is a plural noun, or the query says "all", "every" ...: many things. */
  readonly plural: boolean;
}
/** Particles of phrasal verbs ("hang up a call"). */
const PARTICLES = new Set(['up', 'out', 'down', 'on', 'off', 'in', 'back', 'over']);

const heads = new WeakMap<ParsedQuery, HeadNoun | null>();
/** The last query asked about: the ranking asks once per candidate, so this spares the map look-up. */
let lastQuery: ParsedQuery | undefined;
let lastHead: HeadNoun | undefined;

/** The query's head noun, or undefined when its prose has none (a path, a lone verb). */
export function headNoun(q: ParsedQuery): HeadNoun | undefined {
  if (q === lastQuery) return lastHead;
  let head = heads.get(q);
  if (head === undefined) heads.set(q, (head = findHead(q.words, q.imperative) ?? null));
  lastQuery = q;
  lastHead = head ?? undefined;
  return lastHead;
}

function isVerb(word: string): boolean {
  const terms = termsOf(word);
  return terms.length === 1 && (intentOfTerm(terms[0]!) !== undefined || verbHint(terms[0]!) !== undefined);
}

function findHead(words: readonly string[], imperative: boolean): HeadNoun | undefined {
  let i = 0;
  // The verb and its particle lead a command: "verify a caller id", "hang up a call".
  if (words.length > 1 && (imperative || isVerb(words[0]!))) {
    i = 1;
    if (PARTICLES.has(words[1]!) && words.length > 2) i = 2;
  }
  // Determiners, quantifiers and further verbs before the phrase ("a new channel", "all pods",
  // "the list of members").
  while (i < words.length && (termsOf(words[i]!).length === 0 || isVerb(words[i]!) || PLURAL_HINTS.has(words[i]!))) i++;
  let last = -1;
  // The phrase runs to the first stop word; a possessive "s" ("a team's member") joins its two halves.
  while (i < words.length && (termsOf(words[i]!).length > 0 || words[i] === 's')) {
    if (words[i] !== 's') last = i;
    i++;
  }
  if (last < 0) return undefined;
  const word = words[last]!;
  const terms = termsOf(word);
  const plural = isPluralWord(word) || words.some((w) => PLURAL_HINTS.has(w));
  return { term: terms[terms.length - 1]!, plural };
}
