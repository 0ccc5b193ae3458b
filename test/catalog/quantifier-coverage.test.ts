// "list all widgets": "all" says how many, not which. An endpoint whose text happens to say "all"
// (about something else) is not thereby more what the query asks than the one that names widgets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { spec } from './fixtures.ts';

/** Made-up nouns: no word table knows them. */
const nounArb = fc.stringMatching(/^[b-df-hj-np-tv-z]{2}[aeiou][b-df-hj-np-tv-z][b-df-hj-np-rtv-z]$/);

const top = (catalog: Catalog, query: string) => catalog.search(query, {}, 3)[0]?.endpoint.path;

describe('a quantifier in the query', () => {
  it('does not raise an endpoint that says it beside another thing above the one the query names (generated)', () => {
    fc.assert(
      fc.property(nounArb, nounArb, fc.constantFrom('all', 'every', 'several'), (thing, other, quantifier) => {
        fc.pre(thing !== other);
        const catalog = new Catalog([
          spec('s', [
            { method: 'GET', path: `/${thing}s`, summary: `Returns ${thing}s` },
            { method: 'GET', path: `/${other}s`, summary: `Returns ${quantifier} ${other}s`, description: `Each of them belongs to a ${thing}.` },
          ]),
        ]);
        assert.equal(top(catalog, `list ${quantifier} ${thing}s`), `/${thing}s`);
      }),
      { numRuns: 40 },
    );
  });

  it('still finds what says it when it is all the query says', () => {
    const catalog = new Catalog([
      spec('s', [
        { method: 'GET', path: '/gadgets', summary: 'Returns all gadgets' },
        { method: 'GET', path: '/widgets', summary: 'Returns widgets' },
      ]),
    ]);
    assert.equal(top(catalog, 'all'), '/gadgets');
  });
});
