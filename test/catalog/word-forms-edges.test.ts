// Two word rules at their edges. Every phrasal verb of the query reader (query.ts) gives the
// intent its table names, whatever follows it; and a word's derived forms (morphology.ts) never
// include the word itself, however it ends (callers search them as other words).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { derivedForms } from '../../src/catalog/morphology.ts';
import { parseQuery } from '../../src/catalog/query.ts';

const PHRASAL: [string, string][] = [
  ['set up', 'create'], ['sign up', 'create'], ['back up', 'create'],
  ['turn on', 'update'], ['turn off', 'update'], ['switch on', 'update'], ['switch off', 'update'],
  ['roll back', 'update'], ['hang up', 'update'], ['shut down', 'update'],
  ['clean up', 'delete'], ['take down', 'delete'],
  ['look up', 'get'], ['find out', 'get'], ['check on', 'get'],
];

describe('a phrasal verb', () => {
  for (const [verb, intent] of PHRASAL) {
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
