// The API-conventions factor, through relations its contract fixes (generated endpoints and
// queries): it grows as the square of the query's coverage, a deprecated endpoint gets the
// deprecation weight times what it would get otherwise, a named method multiplies by the same- or
// other-method weight, each rule family switched off takes out exactly its own multiplier, and an
// endpoint that spells the query's intent is never below one that spells another.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { factor, verbAgreement } from '../../src/catalog/factor.ts';
import { makeEntry, parseQuery, withRules } from '../../src/catalog/search.ts';
import { WEIGHTS } from '../../src/catalog/weights.ts';
import type { Entry } from '../../src/catalog/document.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { endpoint } from './fixtures.ts';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const entryArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('users', 'messages', '{id}', 'me', 'send', 'list', 'pods'), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  operationId: fc.option(fc.constantFrom('listUsers', 'getMessage', 'createPod', 'deleteUser', 'sendMessage', 'removeWatchers', 'PostUsers'), { nil: undefined }),
  deprecated: fc.boolean(),
}).map((input) => makeEntry(endpoint('s', 'c', input), 1));
const queryArb = fc.array(fc.constantFrom('list', 'get', 'create', 'delete', 'update', 'send', 'all', 'users', 'user', 'message', 'pods', 'rent', 'a', 'the', 'my', 'GET', 'POST', '/users'), { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
// A summary of no terms never reaches the factor (the index keeps none for it).
const summaryArb = fc.option(fc.subarray(['user', 'messag', 'pod', 'list', 'all', 'thing'], { minLength: 1 }), { nil: undefined });
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));

describe('factor', () => {
  it('grows as the square of coverage, and takes the deprecation weight for a deprecated endpoint', () => {
    fc.assert(
      fc.property(entryArb, queryArb, fc.double({ min: 0, max: 1, noNaN: true }), summaryArb, (entry, query, c, summary) => {
        const q = parseQuery(query);
        const full = factor(entry, q, 1, summary);
        assert.ok(close(factor(entry, q, c, summary), c * c * full), query);
        const current: Entry = { ...entry, endpoint: { ...entry.endpoint, deprecated: false } };
        const deprecated: Entry = { ...entry, endpoint: { ...entry.endpoint, deprecated: true } };
        assert.ok(close(factor(deprecated, q, 1, summary), WEIGHTS.deprecated * factor(current, q, 1, summary)), query);
      }),
      { numRuns: 1000 },
    );
  });

  it('multiplies by the same- or other-method weight when the query names a method', () => {
    fc.assert(
      fc.property(entryArb, queryArb, fc.constantFrom(...METHODS), summaryArb, (entry, query, method, summary) => {
        const plain = parseQuery(query);
        const { method: _, ...unnamed } = plain;
        const named = { ...unnamed, method };
        const want = factor(entry, unnamed, 1, summary) * (entry.endpoint.method === method ? WEIGHTS.namedMethod.same : WEIGHTS.namedMethod.other);
        assert.ok(close(factor(entry, named, 1, summary), want), `${method} ${query}`);
      }),
      { numRuns: 600 },
    );
  });

  it('takes out exactly the shape, summary-fit or path-word multiplier when that family is off', () => {
    fc.assert(
      fc.property(entryArb, queryArb, summaryArb, (entry, query, summary) => {
        const q = parseQuery(query);
        const on = factor(entry, q, 1, summary);
        const ratio = (family: 'shape' | 'summaryFit' | 'pathWords') => on / withRules({ [family]: false }, () => factor(entry, q, 1, summary));
        if (on === 0) return;
        // Shape: collections for "list", "create" and plurals, items for get, update, delete.
        const wantsCollection = q.intent === 'list' || q.intent === 'create' || (q.plural && q.intent !== 'update');
        const wantsItem = !wantsCollection && (q.intent === 'get' || q.intent === 'update' || q.intent === 'delete');
        const shape = wantsCollection ? (entry.item ? WEIGHTS.shape.itemForCollection : 1) : wantsItem ? (entry.item ? 1 : WEIGHTS.shape.collectionForItem) : 1;
        assert.ok(close(ratio('shape'), shape), `shape ${query}`);
        // Summary fit: 1 + weight x (shared / summary terms) x (shared / terms said).
        let fit = 1;
        if (summary && q.said.size > 0) {
          const shared = summary.filter((t) => q.said.has(t)).length;
          fit = 1 + WEIGHTS.summaryFit * (shared / summary.length) * (shared / q.said.size);
        }
        assert.ok(close(ratio('summaryFit'), fit), `summary fit ${query}`);
        // Path words: the resource named, and the share of path words said (one said word of prior evidence).
        let words = 1;
        if (entry.resource.length > 0) words *= 1 + WEIGHTS.resource * (entry.resource.filter((t) => q.weights.has(t)).length / entry.resource.length);
        if (entry.pathWords.length > 0) words *= WEIGHTS.pathWordsBase + (1 - WEIGHTS.pathWordsBase) * ((entry.pathWords.filter((t) => q.weights.has(t)).length + 1) / (entry.pathWords.length + 1));
        assert.ok(close(ratio('pathWords'), words), `path words ${query}`);
      }),
      { numRuns: 800 },
    );
  });

  it('never ranks an endpoint that spells the query\'s intent below the same endpoint spelling another', () => {
    fc.assert(
      fc.property(entryArb, fc.constantFrom('list users', 'get a user', 'create a pod', 'delete the user', 'update a message', 'send a message'), summaryArb, (entry, query, summary) => {
        const q = parseQuery(query);
        const intent = q.intent!;
        const other = intent === 'delete' ? 'create' : 'delete';
        const agrees = factor({ ...entry, verbs: [intent] }, q, 1, summary);
        const silent = factor({ ...entry, verbs: [] }, q, 1, summary);
        const disagrees = factor({ ...entry, verbs: [other] }, q, 1, summary);
        assert.ok(agrees >= silent && agrees > disagrees, query);
      }),
      { numRuns: 400 },
    );
  });
});

describe('factor, what the query asks against what the endpoint is', () => {
  const withMethod = (entry: Entry, method: HttpMethod, verbs: Entry['verbs']): Entry => ({ ...entry, verbs, endpoint: { ...entry.endpoint, method } });

  it('weighs each method by how well it fits the intent, and what the endpoint\'s own words say', () => {
    fc.assert(
      fc.property(entryArb, fc.constantFrom('list users', 'get a user', 'create a pod', 'delete the user', 'update a message', 'send a message', 'open a ticket'), fc.constantFrom(...METHODS), summaryArb, (entry, query, method, summary) => {
        const q = parseQuery(query);
        const intent = q.intent!;
        const other = intent === 'delete' ? 'create' : 'delete';
        const fitOf = (m: HttpMethod) => (WEIGHTS.methodFit[intent] as Partial<Record<HttpMethod, number>>)[m] ?? WEIGHTS.methodFitDefault;
        const f = (m: HttpMethod, verbs: Entry['verbs']) => factor(withMethod(entry, m, verbs), q, 1, summary);
        const fit = fitOf(method);
        const base = f('GET', [intent]) / (q.hinted ? Math.sqrt(fitOf('GET')) : fitOf('GET'));
        assert.ok(close(f(method, [intent]), base * (q.hinted ? Math.sqrt(fit) : fit)), `${method} ${query}`);
        if (q.hinted) {
          assert.ok(close(f(method, [intent]) / f(method, []), WEIGHTS.hintedVerb.agrees), query);
          assert.ok(close(f(method, [other]), f(method, [])), query);
        } else {
          assert.ok(close(f(method, [other]) / f(method, [intent]), WEIGHTS.verb.disagrees / WEIGHTS.verb.agrees), query);
          assert.ok(close(f(method, []) / f(method, [intent]), (fit < 1 ? WEIGHTS.verb.unsaid : 1) / WEIGHTS.verb.agrees), `${method} ${query}`);
          assert.ok(close(withRules({ verbAgreement: false }, () => f(method, [other])), f(method, [intent]) / WEIGHTS.verb.agrees), query);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('without an intent, reads a command as not a read nor a removal, and a thing named as a read', () => {
    fc.assert(
      fc.property(entryArb, summaryArb, (entry, summary) => {
        const command = parseQuery('rent a number');
        assert.equal(command.intent, undefined);
        assert.equal(command.imperative, true);
        const f = (q: typeof command, m: HttpMethod, verbs: Entry['verbs']) => factor(withMethod(entry, m, verbs), q, 1, summary);
        assert.ok(close(f(command, 'GET', []) / f(command, 'POST', []), WEIGHTS.imperativeRead));
        assert.ok(close(f(command, 'POST', ['delete']) / f(command, 'POST', []), 0.7));
        assert.ok(close(f(command, 'PUT', ['get']), f(command, 'POST', [])));
        const thing = parseQuery('tax rates');
        assert.equal(thing.intent, undefined);
        assert.equal(thing.imperative, false);
        assert.ok(close(f(thing, 'POST', []) / f(thing, 'GET', []), WEIGHTS.thingNotRead));
        assert.ok(close(withRules({ thingNotRead: false }, () => f(thing, 'POST', [])), f(thing, 'GET', [])));
      }),
      { numRuns: 200 },
    );
  });
});

describe('verbAgreement', () => {
  it('agrees when the endpoint spells the intent, is silent for none or for reading one against many, and disagrees otherwise', () => {
    assert.equal(verbAgreement([], 'get'), 0);
    assert.equal(verbAgreement(['get'], 'get'), 1);
    assert.equal(verbAgreement(['create', 'get'], 'get'), 1);
    assert.equal(verbAgreement(['get'], 'list'), 0);
    assert.equal(verbAgreement(['list'], 'get'), 0);
    assert.equal(verbAgreement(['list'], 'delete'), -1);
    assert.equal(verbAgreement(['get'], 'create'), -1);
    assert.equal(verbAgreement(['delete'], 'list'), -1);
  });
});
