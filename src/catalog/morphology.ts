// English word formation, by rule: the other forms a word may take in an API's text. A query says
// "subscribe", the API says `subscription`; a query says "web hook", the API says `webhook`. These
// are general rules of English (derivational suffixes, closed compounds), not lists of any API's
// words: the catalogue decides which candidates are real, since only forms it holds are searched.

/**
 * Derivational suffix pairs: a word ending in the first may have a related form ending in the
 * second, and the other way round (`verify` / `verification`, `approve` / `approval`). Longest
 * endings first, so a word is rewritten by its most specific rule.
 */
const SUFFIX_PAIRS: readonly (readonly [string, string])[] = [
  // verb -> action noun
  ['ify', 'ification'],
  ['ize', 'ization'],
  ['ise', 'isation'],
  ['ate', 'ation'],
  ['scribe', 'scription'],
  ['ete', 'etion'],
  ['ute', 'ution'],
  ['ude', 'usion'],
  ['ide', 'ision'],
  ['ire', 'iration'],
  ['ure', 'uration'],
  ['ite', 'itation'],
  ['mit', 'mission'],
  ['end', 'ension'],
  ['ct', 'ction'],
  ['pt', 'ption'],
  ['rt', 'rtion'],
  ['ove', 'oval'],
  ['end', 'endency'],
  ['end', 'endence'],
  ['able', 'ability'],
  ['ible', 'ibility'],
];

/** Endings added to a whole word: `assign` / `assignment`, `renew` / `renewal`, `perform` / `performance`. */
const PLAIN_SUFFIXES: readonly string[] = ['ment', 'al', 'ance', 'ence'];

/** Shortest word (and shortest base left by a rewrite) worth a derived form: shorter ones are mostly other words. */
const MIN_BASE = 3;

/**
 * Forms of `word` (lower case, one word) by English derivation, never the word itself (each rule
 * changes the length of its ending). Most candidates are not words at all: the caller keeps only
 * those its vocabulary holds.
 */
export function derivedForms(word: string): string[] {
  const out = new Set<string>();
  for (const [a, b] of SUFFIX_PAIRS) {
    if (word.length - a.length >= MIN_BASE && word.endsWith(a)) out.add(word.slice(0, -a.length) + b);
    if (word.length - b.length >= MIN_BASE && word.endsWith(b)) out.add(word.slice(0, -b.length) + a);
  }
  if (word.length >= MIN_BASE + 1) {
    // A silent `e` goes before a suffix that starts with a vowel (`approve` -> `approval`), stays before `ment`.
    const bare = word.endsWith('e') ? word.slice(0, -1) : word;
    for (const s of PLAIN_SUFFIXES) {
      out.add((/^[aeiou]/.test(s) ? bare : word) + s);
      if (word.length - s.length >= MIN_BASE && word.endsWith(s)) {
        const base = word.slice(0, -s.length);
        out.add(base);
        out.add(`${base}e`);
      }
    }
  }
  return [...out];
}
