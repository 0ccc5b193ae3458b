// Endpoints a query quotes word for word or names by path: over the whole catalogue one table
// answers, and it must answer exactly what asking spec by spec answers (the same entries, in
// catalogue order).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { WholeTables, exactMatches, pathMatches } from '../../src/catalog/direct-matches.ts';
import { exactKey } from '../../src/catalog/query.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import type { EndpointInput } from './fixtures.ts';
import { spec } from './fixtures.ts';

const WORDS = ['list', 'get', 'a', 'pet', 'pets', 'owner', 'Create', 'photo', 'of', 'the'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const endpointInput = fc.record({ summary: fc.option(text, { nil: undefined }), operationId: fc.option(text.map((t) => t.replaceAll(' ', '')), { nil: undefined }) });

describe('exact matches over the whole catalogue', () => {
  it('finds what asking each spec finds, in the same order, for generated catalogues and queries', () => {
    fc.assert(
      fc.property(fc.array(fc.array(endpointInput, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), text, fc.boolean(), (apis, query, onlyGet) => {
        const states = apis.map(
          (inputs, i) =>
            new SpecState(
              spec(
                `s${i}`,
                inputs.map((input, j): EndpointInput => ({ method: j % 2 ? 'POST' : 'GET', path: `/p${j}`, ...input })),
              ),
            ),
        );
        const accept = onlyGet ? (e: { endpoint: { method: string } }) => e.endpoint.method === 'GET' : () => true;
        const key = exactKey(query);
        const bySpec = exactMatches(states, key, accept).map((e) => e.endpoint.id);
        const whole = exactMatches(states, key, accept, new WholeTables(states)).map((e) => e.endpoint.id);
        assert.deepEqual(whole, bySpec);
      }),
      { numRuns: 200 },
    );
  });

  it('finds an endpoint by its summary and its operationId, in every spec that has it', () => {
    const states = ['a', 'b'].map((name) => new SpecState(spec(name, [{ method: 'GET', path: '/pets', summary: 'List pets', operationId: 'listPets' }])));
    const table = new WholeTables(states);
    for (const key of [exactKey('List pets'), exactKey('listPets')]) {
      assert.deepEqual(table.exactMatches(key, () => true).map((e) => e.endpoint.id), ['a:GET:/pets', 'b:GET:/pets']);
    }
    assert.deepEqual(table.exactMatches(exactKey('List owners'), () => true), []);
  });
});

const segment = fc.constantFrom('pets', 'owners', 'Pets', '{id}', '{petId}', ':id', 'v1');
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);

describe('path matches over the whole catalogue', () => {
  it('finds what asking each spec finds, in the same order, for generated catalogues and paths', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.record({ method: fc.constantFrom('GET', 'POST' as const), path: pathArb }), { minLength: 1, maxLength: 8, selector: (e) => `${e.method} ${e.path}` }), { minLength: 1, maxLength: 5 }),
        fc.array(pathArb, { minLength: 1, maxLength: 2 }),
        fc.option(fc.constantFrom('GET', 'POST'), { nil: undefined }),
        fc.integer({ min: 1, max: 20 }),
        (apis, paths, method, limit) => {
          const states = apis.map((inputs, i) => new SpecState(spec(`s${i}`, inputs)));
          const ids = (whole?: WholeTables) => pathMatches(states, paths, () => true, limit, method, whole).map((e) => e.endpoint.id);
          const table = new WholeTables(states);
          assert.deepEqual(ids(table), ids());
          // The exact table built after the path table numbers the entries alike.
          for (const s of states) for (const e of s.entries) if (e.endpoint.summary) assert.ok(table.exactMatches(exactKey(e.endpoint.summary), () => true).includes(e));
        },
      ),
      { numRuns: 200 },
    );
  });
});
