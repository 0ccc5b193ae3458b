// Which sibling within an API: the conventions that tell endpoints of one resource apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { factor } from '../../src/catalog/factor.ts';
import { makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { endpoint } from './fixtures.ts';

/** Made-up verbs and nouns: no verb table knows them, so the query is a command with an unknown verb. */
const wordArb = fc.stringMatching(/^[b-df-hj-np-tv-z]{2}[aeiou][b-df-hj-np-tv-z]{2}$/);

describe('which sibling', () => {
  it('ranks an endpoint whose name says it removes below its twin for a command with no known verb', () => {
    fc.assert(
      fc.property(wordArb, wordArb, fc.constantFrom('POST', 'PUT', 'PATCH'), (verb, noun, method) => {
        const q = parseQuery(`${verb} a ${noun}`);
        fc.pre(q.imperative && q.intent === undefined);
        const twin = (op: string) => makeEntry(endpoint('s', 'c', { method, path: `/${noun}s/{id}/${op}`, operationId: op }), 1);
        const Noun = noun[0]!.toUpperCase() + noun.slice(1);
        const removes = factor(twin(`remove${Noun}`), q, 1, undefined);
        const adds = factor(twin(`add${Noun}`), q, 1, undefined);
        assert.ok(removes < adds, `${verb} a ${noun}: remove ${removes} vs add ${adds}`);
      }),
      { numRuns: 300 },
    );
  });
});
