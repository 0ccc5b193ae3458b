// What an endpoint's path says, from its contract, over generated paths: its path words are the
// distinct terms of its literal segments (placeholders and `:name` segments aside, verbs aside),
// its resource the terms of the last literal segment that has any; identifier-like query parts and
// self segments; and a few edges of the ranking built on them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { exactMatches } from '../../src/catalog/direct-matches.ts';
import { factor } from '../../src/catalog/factor.ts';
import { buildIndex, exactKey, makeEntry, parseQuery, pathTerms, withRules } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { INTENT_TERMS } from '../../src/catalog/text.ts';
import { endpoint, spec } from './fixtures.ts';

const segmentArb = fc.constantFrom('pods', '{name}', ':id', 'list', 'payment_intents', 'v1', 'delete', 'me', 'status', 'userId', 'create');
const entryOf = (path: string, operationId?: string) => makeEntry(endpoint('s', 'c', { method: 'GET', path, ...(operationId ? { operationId } : {}) }), 1);

describe('path facts', () => {
  it('are the literal segments\' terms without verbs, and the last literal segment\'s as the resource', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join('/')}`;
        const entry = entryOf(path);
        const literal = segments.filter((s) => !s.includes('{') && !s.startsWith(':'));
        const words = [...new Set(literal.flatMap((s) => pathTerms(s)).filter((t) => !INTENT_TERMS.has(t)))];
        assert.deepEqual([...entry.pathWords].sort(), words.sort(), path);
        let resource: string[] = [];
        for (const s of [...literal].reverse()) {
          resource = pathTerms(s).filter((t) => !INTENT_TERMS.has(t));
          if (resource.length > 0) break;
        }
        assert.deepEqual(entry.resource, resource, path);
        const last = segments[segments.length - 1]!;
        assert.equal(entry.item, last.includes('{') || last.startsWith(':') || last === 'me', path);
      }),
      { numRuns: 500 },
    );
  });

  it('read a self segment as one thing, and only a whole one', () => {
    for (const path of ['/users/me', '/users/@me', '/accounts/self', '/Users/Current', '/x/mine']) assert.equal(entryOf(path).item, true, path);
    for (const path of ['/users/meta', '/users/@@me', '/users/xme', '/users/me2', '/users/selfie', '/']) assert.equal(entryOf(path).item, false, path);
    assert.equal(entryOf('/pods/{id}?').item, true);
    assert.equal(entryOf('/pods/{id}?a=').item, true);
  });

  it('leave out query parts that name an identifier, and placeholders however written', () => {
    assert.deepEqual(pathTerms('/x?id'), ['x']);
    assert.deepEqual(pathTerms('/x?file_id'), ['x']);
    assert.deepEqual(pathTerms('/x?valid'), ['x', 'valid']);
    assert.deepEqual(pathTerms('/x?partIds'), ['x', 'part', 'id']);
    assert.deepEqual(pathTerms('/x?identity'), ['x', 'identiti']);
    assert.deepEqual(pathTerms('/users/:id/posts:'), ['user', 'post']);
    assert.deepEqual(pathTerms('/v10/v2beta3/v10beta2/x'), ['x']);
  });

  it('weigh a resource named in part by the share of its words named', () => {
    const entry = entryOf('/payment_intents');
    assert.deepEqual(entry.resource, ['payment', 'intent']);
    const q = parseQuery('payment');
    const half = withRules({ pathWords: false }, () => factor(entry, q, 1, undefined));
    const on = withRules({ pathWordsPrior: true }, () => factor(entry, q, 1, undefined));
    // Resource: 1 + 0.35 x 1/2; path words: 0.55 + 0.45 x (1 + 1) / (2 + 1).
    assert.ok(Math.abs(on / half - (1 + 0.35 / 2) * (0.55 + 0.45 * (2 / 3))) < 1e-12);
    // A path with no words of its own takes no path-word share, whatever the prior.
    const bare = entryOf('/{id}');
    assert.ok(Number.isFinite(withRules({ pathWordsPrior: false }, () => factor(bare, q, 1, undefined))));
  });
});

describe('edges beside the path facts', () => {
  it('find an endpoint by its summary word for word, spec by spec', () => {
    const states = [new SpecState(spec('a', [{ method: 'GET', path: '/pets', summary: 'List pets' }, { method: 'POST', path: '/pets', summary: 'Add a pet' }]))];
    assert.deepEqual(exactMatches(states, exactKey('List pets'), () => true).map((e) => e.endpoint.id), ['a:GET:/pets']);
  });

  it('bound every term of a large vocabulary with a positive, finite best score', () => {
    const entries = Array.from({ length: 700 }, (_, i) => makeEntry(endpoint('s', 'c', { method: 'GET', path: `/t/x${i}`, summary: `word${i} other${i}` }), i + 1, i));
    const built = buildIndex(entries);
    assert.ok(built.best.size > 1400);
    for (const [t, best] of built.best) assert.ok(Number.isFinite(best) && best > 0, t);
  });
});
