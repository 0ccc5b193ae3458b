// A query's words bridged to the catalogue's: a vocabulary (an English lexical resource, see
// src/vocabulary) names words related to a query word, and those the catalogue holds are searched
// too, as low-weight alternatives. The query's own terms are never removed or lowered.
import type { ParsedQuery } from './query.ts';
import { MAX_SEARCHED_TERMS } from './query.ts';
import { intentOfTerm, splitWords, termsOf } from './text.ts';
import { VOCABULARY_WEIGHTS } from './weights.ts';

/** What the catalogue asks of a vocabulary: words of the same meaning as one query word (lower case, as typed), closest first. */
export interface QueryVocabulary {
  related(word: string): readonly string[];
}

/** Words looked up per query, at most (a long query is mostly known words already). */
const MAX_WORDS_EXPANDED = 12;

/**
 * `q` with alternatives for its rare words from `vocabulary`. A word whose term the catalogue holds in
 * at most `VOCABULARY_WEIGHTS.rareAtMost` endpoints (`documents`) is looked up; each related word that
 * is one index term, held by the catalogue, not already a term of the query and not a CRUD verb
 * (verbs are read as intent) is added with weight (the word's weight x `VOCABULARY_WEIGHTS.related`),
 * at most `VOCABULARY_WEIGHTS.perWord` per word. A common word is the catalogue's own already: its
 * synonyms only blurred the ranking. A query with nothing to add comes back as it is.
 */
export function withAlternatives(q: ParsedQuery, vocabulary: QueryVocabulary, documents: (term: string) => number): ParsedQuery {
  if (q.words.length === 0) return q;
  const terms = [...q.terms];
  const weights = new Map(q.weights);
  const alternatives = new Map<string, string>();
  const looked = new Set<string>();
  for (const word of q.words) {
    if (looked.size >= MAX_WORDS_EXPANDED || terms.length >= MAX_SEARCHED_TERMS) break;
    if (looked.has(word)) continue;
    looked.add(word);
    const own = termsOf(word);
    if (own.length !== 1) continue;
    const source = own[0]!;
    const sourceWeight = q.weights.get(source);
    if (sourceWeight === undefined || intentOfTerm(source) !== undefined || q.alternatives?.has(source)) continue;
    if (documents(source) > VOCABULARY_WEIGHTS.rareAtMost) continue;
    let added = 0;
    for (const related of vocabulary.related(word)) {
      if (added >= VOCABULARY_WEIGHTS.perWord || terms.length >= MAX_SEARCHED_TERMS) break;
      const words = splitWords(related);
      if (words.length !== 1) continue;
      const alt = termsOf(words[0]!);
      if (alt.length !== 1) continue;
      const term = alt[0]!;
      if (weights.has(term) || intentOfTerm(term) !== undefined || documents(term) === 0) continue;
      terms.push(term);
      weights.set(term, sourceWeight * VOCABULARY_WEIGHTS.related);
      alternatives.set(term, source);
      added++;
    }
  }
  if (alternatives.size === 0) return q;
  return { ...q, terms, weights, alternatives };
}
