// Edges of a query's other forms and alternatives (expand.ts): a compound stands for a word the query
// searches (never a CRUD verb, never a stop word), at that word's weight; a word of several terms
// starts no compound of its own; a related phrase of two words is never taken; alternatives the
// query had are kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withAlternatives, withForms } from '../../src/catalog/expand.ts';
import { parseQuery } from '../../src/catalog/query.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { FORM_WEIGHTS, VOCABULARY_WEIGHTS } from '../../src/catalog/weights.ts';

const term = (word: string) => {
  const t = termsOf(word);
  assert.equal(t.length, 1, word);
  return t[0]!;
};
/** A catalogue that holds exactly these terms, once each. */
const holding = (...words: string[]) => {
  const held = new Set(words.map(term));
  return (t: string) => (held.has(t) ? 1 : 0);
};

describe('a compound of the query\'s words', () => {
  it('stands for the searched word beside a stop word ("in box" -> inbox, for box)', () => {
    const q = parseQuery('in box');
    const x = withForms(q, holding('inbox'));
    assert.equal(x.alternatives?.get(term('inbox')), term('box'));
    assert.equal(x.weights.get(term('inbox')), q.weights.get(term('box'))! * FORM_WEIGHTS.compound);
  });

  it('stands for the searched word beside a CRUD verb, at that word\'s weight, whichever comes first', () => {
    for (const [query, joined] of [['delete user', 'deleteuser'], ['user delete', 'userdelete']] as const) {
      const q = parseQuery(query);
      const x = withForms(q, holding(joined));
      assert.equal(x.alternatives?.get(term(joined)), term('user'), query);
      assert.equal(x.weights.get(term(joined)), q.weights.get(term('user'))! * FORM_WEIGHTS.compound, query);
    }
  });

  it('is not started by a word of several terms ("pr review": the compound stands for review)', () => {
    const q = parseQuery('pr review');
    const x = withForms(q, holding('prreview'));
    assert.equal(x.alternatives?.get(term('prreview')), term('review'));
  });

  it('keeps the alternatives the query had', () => {
    const withAlt = withAlternatives(parseQuery('invoice web hook'), { related: (w) => (w === 'invoice' ? ['bill'] : []) }, holding('bill'));
    assert.equal(withAlt.alternatives?.get('bill'), term('invoice'));
    const x = withForms(withAlt, holding('webhook', 'bill'));
    assert.equal(x.alternatives?.get('bill'), term('invoice'));
    assert.equal(x.alternatives?.get(term('webhook')), term('web'));
  });
});

describe('a related word', () => {
  it('is never a phrase, even when the catalogue holds its words', () => {
    const x = withAlternatives(parseQuery('invoice'), { related: () => ['credit card', 'bill'] }, holding('credit', 'card', 'bill'));
    assert.deepEqual(x.terms.slice(1), ['bill']);
    assert.equal(x.weights.get('bill'), VOCABULARY_WEIGHTS.related * parseQuery('invoice').weights.get(term('invoice'))!);
  });
});
