// Whether a query is cheap enough to expand its words by prefix depends on how many postings the
// expansion visits: a sum of document counts over the index terms each word begins. A search over
// the catalogue hands each index the catalogue's longer terms per word (`expansions`), and the sum
// runs over those instead of every term of the index; the catalogue's terms hold the index's, so
// the sum, the choice and the ranking are the same. Held here on indexes near the cost limit,
// where a wrong sum would flip the choice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseQuery } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { TermHolders } from '../../src/catalog/term-holders.ts';
import { type EndpointInput, spec } from './fixtures.ts';

const WORDS = ['report', 'reports', 'reporter', 'reporting', 'repository', 'item', 'items', 'invoice'];

describe('the cost of expanding a query by prefix', () => {
  it('counted over the catalogue\'s expansions, ranks as counted over the index\'s own terms', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 150, max: 700 }),
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), { minLength: 3, maxLength: 3 }),
        fc.constantFrom('report items', 'reporting invoice', 'report', 'repository report', 'items'),
        fc.integer({ min: 0, max: 1000 }),
        (n, other, query, seed) => {
          const inputs: EndpointInput[] = Array.from({ length: n }, (_, i) => ({
            method: i % 3 === 0 ? 'POST' : 'GET',
            path: `/r${i}`,
            summary: `${WORDS[(i * 7 + seed) % WORDS.length]} ${WORDS[(i * 3 + seed) % WORDS.length]}`,
          }));
          // A second spec brings terms this one lacks into the catalogue's vocabulary.
          const others = other.map((words, i) => ({ method: 'GET' as const, path: `/o${i}`, summary: `${words.join(' ')} reportage` }));
          const make = () => [new SpecState(spec('s', inputs)), new SpecState(spec('t', others))];
          const [plain] = make();
          const [withCatalogue, second] = make();
          const holders = new TermHolders();
          holders.add([withCatalogue!, second!]);
          const parsed = parseQuery(query);
          const options = { limit: 10, accept: () => true, all: true };
          const ids = (ranked: readonly { entry: { endpoint: { id: string } }; score: number }[]) => ranked.map((r) => [r.entry.endpoint.id, r.score]);
          assert.deepEqual(
            ids(withCatalogue!.index.rank(parsed, { ...options, expansions: holders.expansions(parsed.terms) })),
            ids(plain!.index.rank(parsed, options)),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
