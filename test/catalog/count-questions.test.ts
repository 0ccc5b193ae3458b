// "how many users", "how much space": a question for a count reads as a read of a count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseQuery } from '../../src/catalog/query.ts';
import { termsOf } from '../../src/catalog/text.ts';

const COUNT = termsOf('count')[0]!;
/** Made-up nouns: no word table knows them. */
const nounArb = fc.stringMatching(/^[b-df-hj-np-tv-z]{2}[aeiou][b-df-hj-np-tv-z][b-df-hj-np-rtv-z]$/);

describe('a question for a count', () => {
  it('searches `count` at a hinting verb\'s weight and reads a hinted get (generated)', () => {
    fc.assert(
      fc.property(nounArb, fc.constantFrom('many', 'much'), (noun, quantity) => {
        const q = parseQuery(`how ${quantity} ${noun}s are there`);
        assert.ok(q.terms.includes(COUNT));
        assert.equal(q.weights.get(COUNT), 0.6);
        assert.equal(q.intent, 'get');
        assert.equal(q.hinted, true);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps a CRUD verb the query says as its intent', () => {
    const q = parseQuery('list how many widgets there are');
    assert.equal(q.intent, 'list');
    assert.equal(q.hinted, false);
    assert.ok(q.terms.includes(COUNT));
  });

  it('keeps the larger weight when the query says `count` itself', () => {
    assert.equal(parseQuery('count how many widgets').weights.get(COUNT), 0.6);
    assert.equal(parseQuery('how many widgets count').weights.get(COUNT), 0.6);
  });

  it('reads nothing of the kind without the pair', () => {
    for (const query of ['how widgets work', 'many widgets', 'much ado', 'how to list widgets']) {
      const q = parseQuery(query);
      assert.equal(q.terms.includes(COUNT), false, query);
    }
  });
});
