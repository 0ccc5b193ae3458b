// "this <thing>" points at one thing the query holds: asked about its children, the query has not
// singled one of them out, so the child's collection fits and the child's item does not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { factor } from '../../src/catalog/factor.ts';
import { makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { endpoint } from './fixtures.ts';

/** Made-up nouns: no word table knows them (no verb, no stop word, no plural: they never end in s). */
const nounArb = fc.stringMatching(/^[b-df-hj-np-tv-z]{2}[aeiou][b-df-hj-np-tv-z][b-df-hj-np-rtv-z]$/);

const entry = (path: string) => makeEntry(endpoint('s', 'c', { method: 'GET', path }), 1);

describe('a thing the query points at', () => {
  const ROWS: { query: string; pointed: string[] }[] = [
    { query: 'who has access to this calendar', pointed: ['calendar'] },
    { query: 'which files does this merge request change', pointed: ['merg', 'request'] },
    { query: 'members of this group', pointed: ['group'] },
    { query: 'this', pointed: [] },
    { query: 'the calendar of a user', pointed: [] },
    // A verb ends the thing pointed at.
    { query: 'this user list', pointed: ['user'] },
  ];
  for (const row of ROWS) {
    it(`reads "${row.query}" as pointing at ${row.pointed.join(' ') || 'nothing'}`, () => {
      assert.deepEqual([...(parseQuery(row.query).pointed ?? [])], row.pointed);
    });
  }

  it('ranks the collection of its children above one child for a question with no verb or a read', () => {
    fc.assert(
      fc.property(nounArb, nounArb, fc.constantFrom('who has the', 'get the', 'the'), (parent, child, lead) => {
        fc.pre(parent !== child);
        const q = parseQuery(`${lead} ${child} of this ${parent}`);
        fc.pre(q.intent === undefined || q.intent === 'get');
        const collection = factor(entry(`/${parent}s/{id}/${child}`), q, 1, undefined);
        const item = factor(entry(`/${parent}s/{id}/${child}/{childId}`), q, 1, undefined);
        assert.ok(item < collection, `${q.exact}: item ${item} vs collection ${collection}`);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves the item of the thing pointed at as it was', () => {
    fc.assert(
      fc.property(nounArb, (noun) => {
        const pointed = parseQuery(`get this ${noun}`);
        const plain = parseQuery(`get a ${noun}`);
        const item = entry(`/${noun}s/{id}`);
        assert.deepEqual([...(pointed.pointed ?? [])], [...termsOf(noun)]);
        assert.equal(factor(item, pointed, 1, undefined), factor(item, plain, 1, undefined));
      }),
      { numRuns: 100 },
    );
  });

  it('leaves a command on a child as it was: "delete the rule of this calendar" asks for one rule', () => {
    const q = parseQuery('delete the rule of this calendar');
    const plain = parseQuery('delete the rule of a calendar');
    const item = entry('/calendars/{calendarId}/rule/{ruleId}');
    assert.equal(factor(item, q, 1, undefined), factor(item, plain, 1, undefined));
  });
});
