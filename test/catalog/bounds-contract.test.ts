// The pruning bounds derived from the weights table (weights.ts): no endpoint's factor ever exceeds
// `factorBound` for the query, and the bound is reached by an endpoint that fits the query in every
// way; what late-checked terms can multiply a text score by is the product `lateGainBound` says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { factor } from '../../src/catalog/factor.ts';
import { makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { textTerms } from '../../src/catalog/text.ts';
import { WEIGHTS, factorBound, lateGainBound } from '../../src/catalog/weights.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { endpoint } from './fixtures.ts';

const WORDS = ['list', 'get', 'create', 'delete', 'update', 'send', 'all', 'my', 'user', 'users', 'message', 'pods', 'invoice', 'rename'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const queryArb = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
  fc.tuple(fc.constantFrom(...METHODS), fc.constantFrom('/users', '/users/{id}', '/messages'), fc.constantFrom('', ' send', ' list')).map(([m, p, v]) => `${m} ${p}${v}`),
);
const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('users', 'messages', '{id}', 'me', 'pods', 'invoices'), { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  summary: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((w) => w.join(' ')),
  operationId: fc.array(fc.constantFrom('list', 'get', 'Users', 'Message', 'create', 'send', 'rename'), { maxLength: 3 }).map((w) => w.join('')),
  deprecated: fc.boolean(),
});

describe('factorBound', () => {
  it('bounds the factor of any endpoint for the query, whatever its coverage (generated)', () => {
    fc.assert(
      fc.property(endpointArb, queryArb, fc.double({ min: 0, max: 1, noNaN: true }), (input, query, coverage) => {
        const q = parseQuery(query);
        const summary = [...new Set(textTerms(input.summary))];
        const f = factor(makeEntry(endpoint('s', 'c', input), 1), q, coverage, summary.length > 0 ? summary : undefined);
        assert.ok(f <= factorBound(q) * (1 + 1e-12), `${f} > ${factorBound(q)} for "${query}"`);
      }),
      { numRuns: 1500 },
    );
  });

  it('is the product of the multipliers above 1 the query can earn', () => {
    const base = (1 + WEIGHTS.resource) * (1 + WEIGHTS.summaryFit);
    assert.equal(factorBound({ hinted: false }), base);
    assert.equal(factorBound({ hinted: false, method: 'GET' }), base * WEIGHTS.namedMethod.same);
    assert.equal(factorBound({ hinted: false, intent: 'list' }), base * WEIGHTS.verb.agrees);
    assert.equal(factorBound({ hinted: true, intent: 'create' }), base * WEIGHTS.hintedVerb.agrees);
    assert.equal(factorBound({ hinted: false, intent: 'delete', method: 'DELETE' }), base * WEIGHTS.verb.agrees * WEIGHTS.namedMethod.same);
  });

  it('is nearly reached by an endpoint that fits the query in every way', () => {
    const q = parseQuery('list users');
    const e = makeEntry(endpoint('s', 'c', { method: 'GET', path: '/users', summary: 'List users', operationId: 'listUsers' }), 1);
    const f = factor(e, q, 1, [...new Set(textTerms('List users'))]);
    assert.ok(f > factorBound(q) / 2 && f <= factorBound(q), `${f} of ${factorBound(q)}`);
  });
});

describe('lateGainBound', () => {
  it('is the product of (1 + gain x weight) over the weights, 1 for none', () => {
    assert.equal(lateGainBound([]), 1);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 2, noNaN: true }), { maxLength: 6 }), (weights) => {
        const expected = weights.reduce((p, w) => p * (1 + WEIGHTS.lateTermGain * w), 1);
        assert.ok(Math.abs(lateGainBound(weights) - expected) <= 1e-12 * expected);
        assert.ok(lateGainBound(weights) >= 1);
      }),
      { numRuns: 200 },
    );
  });
});
