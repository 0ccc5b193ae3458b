// The query's head noun (head-noun.ts) and what it tells the ranking: one thing or many.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { factor } from '../../src/catalog/factor.ts';
import { headNoun } from '../../src/catalog/head-noun.ts';
import { makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { endpoint } from './fixtures.ts';

/** Made-up nouns no vocabulary table knows, none ending in "s" (so "<noun>s" is their plural). */
const nounArb = fc.stringMatching(/^[b-df-hj-np-tv-z]{2}[aeiou][b-df-hj-np-tv-z][b-df-hj-np-rtv-z]$/);

describe('head noun', () => {
  const cases: [query: string, term: string | undefined, plural: boolean][] = [
    ['list all invoices', 'invoic', true],
    ['get a widget by its labels', 'widget', false],
    ['get the list of members of a team', 'member', true],
    ["delete a team's member", 'member', false],
    ['list log files I uploaded', 'fil', true],
    ['shut down a server in a region', 'server', false],
    ['approve a payment request', 'request', false],
    ['create a new folder', 'folder', false],
    ['my bookmarks', 'bookmark', true],
    ['groups I belong to', 'group', true],
    ['GET /users/{id}', undefined, false],
  ];
  for (const [query, term, plural] of cases) {
    it(`reads "${query}" as ${term === undefined ? 'no head' : `${term}, ${plural ? 'many' : 'one'}`}`, () => {
      const head = headNoun(parseQuery(query));
      assert.deepEqual(head, term === undefined ? undefined : { term, plural });
    });
  }

  it('asks for one thing when the plural word is not the head ("get a <thing> by its <labels>"): the item before the collection', () => {
    fc.assert(
      fc.property(nounArb, nounArb, fc.constantFrom('by', 'with'), (thing, other, by) => {
        fc.pre(thing !== other);
        const q = parseQuery(`get a ${thing} ${by} its ${other}s`);
        const item = makeEntry(endpoint('s', 'c', { method: 'GET', path: `/${thing}s/{id}` }), 1);
        const collection = makeEntry(endpoint('s', 'c', { method: 'GET', path: `/${thing}s` }), 2);
        assert.ok(factor(item, q, 1, undefined) > factor(collection, q, 1, undefined), q.exact);
      }),
      { numRuns: 200 },
    );
  });

  it('still asks for many when the head noun is plural', () => {
    fc.assert(
      fc.property(nounArb, (thing) => {
        const q = parseQuery(`get the ${thing}s of a team`);
        const item = makeEntry(endpoint('s', 'c', { method: 'GET', path: `/teams/{id}/${thing}s/{tid}` }), 1);
        const collection = makeEntry(endpoint('s', 'c', { method: 'GET', path: `/teams/{id}/${thing}s` }), 2);
        assert.ok(factor(collection, q, 1, undefined) > factor(item, q, 1, undefined), q.exact);
      }),
      { numRuns: 200 },
    );
  });
});
