// A prefix that repeats what a word names (`re-`): "reactivate a bounce" finds the API's `activate`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { withForms } from '../../src/catalog/expand.ts';
import { prefixForms } from '../../src/catalog/morphology.ts';
import { parseQuery } from '../../src/catalog/query.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { FORM_WEIGHTS } from '../../src/catalog/weights.ts';

const term = (word: string) => termsOf(word)[0]!;

describe('prefixForms', () => {
  const ROWS: { word: string; forms: string[] }[] = [
    { word: 'reactivate', forms: ['activate'] },
    { word: 'reschedule', forms: ['schedule'] },
    { word: 'restart', forms: ['start'] },
    // A base under five letters is mostly another word.
    { word: 'report', forms: [] },
    { word: 'resend', forms: [] },
    { word: 'activate', forms: [] },
  ];
  for (const row of ROWS) {
    it(`${row.word} -> ${row.forms.join(' ') || 'nothing'}`, () => assert.deepEqual(prefixForms(row.word), row.forms));
  }

  it('is the word without `re` when five letters or more are left, else nothing (generated)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,12}$/), (base) => {
        assert.deepEqual(prefixForms(`re${base}`), base.length >= 5 ? [base] : []);
        if (!base.startsWith('re')) assert.deepEqual(prefixForms(base), []);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a query word with a prefix', () => {
  it('searches the base the catalogue holds, as a derived form, when the word itself is rare', () => {
    const q = parseQuery('reactivate a bounce');
    const held = new Map([[term('activate'), 3], [term('bounce'), 9]]);
    const x = withForms(q, (t) => held.get(t) ?? 0);
    assert.equal(x.weights.get(term('activate')), q.weights.get(term('reactivate'))! * FORM_WEIGHTS.derived);
    assert.equal(x.alternatives?.get(term('activate')), term('reactivate'));
  });

  it('searches no base the catalogue does not hold, nor one of a word it holds often', () => {
    const q = parseQuery('reactivate a bounce');
    assert.equal(withForms(q, (t) => (t === term('bounce') ? 9 : 0)), q);
    const common = (t: string) => (t === term('activate') ? 3 : t === term('reactivate') ? FORM_WEIGHTS.derivedRareAtMost + 1 : 0);
    assert.equal(withForms(q, common).weights.has(term('activate')), false);
  });
});
