// Two word rules at their edges. Every phrasal verb of the query reader (query.ts) gives the
// intent its table names, whatever follows it; and a word's derived forms (morphology.ts) never
// include the word itself, however it ends (callers search them as other words).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { derivedForms } from '../../src/catalog/morphology.ts';
import { parseQuery } from '../../src/catalog/query.ts';
import { PHRASAL_INTENTS } from './phrasal-verbs.ts';

describe('a phrasal verb', () => {
  for (const [verb, intent] of PHRASAL_INTENTS) {
    it(`"${verb}" asks to ${intent}`, () => {
      assert.equal(parseQuery(`${verb} the gizmo`).intent, intent);
    });
  }
});

describe('derived forms', () => {
  it('never include the word itself (generated)', () => {
    const ending = fc.constantFrom('', 'e', 'es', 's', 'ing', 'ed', 'ion', 'ation', 'ment', 'er', 'or', 'ance', 'ence', 'ity', 'ize', 'ise', 'able', 'al', 'ness');
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,9}$/), ending, ending, (stem, a, b) => {
        const word = `${stem}${a}${b}`;
        assert.ok(!derivedForms(word).includes(word), word);
      }),
      { numRuns: 2000 },
    );
  });
});
