// Compact look-ups of one spec's entries: by endpoint id, and by exact summary or operationId.
// Held to what plain Maps answer (the form they replace), over generated keys and specs, and
// including keys that share a hash.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { KeyTable, hashKey } from '../../src/catalog/key-table.ts';
import { exactKey } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import type { Entry } from '../../src/catalog/search.ts';
import { spec } from './fixtures.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const word = fc.constantFrom('list', 'get', 'create', 'delete', 'user', 'users', 'repo', 'issue', 'Issue', 'pet', 'a', 'the', 'ünïcode');
const words = fc.array(word, { minLength: 0, maxLength: 4 }).map((w) => w.join(' '));
const endpointInput = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('users', 'repos', '{id}', 'issues', 'pets', 'x'), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  summary: fc.option(words, { nil: undefined }),
  operationId: fc.option(fc.array(word, { maxLength: 3 }).map((w) => w.join('_')), { nil: undefined }),
});

describe('KeyTable', () => {
  it('gives every value stored under a key among that key\'s candidates, ascending, and nothing not stored under its hash', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.nat({ max: 50 })), { maxLength: 60 }), fc.array(fc.string({ maxLength: 8 }), { maxLength: 10 }), (pairs, probes) => {
        const table = new KeyTable(pairs);
        for (const key of [...pairs.map(([k]) => k), ...probes]) {
          const got = table.candidates(key);
          assert.deepEqual(got, [...got].sort((a, b) => a - b));
          assert.equal(new Set(got).size, got.length);
          const want = new Set(pairs.filter(([k]) => hashKey(k) === hashKey(key)).map(([, v]) => v));
          assert.deepEqual(new Set(got), want);
        }
      }),
    );
  });

  it('keeps apart keys whose hashes collide only in what the caller checks', () => {
    // Two different strings with one FNV-1a hash: both values come back for either key.
    const a = 'costarring';
    const b = 'liquid';
    assert.equal(hashKey(a), hashKey(b));
    const table = new KeyTable([[a, 1], [b, 2], ['other', 3]]);
    assert.deepEqual(table.candidates(a), [1, 2]);
    assert.deepEqual(table.candidates(b), [1, 2]);
    assert.deepEqual(table.candidates('other'), [3]);
    assert.deepEqual(table.candidates('absent'), []);
  });

  it('refuses values it cannot pack with a hash', () => {
    assert.throws(() => new KeyTable([['k', 2 ** 21]]), RangeError);
    assert.throws(() => new KeyTable([['k', -1]]), RangeError);
    assert.throws(() => new KeyTable([['k', 1.5]]), RangeError);
  });
});

describe('a spec state', () => {
  it('finds each entry by its id and by its exact summary or operationId as Maps would', () => {
    fc.assert(
      fc.property(fc.array(endpointInput, { maxLength: 30 }), fc.array(words, { maxLength: 5 }), (inputs, probes) => {
        const state = new SpecState(spec('s', inputs));
        // The reference: what the Maps this replaces held.
        const byId = new Map<string, Entry>();
        const exact = new Map<string, Entry[]>();
        for (const entry of state.entries) {
          byId.set(entry.endpoint.id, entry);
          const keys = new Set<string>();
          if (entry.endpoint.summary) keys.add(exactKey(entry.endpoint.summary));
          if (entry.endpoint.operationId) keys.add(exactKey(entry.endpoint.operationId));
          for (const k of keys) if (k) exact.set(k, [...(exact.get(k) ?? []), entry]);
        }
        for (const input of inputs) {
          const id = `s:${input.method}:${input.path}`;
          assert.equal(state.byId.get(id), byId.get(id));
        }
        assert.equal(state.byId.get('s:GET:/absent'), undefined);
        for (const key of [...exact.keys(), ...probes.map(exactKey)]) assert.deepEqual(state.exact(key), exact.get(key));
      }),
    );
  });

  it('tells apart two operationIds whose keys share a hash', () => {
    const state = new SpecState(spec('s', [{ method: 'GET', path: '/a', operationId: 'costarring' }, { method: 'GET', path: '/b', operationId: 'liquid' }]));
    assert.deepEqual(state.exact('costarring')?.map((e) => e.endpoint.path), ['/a']);
    assert.deepEqual(state.exact('liquid')?.map((e) => e.endpoint.path), ['/b']);
  });

  it('keeps the first of two endpoints with one id', () => {
    const state = new SpecState(spec('s', [{ method: 'GET', path: '/a', summary: 'first' }, { method: 'GET', path: '/a', summary: 'second' }]));
    assert.equal(state.entries.length, 1);
    assert.equal(state.byId.get('s:GET:/a')?.endpoint.summary, 'first');
  });
});
