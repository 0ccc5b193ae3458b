// English lexical resources for search: words related to a query word, for the catalogue to search
// as low-weight alternatives (src/catalog/expand.ts). Each resource ships inside an npm package and
// loads from the installed package, never from the network.
import { EnglishWords } from './english-words.ts';
import { WordNet, type SynonymOptions } from './wordnet.ts';

export { WordNet, WordNetLoadError, baseForms, wordnetDirectory, type SynonymOptions } from './wordnet.ts';
export { EnglishWords } from './english-words.ts';

/** Whether a word is English (lower case). */
export interface EnglishWordList {
  has(word: string): boolean;
}

let english: EnglishWords | null | undefined;

/** WordNet's lemma lists, opened once per process on first need; undefined when they cannot be read. */
export function englishWords(): EnglishWordList | undefined {
  if (english === undefined) english = EnglishWords.open() ?? null;
  return english ?? undefined;
}

/** Which resources `svc.yaml` asks for (`search.vocabulary`). */
export type VocabularyKind = 'none' | 'wordnet';
export const VOCABULARY_KINDS: readonly VocabularyKind[] = ['none', 'wordnet'];

/** Words of the same meaning as one word (lower case, as typed), closest first. */
export interface Vocabulary {
  related(word: string): readonly string[];
}

/** Look-ups remembered per vocabulary: queries repeat words, and the cache is bounded. */
const CACHE_LIMIT = 10_000;

/**
 * From WordNet's most frequent senses of the word: its forms in another part of speech first
 * ("subscription" -> "subscribe"), then its synonyms.
 */
export function wordnetVocabulary(wordnet: WordNet, options: SynonymOptions = {}): Vocabulary {
  const cache = new Map<string, readonly string[]>();
  return {
    related(word) {
      let out = cache.get(word);
      if (out === undefined) {
        out = [...new Set([...wordnet.derivations(word, options), ...wordnet.synonyms(word, options)])];
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(word, out);
      }
      return out;
    },
  };
}

/** Loads the vocabulary `kind` names (undefined for `none`). */
export async function loadVocabulary(kind: VocabularyKind, options: SynonymOptions = {}): Promise<Vocabulary | undefined> {
  switch (kind) {
    // Stryker disable next-line StringLiteral: an unmatched kind gives undefined too, as 'none' does
    case 'none':
      return undefined;
    case 'wordnet':
      return wordnetVocabulary(await WordNet.load(), options);
  }
}
