// A query's words bridged to the catalogue's: a vocabulary (an English lexical resource, see
// src/vocabulary) names words related to a query word, and those the catalogue holds are searched
// too, as low-weight alternatives. The query's own terms are never removed or lowered.
import type { ParsedQuery } from './query.ts';
import { MAX_SEARCHED_TERMS } from './query.ts';
import { derivedForms } from './morphology.ts';
import { intentOfTerm, splitWords, termsOf } from './text.ts';
import { FORM_WEIGHTS, VOCABULARY_WEIGHTS } from './weights.ts';

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
  const terms = [...q.terms];
  const weights = new Map(q.weights);
  const alternatives = new Map<string, string>(q.alternatives ?? []);
  const before = alternatives.size;
  const looked = new Set<string>();
  for (const word of q.words) {
    // (A query already at MAX_SEARCHED_TERMS takes nothing more: the loop below stops at once.)
    if (looked.size >= MAX_WORDS_EXPANDED) break;
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
  if (alternatives.size === before) return q;
  return { ...q, terms, weights, alternatives };
}

/** The one index term of a word, or undefined (a stop word, or a word that stands for several terms). */
function oneTerm(word: string): string | undefined {
  const t = termsOf(word);
  return t.length === 1 ? t[0] : undefined;
}

/** Words joined into one closed compound, at most this many ("horizontal pod autoscaler"). */
const MAX_JOINED = 3;

/**
 * `q` with the other forms of its words the catalogue holds, as alternatives (see morphology.ts):
 * adjacent words written as one (`web hook` -> `webhook`, `sign in` -> `signin`), weighing
 * `FORM_WEIGHTS.compound` x the heaviest of their weights, and a word's derived forms (`subscribe`
 * -> `subscription`), weighing `FORM_WEIGHTS.derived` x its weight. CRUD verbs (read as intent) and
 * terms the query has already are left out; a query with nothing to add comes back as it is.
 */
export function withForms(q: ParsedQuery, documents: (term: string) => number): ParsedQuery {
  const words = q.words;
  let terms: string[] | undefined;
  let weights: Map<string, number> | undefined;
  let alternatives: Map<string, string> | undefined;
  const add = (term: string, weight: number, source: string) => {
    if (weight <= 0 || q.weights.has(term) || weights?.has(term) || intentOfTerm(term) !== undefined) return;
    if ((terms?.length ?? q.terms.length) >= MAX_SEARCHED_TERMS || documents(term) === 0) return;
    terms ??= [...q.terms];
    weights ??= new Map(q.weights);
    alternatives ??= new Map(q.alternatives ?? []);
    terms.push(term);
    weights.set(term, weight);
    alternatives.set(term, source);
  };
  for (let i = 0; i < words.length && i < MAX_WORDS_FORMED; i++) {
    // Closed compounds: this word and the next one or two, written together.
    let joined = words[i]!;
    let source: string | undefined;
    let weight = 0;
    const own = oneTerm(joined);
    if (own !== undefined && q.weights.has(own)) {
      source = own;
      weight = q.weights.get(own)!;
    }
    for (let j = i + 1; j < words.length && j < i + MAX_JOINED; j++) {
      const next = words[j]!;
      joined += next;
      const part = oneTerm(next);
      if (part !== undefined && q.weights.has(part)) {
        source ??= part;
        weight = Math.max(weight, q.weights.get(part)!);
      }
      const term = oneTerm(joined);
      if (term !== undefined && source !== undefined) add(term, weight * FORM_WEIGHTS.compound, source);
    }
    // Derived forms of a word the query searches (its CRUD verbs are intent, not searched).
    if (own === undefined || !q.weights.has(own)) continue;
    if (documents(own) > FORM_WEIGHTS.derivedRareAtMost) continue;
    for (const form of derivedForms(words[i]!)) {
      const term = oneTerm(form);
      // (The word's own term is the query's already: add() leaves it out.)
      if (term !== undefined) add(term, q.weights.get(own)! * FORM_WEIGHTS.derived, own);
    }
  }
  if (!terms) return q;
  return { ...q, terms, weights: weights!, alternatives: alternatives! };
}

/** Words of a query looked at for other forms, at most. */
const MAX_WORDS_FORMED = 24;
