// English word formation by rule (morphology.ts), checked from its contract on generated words: every
// suffix pair works both ways, a whole word takes each plain ending (a silent e dropped before a
// vowel), an ending comes off a base long enough, and nothing else is ever offered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { derivedForms } from '../../src/catalog/morphology.ts';

/** The rules as morphology.ts documents them: related endings, and endings added to a whole word. */
const PAIRS: readonly (readonly [string, string])[] = [
  ['ify', 'ification'], ['ize', 'ization'], ['ise', 'isation'], ['ate', 'ation'], ['scribe', 'scription'],
  ['ete', 'etion'], ['ute', 'ution'], ['ude', 'usion'], ['ide', 'ision'], ['ire', 'iration'], ['ure', 'uration'],
  ['ite', 'itation'], ['mit', 'mission'], ['end', 'ension'], ['ct', 'ction'], ['pt', 'ption'], ['rt', 'rtion'],
  ['ove', 'oval'], ['end', 'endency'], ['end', 'endence'], ['able', 'ability'], ['ible', 'ibility'],
];
const PLAIN = ['ment', 'al', 'ance', 'ence'];
const MIN_BASE = 3;

/** Every form the rules allow for `word`. */
function model(word: string): Set<string> {
  const out = new Set<string>();
  for (const [a, b] of PAIRS) {
    if (word.endsWith(a) && word.length - a.length >= MIN_BASE) out.add(word.slice(0, -a.length) + b);
    if (word.endsWith(b) && word.length - b.length >= MIN_BASE) out.add(word.slice(0, -b.length) + a);
  }
  if (word.length > MIN_BASE) {
    for (const s of PLAIN) {
      const vowel = 'aeiou'.includes(s[0]!);
      out.add((vowel && word.endsWith('e') ? word.slice(0, -1) : word) + s);
      if (word.endsWith(s) && word.length - s.length >= MIN_BASE) {
        out.add(word.slice(0, -s.length));
        out.add(`${word.slice(0, -s.length)}e`);
      }
    }
  }
  out.delete(word);
  return out;
}

const ENDINGS = [...new Set([...PAIRS.flat(), ...PLAIN, 'e', ''])];
const baseArb = fc.stringMatching(/^[a-z]{1,7}$/);
const wordArb = fc.oneof(
  fc.tuple(baseArb, fc.constantFrom(...ENDINGS)).map(([b, e]) => b + e),
  fc.stringMatching(/^[a-z]{1,12}$/),
);

describe('derivedForms', () => {
  it('offers exactly the forms the rules allow, each once, never the word itself (generated words)', () => {
    fc.assert(
      fc.property(wordArb, (word) => {
        const forms = derivedForms(word);
        assert.equal(new Set(forms).size, forms.length, `repeats in ${forms.join(' ')}`);
        assert.deepEqual(new Set(forms), model(word), word);
      }),
      { numRuns: 3000 },
    );
  });

  it('applies every suffix pair both ways once the base has three letters', () => {
    for (const [a, b] of PAIRS) {
      assert.ok(derivedForms(`abc${a}`).includes(`abc${b}`), `abc${a} -> abc${b}`);
      assert.ok(derivedForms(`abc${b}`).includes(`abc${a}`), `abc${b} -> abc${a}`);
      // With a two-letter base only the other rules apply (`above` -> `aboval` is the plain ending `al`).
      assert.deepEqual(new Set(derivedForms(`ab${a}`)), model(`ab${a}`));
      assert.deepEqual(new Set(derivedForms(`ab${b}`)), model(`ab${b}`));
    }
  });

  it('adds the plain endings to a word of four letters or more, dropping a silent e before a vowel only', () => {
    assert.deepEqual(derivedForms('abc'), []);
    assert.deepEqual(new Set(derivedForms('bxqk')), new Set(['bxqkment', 'bxqkal', 'bxqkance', 'bxqkence']));
    assert.deepEqual(new Set(derivedForms('bxqe')), new Set(['bxqement', 'bxqal', 'bxqance', 'bxqence']));
    // An ending comes off a base of three letters or more, which may have lost its e.
    assert.ok(derivedForms('bxqment').includes('bxq') && derivedForms('bxqment').includes('bxqe'));
    assert.ok(!derivedForms('bxment').includes('bx'));
    assert.ok(derivedForms('bxqkal').includes('bxqk') && derivedForms('bxqkal').includes('bxqke'));
  });
});
