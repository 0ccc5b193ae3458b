// Redaction from its contract: any secret, in every form an API may echo it (as sent, percent- or
// form-encoded, JSON-escaped, re-serialized), at any place in any JSON shape, and in any cut of
// the text, never reaches the output, not even its first characters.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MIN_PARTIAL, REDACTED, isSensitiveHeader, redactAndCut, redactTail, redactText, redactValue } from '../../src/invoke/redact.ts';

// A secret always holds this core, so "no part of the secret shows" is checkable whatever
// characters surround it (a secret of only `","` would be found in any JSON by chance).
const CORE = 'Q7Zk';
const hostile = fc.constantFrom('"', '\\', '%', '+', ' ', '/', '&', '<', '>', "'", '\n', '\r', '\t', '\b', '\f', '\u00e9', '\u20ac', '\u{1F600}', '=', '?', '#', 'a', '0');
const secretArb = fc
  .tuple(fc.array(hostile, { maxLength: 6 }), fc.array(hostile, { maxLength: 6 }))
  .map(([pre, post]) => `${pre.join('')}${CORE}${post.join('')}`);

/** Every way an API may send the secret back. */
function forms(s: string): string[] {
  const json = JSON.stringify(s).slice(1, -1);
  return [
    s,
    encodeURIComponent(s),
    encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    new URLSearchParams({ k: s }).toString().slice(2),
    encodeURIComponent(encodeURIComponent(s)),
    json,
    JSON.stringify(json).slice(1, -1),
    JSON.stringify(JSON.stringify(s)).slice(1, -1),
    Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
    s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;'),
    s.replace(/'/g, '&#x27;'),
    s.replace(/'/g, '&apos;'),
    JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/'),
  ];
}

function leaks(out: string, secret: string): boolean {
  return out.includes(CORE) || out.includes(secret);
}

describe('redaction of every form', () => {
  test('an echoed secret is redacted as sent, percent-, form- and JSON-escaped, and re-serialized, at any place', () => {
    fc.assert(
      fc.property(secretArb, fc.string(), fc.string(), fc.nat(12), (secret, before, after, which) => {
        const form = forms(secret)[which]!;
        const out = redactText(`${before.replaceAll('Q', '')}${form}${after.replaceAll('Q', '')}`, [secret]);
        assert.ok(!leaks(out, secret), `form ${which} of ${JSON.stringify(secret)} leaked: ${out}`);
        assert.ok(out.includes(REDACTED));
      }),
      { numRuns: 400 },
    );
  });

  test('every occurrence is redacted, not just the first', () => {
    fc.assert(
      fc.property(secretArb, fc.integer({ min: 2, max: 5 }), (secret, n) => {
        const out = redactText(Array.from({ length: n }, () => `x ${secret} y`).join(','), [secret]);
        assert.equal(out.split(REDACTED).length - 1, n);
        assert.ok(!leaks(out, secret));
      }),
    );
  });

  test('a secret anywhere in any JSON shape, keys included, is redacted in the value and in its serialization', () => {
    const shape = (secret: string): fc.Arbitrary<unknown> =>
      fc.letrec<{ node: unknown }>((tie) => ({
        node: fc.oneof(
          { depthSize: 'small' },
          fc.constant(secret),
          fc.string().map((s) => `${s.replaceAll('Q', '')}${secret}`),
          fc.integer(),
          fc.array(tie('node'), { maxLength: 4 }),
          fc.dictionary(fc.oneof(fc.constant(secret), fc.string().map((s) => s.replaceAll('Q', ''))), tie('node'), { maxKeys: 4 }),
        ),
      })).node;
    fc.assert(
      fc.property(secretArb.chain((s) => fc.tuple(fc.constant(s), shape(s))), ([secret, value]) => {
        const redacted = redactValue(value, [secret]);
        assert.ok(!leaks(JSON.stringify(redacted) ?? '', secret));
        // And a text that is the serialization (the secret JSON-escaped) is redacted too.
        assert.ok(!leaks(redactText(JSON.stringify(value) ?? '', [secret]), secret));
      }),
      { numRuns: 300 },
    );
  });

  test('cut at any length, the shown text never ends with the first 4 or more characters of a secret', () => {
    fc.assert(
      fc.property(secretArb, fc.string(), fc.nat(8), fc.nat(200), (secret, before, which, at) => {
        const text = `${before.replaceAll('Q', '')}${forms(secret)[which]!} and after`;
        const { text: shown } = redactAndCut(text, [secret], at);
        assert.ok(!shown.includes(CORE), `${JSON.stringify(shown)} shows the secret`);
        // No prefix of MIN_PARTIAL+ characters of the secret (as sent) is left at the end.
        for (let k = MIN_PARTIAL; k <= secret.length; k++) assert.ok(!shown.endsWith(secret.slice(0, k)), `${JSON.stringify(shown)} ends with a prefix`);
        assert.ok(shown.length <= Math.max(at, 0) + REDACTED.length);
      }),
      { numRuns: 400 },
    );
  });

  test('a text cut before a secret starts keeps all of its own text', () => {
    assert.deepEqual(redactAndCut('hello world SECRET-TOKEN', ['SECRET-TOKEN'], 11), { text: 'hello world', cut: true });
    assert.deepEqual(redactAndCut('hello', ['SECRET-TOKEN'], 11), { text: 'hello', cut: false });
    assert.deepEqual(redactAndCut('hello SECRET-TOKEN', ['SECRET-TOKEN'], 100), { text: `hello ${REDACTED}`, cut: false });
  });

  test('a partial secret of fewer than 4 characters at the end, or one followed by other text, stays', () => {
    assert.equal(redactTail('value SEC', ['SECRET-TOKEN']), 'value SEC');
    assert.equal(redactTail('value SECR', ['SECRET-TOKEN']), `value ${REDACTED}`);
    assert.equal(redactTail('value SECR then more', ['SECRET-TOKEN']), 'value SECR then more');
    // A cut inside an escape sequence after the prefix.
    assert.equal(redactTail('"tok\\"SE\\', ['tok"SE\\CRET']), `"${REDACTED}`);
    assert.equal(redactTail('x=ab%2Fcd%2', ['ab/cd/efgh']), `x=${REDACTED}`);
  });

  test('a value without secrets comes back equal, whatever its shape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.deepEqual(redactValue(value, ['Q7Zk-not-there']), value);
        assert.deepEqual(redactValue(value, []), value);
      }),
    );
  });

  test('a __proto__ key from a parsed body stays a key of the copy, redacted like any other', () => {
    const value = JSON.parse('{"a":{"__proto__":{"t":"tok-1234567"}}}') as unknown;
    const out = redactValue(value, ['tok-1234567']);
    assert.equal(JSON.stringify(out), `{"a":{"__proto__":{"t":"${REDACTED}"}}}`);
    assert.deepEqual(redactValue(value, ['Q7Zk-not-there']), value);
  });

  test('only the secret is redacted: a look-alike is not', () => {
    assert.equal(redactText('ab+cd and ab%20cd', ['abxcd']), 'ab+cd and ab%20cd');
    assert.equal(redactText('ab\\\\cd and ab\\cd', ['abxcd']), 'ab\\\\cd and ab\\cd');
    assert.equal(redactText('ab\\\\cd', ['ab\\cd']), REDACTED);
    assert.equal(redactText('ab+cd', ['ab cd']), REDACTED);
    assert.equal(redactText('k=ab%2fcd', ['ab/cd']), `k=${REDACTED}`);
  });

  test('a partial form at the cut: escaped backslashes, a half \\u escape, a half percent escape, a half HTML entity', () => {
    assert.equal(redactTail('x abcd\\\\', ['abcd"efgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd\\', ['abcd"efgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd\\u00', ['abcd\u00e9fgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd\\u00e', ['abcd\u00e9fgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd%E2%8', ['abcd\u20acfgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd%E2', ['abcd\u20acfgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd%25E', ['abcd\u20acfgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd&qu', ['abcd"efgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd&quo', ['abcd"efgh']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd&#3', ["abcd'efgh"]), `x ${REDACTED}`);
    assert.equal(redactTail('x abcd&', ['abcd&efgh']), `x ${REDACTED}`);
    // Not a partial escape: ordinary text after the prefix.
    assert.equal(redactTail('x abcd zz', ['abcd"efgh']), 'x abcd zz');
    assert.equal(redactTail('x abcd\\q', ['abcd"efgh']), 'x abcd\\q');
  });

  test('a whole secret of 4 characters at the end counts as its own prefix; a whole secret followed by text is left to redactText', () => {
    assert.equal(redactTail('x abcd', ['abcd']), `x ${REDACTED}`);
    assert.equal(redactTail('x abcdefgh and more', ['abcdefgh']), 'x abcdefgh and more');
    assert.equal(redactTail('abcdefg', ['abcdefgh']), REDACTED);
  });

  test('a cut keeps whole characters and whole redaction markers, and says whether it cut', () => {
    assert.deepEqual(redactAndCut('hello', [], 5), { text: 'hello', cut: false });
    assert.deepEqual(redactAndCut('hello world', [], 5), { text: 'hello', cut: true });
    assert.deepEqual(redactAndCut('ab\u{1F600}cd', [], 3), { text: 'ab', cut: true });
    assert.deepEqual(redactAndCut('ab\u{1F600}cd', [], 4), { text: 'ab\u{1F600}', cut: true });
    // The first and last high surrogates.
    assert.deepEqual(redactAndCut('a\u{10000}b', [], 2), { text: 'a', cut: true });
    assert.deepEqual(redactAndCut('a\u{10FFFF}b', [], 2), { text: 'a', cut: true });
    assert.deepEqual(redactAndCut('\u{10000}b', [], 0), { text: '', cut: true });
    assert.deepEqual(redactAndCut('ab SECRETTOKEN cd', ['SECRETTOKEN'], 6), { text: `ab ${REDACTED}`, cut: true });
    assert.deepEqual(redactAndCut('SECRETTOKEN cd', ['SECRETTOKEN'], 4), { text: REDACTED, cut: true });
    assert.deepEqual(redactAndCut('ab SECRETTOKEN cdefgh', ['SECRETTOKEN'], 16), { text: `ab ${REDACTED} cd`, cut: true });
  });

  test('a 3-character secret is still redacted; shorter ones are left to the config check', () => {
    assert.equal(redactText('a-xyz-b', ['xyz']), `a-${REDACTED}-b`);
    assert.equal(redactText('a-xy-b', ['xy']), 'a-xy-b');
  });

  test('the longer of two overlapping secrets is redacted whole', () => {
    assert.equal(redactText('k=abcdef', ['abc', 'abcdef']), `k=${REDACTED}`);
  });

  test('credential headers are sensitive whatever their case, and spec-declared key headers too', () => {
    for (const h of ['Authorization', 'COOKIE', 'Set-Cookie', 'x-api-key', 'Proxy-Authorization', 'api-key', 'X-Auth-Token']) assert.ok(isSensitiveHeader(h));
    assert.ok(!isSensitiveHeader('content-type'));
    assert.ok(isSensitiveHeader('X-Secret-Key', new Set(['x-secret-key'])));
  });
});
