// Which sibling by its path words: the share of an endpoint's path words the query says, with one
// said word of prior evidence (PATH_EVIDENCE in weights.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { factor } from '../../src/catalog/factor.ts';
import { makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { intentOfTerm, termsOf, verbHint } from '../../src/catalog/text.ts';
import { endpoint } from './fixtures.ts';

/**
 * Made-up nouns no vocabulary table knows (so none is read as a verb or rewritten), none ending in "s".
 * The pattern also makes real verbs (`check`, found by a rare seed), which a path reads as an action:
 * left out.
 */
const nounArb = fc
  .stringMatching(/^[b-df-hj-np-tv-z]{2}[aeiou][b-df-hj-np-tv-z][b-df-hj-np-rtv-z]$/)
  .filter((w) => termsOf(w).every((t) => intentOfTerm(t) === undefined && verbHint(t) === undefined));
const entry = (path: string) => makeEntry(endpoint('s', 'c', { method: 'GET', path }), 1);

describe('path words', () => {
  it('ranks a short path none of whose words the query says above a longer one that says none either', () => {
    fc.assert(
      fc.property(fc.uniqueArray(nounArb, { minLength: 4, maxLength: 4 }), fc.integer({ min: 1, max: 3 }), ([asked, a, b, c], extra) => {
        const q = parseQuery(`get ${asked}`);
        const short = entry(`/${a}.${b}`);
        const long = entry(`/${a}.${b}${'/' + c!}${'/x' + c!.repeat(extra)}`);
        const fShort = factor(short, q, 1, undefined);
        const fLong = factor(long, q, 1, undefined);
        assert.ok(fShort > fLong, `${short.endpoint.path} ${fShort} vs ${long.endpoint.path} ${fLong}`);
      }),
      { numRuns: 200 },
    );
  });

  it('still ranks the path whose words the query says wholly above a nested copy under another parent', () => {
    fc.assert(
      fc.property(fc.uniqueArray(nounArb, { minLength: 2, maxLength: 2 }), ([thing, parent]) => {
        const q = parseQuery(`get a ${thing}`);
        const canonical = entry(`/${thing}s/{id}`);
        const nested = entry(`/${parent}s/{pid}/${thing}s/{id}`);
        assert.ok(factor(canonical, q, 1, undefined) > factor(nested, q, 1, undefined));
      }),
      { numRuns: 200 },
    );
  });
});
