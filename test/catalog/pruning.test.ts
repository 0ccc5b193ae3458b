// Pruning is safe: the multiplier the ranking gives never exceeds the bound derived from the weights
// table, and a search that skips indexes and results it has proved cannot reach the page answers
// exactly as one that ranks everything (generated catalogues, and real API descriptions).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { factor } from '../../src/catalog/factor.ts';
import { factorBound, makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { textTerms } from '../../src/catalog/text.ts';
import { importSpec } from '../../src/import/index.ts';
import type { HttpMethod, ImportedSpec } from '../../src/model/index.ts';
import { CORPUS } from '../search/harness.ts';
import { endpoint, spec } from './fixtures.ts';

const WORDS = ['list', 'get', 'create', 'delete', 'update', 'send', 'all', 'my', 'a', 'the', 'user', 'users', 'message', 'channel', 'pods', 'invoice', 'info', 'current'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const queryArb = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
  fc.tuple(fc.constantFrom(...METHODS), fc.constantFrom('/users', '/users/{id}', '/messages')).map(([m, p]) => `${m} ${p}`),
);
const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('users', 'messages', '{id}', 'me', 'channels', 'info', 'pods'), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  summary: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' ')),
  operationId: fc.array(fc.constantFrom('list', 'get', 'Users', 'Message', 'create', 'Info'), { maxLength: 3 }).map((w) => w.join('')),
  deprecated: fc.boolean(),
});

describe('the ranking bounds', () => {
  it('never lets the factor exceed factorBound, whatever the endpoint, query and coverage', () => {
    fc.assert(
      fc.property(endpointArb, queryArb, fc.double({ min: 0, max: 1, noNaN: true }), (input, query, coverage) => {
        const e = endpoint('s', 'c', input);
        const entry = makeEntry(e, 1);
        const q = parseQuery(query);
        const summary = [...new Set(textTerms(input.summary))];
        const f = factor(entry, q, coverage, summary.length > 0 ? summary : undefined);
        return f <= factorBound(q) * (1 + 1e-12);
      }),
      { numRuns: 2000 },
    );
  });
});

function firstPage(catalog: Catalog, query: string, limit = 10): string[] {
  return catalog.search(query, {}, limit).map((h) => `${h.endpoint.id} ${h.score}`);
}

describe('pruned search', () => {
  it('answers exactly as the exhaustive ranking on generated catalogues of several specs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(endpointArb, { minLength: 1, maxLength: 20 }), { minLength: 2, maxLength: 6 }),
        queryArb,
        fc.integer({ min: 1, max: 8 }),
        (specInputs, query, limit) => {
          const specs: ImportedSpec[] = specInputs.map((inputs, i) => {
            const seen = new Set<string>();
            return spec(`s${i}`, inputs.filter((x) => !seen.has(`${x.method} ${x.path}`) && seen.add(`${x.method} ${x.path}`)));
          });
          const pruned = new Catalog(specs, { maxIndexesSearched: Infinity, budgetMs: Infinity, budgetPostings: Infinity, fallbackMs: Infinity });
          const exhaustive = new Catalog(specs, { prune: false });
          assert.deepEqual(firstPage(pruned, query, limit), firstPage(exhaustive, query, limit), query);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers exactly as the exhaustive ranking over many specs, where the API cover weighs in', () => {
    // Topic words held by a few specs each: the specs' covers of a query differ widely.
    const TOPICS = ['zebra', 'quartz', 'falcon', 'maple', 'cobalt', 'orchid', 'ember', 'tundra'];
    const manyQuery = fc.array(fc.constantFrom(...WORDS, ...TOPICS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
    const specArb = fc.tuple(fc.array(endpointArb, { minLength: 1, maxLength: 4 }), fc.subarray(TOPICS, { maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 150, maxLength: 200 }), manyQuery, fc.integer({ min: 1, max: 8 }), (specInputs, query, limit) => {
        const specs: ImportedSpec[] = specInputs.map(([inputs, topics], i) => {
          const seen = new Set<string>();
          const unique = inputs.filter((x) => !seen.has(`${x.method} ${x.path}`) && seen.add(`${x.method} ${x.path}`));
          return spec(`s${i}`, unique.map((x, j) => ({ ...x, summary: `${x.summary} ${topics.slice(0, j + 1).join(' ')}` })));
        });
        const pruned = new Catalog(specs, { maxIndexesSearched: Infinity, budgetMs: Infinity, budgetPostings: Infinity, fallbackMs: Infinity });
        const exhaustive = new Catalog(specs, { prune: false });
        assert.deepEqual(firstPage(pruned, query, limit), firstPage(exhaustive, query, limit), query);
      }),
      { numRuns: 20 },
    );
  });

  const files = [
    'openapi-3.0/digitalocean/specification/DigitalOcean-public.v2.yaml',
    'openapi-3.0/twilio/twilio_api_v2010.yaml',
    'swagger-2.0/slack/slack_web_openapi_v2.json',
    'openapi-3.0/spotify/official-spotify-open-api.yml',
  ];
  const present = files.every((f) => existsSync(path.join(CORPUS, f)));
  it('answers exactly as the exhaustive ranking on real API descriptions, for queries made of their own words', { skip: present ? false : `corpus not found at ${CORPUS}` }, async () => {
    const specs: ImportedSpec[] = [];
    for (const f of files) {
      const outcome = await importSpec(path.join(CORPUS, f), { name: path.basename(path.dirname(f)), collection: 'c' });
      assert.ok(outcome.ok);
      specs.push(outcome.spec);
    }
    const pruned = new Catalog(specs, { maxIndexesSearched: Infinity, budgetMs: Infinity, budgetPostings: Infinity, fallbackMs: Infinity });
    const exhaustive = new Catalog(specs, { prune: false });
    const vocabulary = [...new Set(specs.flatMap((s) => s.endpoints.flatMap((e) => (e.summary ?? '').split(/\s+/))))].filter((w) => /^[a-z]{3,}$/i.test(w));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 4 }), (words) => {
        const query = words.join(' ');
        assert.deepEqual(firstPage(pruned, query), firstPage(exhaustive, query), query);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the search time budget', () => {
  it('stops a search over many specs at the page it has once its time or work budget is spent, never with no answer', () => {
    const specs = Array.from({ length: 40 }, (_, i) =>
      spec(`s${i}`, [
        { method: 'GET', path: `/widgets${i}`, summary: `List widgets of kind ${i}` },
        { method: 'POST', path: `/widgets${i}`, summary: 'Create a widget' },
      ]),
    );
    const full = new Catalog(specs).search('list widgets', {}, 10);
    for (const options of [{ budgetMs: 0 }, { budgetPostings: 0 }]) {
      const spent = new Catalog(specs, options).search('list widgets', {}, 10);
      assert.ok(spent.length > 0, 'no answer at all');
      assert.ok(new Set(spent.map((h) => h.endpoint.spec)).size < new Set(full.map((h) => h.endpoint.spec)).size, JSON.stringify(options));
    }
  });
});
