// A word the query does not search (no weight in `q.weights`: a term past the query's limit, or a
// query built by a caller) stands for nothing in the query's other forms and alternatives
// (expand.ts): it is looked up for no related word and no derived form, and it neither names a
// compound's source nor sets its weight. Without these guards its missing weight turns into NaN
// weights the ranking cannot order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type QueryVocabulary, withAlternatives, withForms } from '../../src/catalog/expand.ts';
import { type ParsedQuery, parseQuery } from '../../src/catalog/query.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { FORM_WEIGHTS } from '../../src/catalog/weights.ts';

const term = (word: string) => {
  const t = termsOf(word);
  assert.equal(t.length, 1, word);
  return t[0]!;
};

/** `q` without the weight of `word`'s term. */
function unweighted(q: ParsedQuery, word: string): ParsedQuery {
  const weights = new Map(q.weights);
  assert.ok(weights.delete(term(word)), `${word} was weighed`);
  return { ...q, weights };
}

const everything: QueryVocabulary = { related: () => ['bill', 'receipt', 'voucher'] };

describe('a word the query does not search', () => {
  it('is looked up for no related word', () => {
    const q = unweighted(parseQuery('invoice'), 'invoice');
    assert.equal(withAlternatives(q, everything, () => 1), q);
    // The same query with the weight: the guard, not the vocabulary, kept it out.
    assert.ok(withAlternatives(parseQuery('invoice'), everything, () => 1).terms.length > 1);
  });

  it('gets no derived form', () => {
    const form = term('subscription');
    const q = unweighted(parseQuery('subscribe'), 'subscribe');
    assert.equal(withForms(q, (t) => (t === form ? 1 : 0)), q);
    assert.ok(withForms(parseQuery('subscribe'), (t) => (t === form ? 1 : 0)).terms.includes(form));
  });

  it('leaves a compound to the weighed word beside it, first or second', () => {
    const compound = term('webhook');
    for (const [silent, weighed] of [['web', 'hook'], ['hook', 'web']] as const) {
      const q = unweighted(parseQuery('web hook'), silent);
      const x = withForms(q, (t) => (t === compound ? 1 : 0));
      assert.equal(x.weights.get(compound), q.weights.get(term(weighed))! * FORM_WEIGHTS.compound, `${silent} silent`);
      assert.equal(x.alternatives?.get(compound), term(weighed), `${silent} silent`);
    }
  });
});
