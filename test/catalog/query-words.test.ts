// The small word lists of query reading, each word by what it does: a determiner after the first
// word makes a command, so does a particle followed by one; a self word reads as the caller; a
// verb with its particle reads as the intent of the pair.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../../src/catalog/search.ts';
import { PHRASAL_INTENTS } from './phrasal-verbs.ts';

describe('query words', () => {
  it('reads a command from every determiner after the first word, and from every particle before one', () => {
    for (const d of ['a', 'an', 'the', 'my', 'this', 'that', 'some', 'our', 'your', 'its', 'their', 'new']) {
      assert.equal(parseQuery(`rent ${d} number`).imperative, true, d);
    }
    for (const p of ['up', 'out', 'down', 'on', 'off', 'in', 'back', 'over']) {
      assert.equal(parseQuery(`frob ${p} the widget`).imperative, true, p);
      assert.equal(parseQuery(`frob ${p} widget`).imperative, false, p);
    }
    assert.equal(parseQuery('rent number').imperative, false);
  });

  it('reads every self word as the caller', () => {
    for (const w of ['i', 'current', 'authenticated', 'logged']) {
      const q = parseQuery(`get ${w} user`);
      assert.equal(q.terms[0], 'me', w);
      assert.equal(q.weights.get('me'), 0.6, w);
    }
    assert.ok(!parseQuery('get the user').terms.includes('me'));
  });

  it('reads each verb with its particle as the intent of the pair', () => {
    for (const [pair, intent] of PHRASAL_INTENTS) {
      const q = parseQuery(`${pair} widgets`);
      assert.equal(q.intent, intent, pair);
      assert.equal(q.hinted, true, pair);
    }
  });
});
