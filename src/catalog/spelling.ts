// A query's misspelt words, written as the catalogue writes them. A word no endpoint says, within a
// typo's reach of a word the catalogue holds ("subscriptoin", "paymnet"), is read as that word: the
// whole query is read again with it, so that it counts as said everywhere the ranking looks (its
// resource, its verb, the summary it fits), not only as a low-weight match.
import type { Loaded } from './loaded.ts';
import type { ParsedQuery } from './query.ts';
import type { SpecState } from './spec-state.ts';
import type { TermHolders } from './term-holders.ts';
import { fuzzyDistance } from './term-plan.ts';
import { editDistance } from './similar.ts';
import { termsOf } from './text.ts';

/** What spelling asks of the catalogue's vocabulary. */
export interface SpellingVocabulary {
  /** Whether the catalogue knows `word` (its one term `term`): an endpoint says it, or it names an API. */
  known(word: string, term: string): boolean;
  /** Whether `word` is English: a word, not a typo, however near a term of the catalogue ("forum" / "form"). */
  english(word: string): boolean;
  /** The catalogue's terms closest to `term` within `distance` edits, commonest first. */
  closest(term: string, distance: number): readonly string[];
  /** Whether one API holds every one of `terms` (one term: whether any API holds it). */
  together(terms: readonly string[]): boolean;
}

/** What spelling asks of a catalogue: its word statistics (`terms`), the names of its APIs (`loaded`), and English. */
export function catalogSpelling(terms: TermHolders, loaded: Loaded, english: { has(word: string): boolean }): SpellingVocabulary {
  return {
    // A word naming an API is known even when no endpoint says it ("discord" is no typo of "discard").
    known: (word, term) => terms.df(term) > 0 || loaded.nameHolders.has(term) || loaded.fullNames.hasWord(word),
    english: (word) => english.has(word),
    together: (list) => {
      let common: Set<SpecState> | undefined;
      for (const t of list) {
        const states = terms.holders(t)?.states ?? [];
        common = common ? new Set(states.filter((s) => common!.has(s))) : new Set(states);
        if (common.size === 0) return false;
      }
      return true;
    },
    // The catalogue's terms and the names of its APIs ("stirpe" -> stripe), the closest of both; terms first.
    closest: (term, distance) => {
      const near = [...terms.closest(term, distance), ...loaded.namesNear(term, distance)];
      const edits = near.map((t) => editDistance(term, t, distance, true));
      const least = Math.min(...edits);
      return [...new Set(near.filter((_, i) => edits[i] === least))];
    },
  };
}

/**
 * Endings that British and American English spell apart, each way: a word no endpoint says is read
 * with the other ending when the catalogue says that one.
 */
export const SPELLINGS: readonly (readonly [string, string])[] = [
  ['isation', 'ization'], ['isations', 'izations'], ['ise', 'ize'], ['ised', 'ized'], ['ises', 'izes'], ['ising', 'izing'],
  ['yse', 'yze'], ['ysed', 'yzed'], ['yses', 'yzes'], ['ysing', 'yzing'],
  ['our', 'or'], ['ours', 'ors'], ['ourite', 'orite'], ['ourites', 'orites'],
  ['tre', 'ter'], ['tres', 'ters'], ['lled', 'led'], ['lling', 'ling'], ['ller', 'ler'], ['llers', 'lers'],
  ['ogue', 'og'], ['ogues', 'ogs'], ['ence', 'ense'], ['ences', 'enses'],
];

/** `word` spelt the other way (British or American) as the catalogue says it, or undefined. */
function otherSpelling(word: string, vocabulary: SpellingVocabulary): string | undefined {
  for (const [a, b] of SPELLINGS) {
    for (const [from, to] of [[a, b], [b, a]] as const) {
      if (word.length <= from.length + 2 || !word.endsWith(from)) continue;
      const other = word.slice(0, -from.length) + to;
      const terms = termsOf(other);
      // Stryker disable next-line ConditionalExpression: the other spelling of one word is one word
      if (terms.length === 1 && vocabulary.known(other, terms[0]!)) return other;
    }
  }
  return undefined;
}

/** Endings a term may need to read as a word again (`repositori` -> repository, `receiv` -> receive, `alert` -> alerts). */
const ENDINGS = ['', 'e', 's', 'es', 'ed', 'ing'];

/**
 * A word the term `term` is the index term of, written as close to the typed `word` as can be: the
 * term with a common ending (a final `i` as `y`), the one fewest edits from what was typed. The
 * query is read again from words, and the answer shows them: `repositori` would say neither.
 */
function surfaceWord(term: string, word: string): string | undefined {
  // A final y and i stand for each other in terms (`movi` / movies, `zzroy` / zzroies).
  // (Stems for any other term only add candidates that do not read back as it: left out for speed.)
  // Stryker disable next-line Regex,ConditionalExpression,StringLiteral: see above
  const base = /[iy]$/.test(term) ? term.slice(0, -1) : undefined;
  // Stryker disable next-line ConditionalExpression,StringLiteral: see above
  const stems = base === undefined ? [term] : [...new Set([term, `${base}y`, `${base}ie`, `${base}i`])];
  let best: string | undefined;
  let bestEdits = Infinity;
  for (const stem of stems) {
    for (const ending of ENDINGS) {
      const candidate = stem + ending;
      const terms = termsOf(candidate);
      // Stryker disable next-line ConditionalExpression: a candidate of letters is one word (its first term is compared)
      if (terms.length !== 1 || terms[0] !== term) continue;
      const edits = editDistance(word, candidate, Infinity, true);
      if (edits < bestEdits) {
        best = candidate;
        bestEdits = edits;
      }
    }
  }
  return best;
}

/** Terms this long are read only for two letters swapped (shorter ones not at all). */
const SWAPPED_ONLY = 4;

/** Whether two words hold the same letters (then, one edit apart, they differ by a swap). */
function sameLetters(a: string, b: string): boolean {
  return [...a].sort().join('') === [...b].sort().join('');
}

/** Words looked at per query, at most (each is a scan of the vocabulary's terms of about its length). */
const MAX_WORDS_CORRECTED = 8;

/**
 * `query` with each misspelt word replaced by the catalogue's closest term, or undefined when no word
 * is misspelt. A word is misspelt when its one term is in no endpoint, it is long enough for a typo
 * to be told from another word (`fuzzyDistance`; a term of four letters only for two letters swapped),
 * and a term of the catalogue is within that many edits, starting with the same letter or held by one
 * API together with the query's other words. The commonest of the closest wins, written as the word
 * of that term fewest edits from what was typed (`surfaceWord`).
 */
export function correctSpelling(query: string, parsed: ParsedQuery, vocabulary: SpellingVocabulary): string | undefined {
  const fixes = new Map<string, string>();
  let looked = 0;
  for (const word of parsed.words) {
    if (looked >= MAX_WORDS_CORRECTED) break;
    // Stryker disable next-line ConditionalExpression: speed only (a repeated word gets the same reading again)
    if (fixes.has(word)) continue;
    const own = termsOf(word);
    if (own.length !== 1) continue;
    const term = own[0]!;
    // A word of four letters is too short for any typo to be told from another word ("pods" / "pads"),
    // but two of its letters swapped ("uesr", "lsit") make no other word of the same letters.
    const swapOnly = term.length === SWAPPED_ONLY;
    const distance = swapOnly ? 1 : fuzzyDistance(term);
    // (With no edit allowed there is no nearer term: `closest` finds none, so the first test is for speed.)
    // Stryker disable next-line ConditionalExpression: speed only, as above
    if (distance === 0 || vocabulary.known(word, term)) continue;
    looked++;
    // British and American spellings of one word ("authorise", "colour", "cancelled", "catalogue"):
    // the other one, when the catalogue says it.
    const other = otherSpelling(word, vocabulary);
    if (other !== undefined) {
      fixes.set(word, other);
      continue;
    }
    if (vocabulary.english(word)) continue;
    const near = vocabulary.closest(term, distance).filter((t) => !swapOnly || sameLetters(t, term));
    // A typo seldom changes a word's first letter (one that does is mostly another word: ground / around).
    let best = near.find((t) => t[0] === term[0]);
    // Unless the query's other words say it: a term one API holds together with all of them
    // ("xubscriptions of a customer": `subscription` beside `customer`).
    if (best === undefined) {
      // (The misspelt term is held by no API: it is never among them.)
      const others = parsed.terms.filter((t) => vocabulary.together([t]));
      if (others.length > 0) best = near.find((t) => vocabulary.together([t, ...others]));
    }
    // Stryker disable next-line ConditionalExpression: speed only (no term, no word written for it)
    if (best === undefined) continue;
    const fix = surfaceWord(best, word);
    // (Every term of the 150,000 words of WordNet's noun list reads back from one of the endings: a
    // term that would not, from a stemmer's odd case, leaves its word as typed.)
    // Stryker disable next-line ConditionalExpression: see above
    if (fix !== undefined) fixes.set(word, fix);
  }
  if (fixes.size === 0) return undefined;
  return query.replace(/[\p{L}\p{N}]+/gu, (w) => fixes.get(w.toLowerCase()) ?? w);
}
