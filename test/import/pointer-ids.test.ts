// JSON pointers (RFC 6901) and endpoint ids from their contract, over generated keys.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { escapeToken, joinPointer, lookupPointer } from '../../src/import/pointer.ts';
import { EndpointIds } from '../../src/import/ids.ts';

/** Keys with the characters pointers must escape or encode. */
const key = fc.string({ unit: fc.constantFrom('a', 'b', '/', '~', '0', '1', '%', '{', '}', ' ', 'é'), maxLength: 8 });

describe('JSON pointers', () => {
  test('a pointer joined from any keys finds the value they lead to, and comes back in the same spelling', () => {
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 4 }), fc.integer(), (keys, leaf) => {
        // A document with exactly that chain of keys.
        let doc: unknown = leaf;
        for (const k of [...keys].reverse()) doc = { [k]: doc, other: 1 };
        const pointer = joinPointer('', ...keys);
        // Lookups read $ref fragments, which are URI-encoded: a plain pointer is one only without `%`.
        if (!keys.some((k) => k.includes('%'))) assert.deepEqual(lookupPointer(doc, pointer), { found: true, value: leaf, pointer });
        // The URI-encoded spelling of a $ref finds the same value and gives back the plain one.
        const encoded = `/${keys.map((k) => encodeURIComponent(escapeToken(k))).join('/')}`;
        assert.deepEqual(lookupPointer(doc, encoded), { found: true, value: leaf, pointer });
      }),
    );
  });

  test('escaping: ~ becomes ~0 and / becomes ~1, in that order, and nothing else changes', () => {
    fc.assert(
      fc.property(key, (k) => {
        const escaped = escapeToken(k);
        assert.equal(escaped, k.replaceAll('~', '~0').replaceAll('/', '~1'));
        assert.equal(escaped.includes('/'), false);
      }),
    );
    assert.equal(escapeToken('~1'), '~01', 'a literal ~1 is not a slash');
    assert.equal(joinPointer('/base', 'a/b', 3), '/base/a~1b/3');
    assert.equal(joinPointer('/base'), '/base');
  });

  test('a missing key says how far the walk got; a pointer not starting with / finds nothing', () => {
    const doc = { a: { b: [10, 20] }, 'x/y': { '~': 1 }, n: null };
    assert.deepEqual(lookupPointer(doc, '/a/b/1'), { found: true, value: 20, pointer: '/a/b/1' });
    assert.deepEqual(lookupPointer(doc, '/a/c/d'), { found: false, at: '/a' });
    assert.deepEqual(lookupPointer(doc, '/a/b/1/z'), { found: false, at: '/a/b/1' });
    assert.deepEqual(lookupPointer(doc, '/n/x'), { found: false, at: '/n' });
    assert.deepEqual(lookupPointer(doc, '/x~1y/~0'), { found: true, value: 1, pointer: '/x~1y/~0' });
    assert.deepEqual(lookupPointer(doc, 'a/b'), { found: false, at: '' });
    assert.deepEqual(lookupPointer(doc, ''), { found: true, value: doc, pointer: '' });
    assert.deepEqual(lookupPointer({ '': 5 }, '/'), { found: true, value: 5, pointer: '/' });
    assert.deepEqual(lookupPointer({}, '/'), { found: false, at: '' });
    assert.deepEqual(lookupPointer({ toString: 1 }, '/constructor'), { found: false, at: '' }, 'inherited keys are not there');
    assert.deepEqual(lookupPointer({ '%zz': 2 }, '/%zz'), { found: true, value: 2, pointer: '/%zz' }, 'a bad escape is kept as written');
  });
});

describe('endpoint ids', () => {
  test('ids are unique in any sequence; the first of each method+path is plain unless a numbered id took that name', () => {
    const path = fc.constantFrom('/a', '/a#2', '/a#3', '/b', '/b#2');
    const method = fc.constantFrom('GET' as const, 'POST' as const);
    fc.assert(
      fc.property(fc.array(fc.tuple(method, path), { maxLength: 20 }), (items) => {
        const ids = new EndpointIds();
        const out = items.map(([m, p]) => ids.next('s', m, p));
        assert.equal(new Set(out).size, out.length, out.join(' '));
        const seen = new Set<string>();
        const given = new Set<string>();
        items.forEach(([m, p], i) => {
          const base = `s:${m}:${p}`;
          if (!seen.has(base) && !given.has(base)) assert.equal(out[i], base);
          else assert.ok(out[i]!.startsWith(`${base}#`) && /#\d+$/.test(out[i]!), out[i]);
          seen.add(base);
          given.add(out[i]!);
        });
      }),
    );
  });
});
