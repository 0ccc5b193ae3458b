// YAML read the fast way (js-yaml) gives what the careful way (`yaml`, with its line:column errors,
// warnings and alias bounds) gives: the same value and the same warnings, for generated documents
// in every style `yaml` writes, for the YAML features descriptions use, and for every YAML file of
// the shared corpus; and the common document is read the fast way. What js-yaml reads otherwise
// goes the careful way and keeps its behaviour: aliases and their bound, duplicate keys,
// directives, standard tags, several documents, unknown tags.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDocument, stringify } from 'yaml';
import { fastYaml } from '../../src/import/fast-yaml.ts';
import { decodeUtf8, parseText } from '../../src/import/read.ts';
import { CORPUS, corpusAvailable } from '../search/apis.ts';

/** The careful way, as the reader's contract states it: `yaml`'s document, merge keys on, the last of duplicate keys kept. */
function careful(text: string): { value: unknown; warnings: number } | 'error' {
  const doc = parseDocument(text, { merge: true, uniqueKeys: false, strict: false });
  if (doc.errors.length > 0) return 'error';
  try {
    return { value: doc.toJS({ maxAliasCount: 1000 }), warnings: doc.warnings.length };
  } catch {
    return 'error';
  }
}

function read(text: string): { value: unknown; warnings: number } | 'error' {
  const r = parseText(text);
  return r.ok ? { value: r.value, warnings: r.warnings.length } : 'error';
}

/** Equal values, own-key order and prototypes included (`__proto__` must stay a key). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The text read as the careful way reads it; `fast`: by js-yaml (true), by `yaml` (false), either (undefined). */
function assertSame(text: string, fast?: boolean): void {
  const expected = careful(text);
  const quick = fastYaml(text);
  if (fast !== undefined) assert.equal(quick !== undefined, fast, `${fast ? 'fast' : 'careful'} way expected for ${JSON.stringify(text).slice(0, 200)}`);
  if (quick !== undefined) {
    assert.ok(expected !== 'error' && expected.warnings === 0, `read fast, though the careful way says ${JSON.stringify(expected)}: ${text}`);
    assert.ok(sameValue(quick.value, expected.value), `fast value of ${JSON.stringify(text).slice(0, 200)}`);
  }
  const got = read(text);
  if (expected === 'error' || got === 'error') {
    assert.equal(got, expected, text);
    return;
  }
  assert.ok(sameValue(got.value, expected.value), `value of ${JSON.stringify(text).slice(0, 200)}:\n${JSON.stringify(got.value)}\n${JSON.stringify(expected.value)}`);
  assert.equal(got.warnings, expected.warnings, `warnings of ${text}`);
}

// Keys and strings a YAML reader may take for something else: numbers, booleans and null in their
// spellings, merge and prototype keys, indicators, quotes, line breaks, non-ASCII.
const tricky = fc.constantFrom(
  '', ' ', '~', 'null', 'Null', 'NULL', 'true', 'False', 'yes', 'no', 'on', 'off', 'y', 'n', '0', '-0', '012', '0o17', '0x1F', '0b101',
  '1_000', '1e3', '.5', '+12', '.inf', '-.Inf', '.nan', '2023-09-12', '12:30:00', '<<', '__proto__', 'constructor', '- item', '? q',
  ': c', '#x', '&a', '*b', '!t', '%d', '@x', '`x`', '|', '>', '[x]', '{y}', 'a: b', 'a #b', "it's", '"q"', 'a\nb', 'a\n\nb\n', ' lead',
  'trail ', 'tab\tin', '\\', 'é ✓ 日本', '\u2028',
);
const text = fc.oneof(tricky, fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 12 }));
const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('node'), { maxLength: 4 }),
  map: fc.dictionary(text, tie('node'), { maxKeys: 5 }),
})).map;

/** The styles `yaml` writes a document in: block, flow, every string quoting. */
const STYLES = [
  {},
  { collectionStyle: 'flow' as const },
  { defaultStringType: 'QUOTE_DOUBLE' as const, defaultKeyType: 'PLAIN' as const },
  { defaultStringType: 'QUOTE_SINGLE' as const },
  { defaultStringType: 'BLOCK_LITERAL' as const, lineWidth: 20 },
  { defaultStringType: 'BLOCK_FOLDED' as const, lineWidth: 12, minContentWidth: 4 },
  { indent: 4, indentSeq: false },
];

describe('YAML read fast', () => {
  it('gives the value and warnings of the careful reading for documents written in every style', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(...STYLES), (v, style) => {
        // A comment first: a text that starts with `{` or `[` is JSON to the reader, whatever YAML it is.
        assertSame(`# written by yaml\n${stringify(v, { aliasDuplicateObjects: false, ...style })}`);
      }),
      { numRuns: 400 },
    );
  });

  it('reads the features descriptions use the fast way, to the value of the careful way', () => {
    const documents = [
      'openapi: 3.0.0\ninfo:\n  title: T # a comment\n  version: 2023-09-12\npaths: {}\n',
      'a: |\n  line1\n  line2\nb: |-\n  x\nc: |+\n  y\n\nd: >\n  folded\n  text\ne: >2-\n    indented\n',
      "a: 'it''s'\nb: \"\\u00e9\\t\\x41\\\"\"\nd: \"multi\n  line\"\n",
      'base: &base {a: 1, b: 2}\nx: 1\n',
      'y:\n  <<: {a: 2, b: 3}\n  c: 4\nz:\n  <<: [{a: 1}, {a: 2, e: 3}]\n  d: 2\nw:\n  a: 0\n  <<: {a: 1}\n',
      '~: a\nb: 1\n',
      'null: b\n',
      '? ~\n: explicit null key\n',
      '? explicit\n: key\n? |\n  block key\n: v\n',
      '200: ok\n1.0: one\ntrue: t\n0x10: sixteen\n0o17: fifteen\n-1: minus\n',
      '__proto__:\n  polluted: true\nconstructor: c\n',
      'a: [1, {b: c}, [d, e]]\nb: {x: [], y: {}}\n',
      'a:\n- 1\n- 2\nb:\n  - - nested\n    - seq\n',
      'list:\n  - name: a\n    in: query\n  - {name: b, in: path}\n',
      'nums: [.inf, -.Inf, .nan, 1e3, 1_000, +12, 012, 0b101, 12345678901234567890, 0.1]\n',
      'nums: [1e308, -1.7e308, 1e-999, .5, 5., 1.2.3, ., -., 0x1F, 0o17, +.5e-3]\n',
      'nums: [-0x1F, +0x1F, -0o17, 0X1F, 0b11, -0, +12, -.5, 1E+5, 01.5, 6.02e23, -0.0, 1__0]\n',
      ...['12.5e3', '.5e-3', '5.e2', '1e+3', '1E3', '-1e3', '1e308', '-1.7e308', '1e-400', '1e-400x'].map((n) => `a: ${n}\n`),
      // A colon or a dash that starts a key, not an empty key or a sequence entry.
      'a: 1\n:x: 2\n',
      'm: 1\n-: x\n',
      // Explicit keys, their values after a comment, a blank line, the key's own lines, in a nested mapping.
      '? a\n# c\n: 1\n? b\n\n: 2\n',
      'm:\n  ? a\n  : 1\n  b: 2\n',
      '? a\r\n\r\n: 1\r\n',
      'm:\n  ? |\n    long\n     key\n  : v\n',
      'bools: [True, FALSE, yes, No, on, Off, ~, Null]\n',
      // An ampersand in prose, and an anchor, but no anchor ending in a colon.
      'company: AT&T\nR&D: 1\nterms: Terms &Conditions apply\nq: "Q&A: x"\nentity: a &amp; b\n',
      'a: &anchor1 {x: 1}\nb: [&anchor2 y]\nc: {d: &anchor3 z}\n',
      '- just\n- a list\n',
      'a scalar\n',
      'a:\t1\n',
      'a: 1\r\nb: |\r\n  two\r\n  lines\r\n',
      'ratio: 100%\nnote: "!important"\n',
      // Tag indicators inside words are prose, not tags.
      'twiml: <Response><Say>Hi!</Say></Response>\nnote: Warning!! hot\nx: a!!b\n',
      // An anchor last in the text, with no line end after it.
      'a: 1\nb: &last',
    ];
    for (const d of documents) assertSame(d, true);
  });

  it('leaves to the careful way what js-yaml reads otherwise or refuses', () => {
    const documents = [
      'a: !!str 12\nb: !!int "3"\nc: !!float 1\nd: !!bool "true"\ne: !!null ""\nf: !!map {x: 1}\ng: !!seq [1]\n',
      'a: !<tag:yaml.org,2002:float> 1\n',
      '!!map {a: 1}\n',
      '- !!float 1\n',
      'a:\t!!float 1\n',
      'a:\n  !!str b: c\n',
      'a: [1,!!float 2]\n',
      'a: {b: 1,!!str c: 2}\n',
      'a: {!!str c: 2}\n',
      'a: [!<tag:yaml.org,2002:float> 2]\n',
      'a: \r\n  !!float 1\r\n',
      '%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n',
      '%YAML 1.1\n---\na: yes\n',
      '# c\n%YAML 1.1\n---\na: on\n',
      'x: &a {b: 1}\ny: *a\n',
      'a: 1\na: 2\n',
      '~: a\nnull: b\n',
      'a: !custom x\n',
      '? [a, b]\n: 1\n',
      '? {a: b}\n: 1\n',
      'a: ' + '['.repeat(120) + ']'.repeat(120) + '\n',
      'a: 1\n---\nb: 2\n',
      '',
      '# a comment only\n',
      'a: "unterminated\n',
      'a: b: c\n',
      'c: plain text: with colon\n',
      // A line that starts with a tab after a key without a value.
      'a:\n\t',
      'a: 1\n\tb: 2\n',
      '\ta: 1\n',
      '\t\na: 1\n',
      'a: 1\n \t: b\n',
      // A document end marker, then content without a new start.
      '...\na: 1\n',
      '---\na: 1\n...\n',
      // Numbers too large for a double: Infinity to `yaml`, a string to js-yaml.
      'a: 1e400\n',
      'a: [1, -1e999]\n',
      `a: ${'9'.repeat(400)}\n`,
      `a: 0x${'f'.repeat(300)}\n`,
      `a: 0o${'7'.repeat(400)}\n`,
      // An empty key: js-yaml reads `: a: b` as a mapping, `yaml` refuses it.
      ': empty key\nk: v\n',
      'a:\n  b: 1\n  :  url: x\n',
      '- : a: b\n',
      '-  - : a\n',
      'a: 1\n\t: b\n',
      'a: 1\n:\n',
      'a: 1\n:',
      'a: 1\n:\tb\n',
      'a: 1\r\n: b\r\n',
      'a: 1\r\n:\r\nb: 2\r\n',
      'a: 1\n: b: c\n',
      'a: 1\n-\t: b\n',
      // An explicit key's value at another indentation than the key, or after a line that is not one.
      '? a\n  : 1\n',
      'm:\n  ? a\n: 1\n',
      'a: b\n: 1\n',
      '?x\n: 1\n',
      '?x\n: b: c\n',
      'a:\n  ? a\n: b: c\n',
      // An explicit key in a sequence entry: read alike, but the check sees only a line's indentation.
      '- ? a\n  : 1\n',
      // Numbers too large for a double, with their signs and forms.
      `a: -${'9'.repeat(400)}\n`,
      `a: +${'9'.repeat(400)}\n`,
      ...['1.5e400', '12.5e400', '.5e400', '5.e400', '1e+400', '1E400', '-1e400'].map((n) => `a: ${n}\n`),
      'a: - 1\n',
      // An anchor whose name ends in a colon, after each character that may come before an anchor.
      'k: &x: 1\n',
      'k:\t&x: 1\n',
      'k:\n  &x: 1\n',
      'k:\r\n  &x: 1\r\n',
      '# c\n&x: 1\n',
      // Carriage returns alone as line breaks (`yaml` keeps a comment going past them).
      '# c\r&x: 1\r',
      'a: 1\rb: 2\r',
      'a: 1\r',
      'k: {a: 1,&x: 2}\n',
      'k: [1,&x: 2]\n',
      'k: {&x: 2}\n',
      '&x: 1\n',
    ];
    for (const d of documents) assertSame(d, false);
  });

  it('keeps a __proto__ key an own key of a plain object, never the prototype', () => {
    const r = parseText('__proto__:\n  polluted: true\na: 1\n');
    assert.ok(r.ok);
    const v = r.value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.keys(v), ['__proto__', 'a']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(v, '__proto__'), { value: { polluted: true }, enumerable: true, configurable: true, writable: true });
    assert.equal((v as { polluted?: unknown }).polluted, undefined);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });

  it('reads what only the careful way reads as before: aliases, duplicates, directives, documents, tags', () => {
    assert.deepEqual(read('x: &a {b: 1}\ny: *a\n'), { value: { x: { b: 1 }, y: { b: 1 } }, warnings: 0 });
    assert.deepEqual(read('a: 1\na: 2\n'), { value: { a: 2 }, warnings: 0 }, 'the last of duplicate keys');
    assert.deepEqual(read('%YAML 1.1\n---\na: yes\nb: 0777\n'), { value: { a: true, b: 511 }, warnings: 0 }, 'YAML 1.1 rules under its directive');
    assert.deepEqual(read('# c\n%YAML 1.1\n---\na: on\n'), { value: { a: true }, warnings: 0 });
    assert.deepEqual(read('a: !!float 1\n'), { value: { a: '1' }, warnings: 1 }, 'a standard tag the value does not fit');
    assert.deepEqual(read('a: !custom x\n'), { value: { a: 'x' }, warnings: 1 });
    assert.deepEqual(read('k: &x: 1\n'), { value: { k: 1 }, warnings: 1 }, 'an anchor ending in a colon is warned about');
    assert.deepEqual(read('? [a, b]\n: 1\n'), { value: { '[ a, b ]': 1 }, warnings: 0 }, 'a collection as a key');
    const many = parseText('a: 1\n---\nb: 2\n');
    assert.equal(many.ok, false);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`);
    const refused = parseText(`${bomb.join('\n')}\n`);
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && refused.problem.code === 'yaml-invalid' && refused.problem.line !== undefined, 'the alias bomb refused at its place');
  });

  it('gives the careful reading of every YAML file of the shared corpus', { skip: corpusAvailable() ? false : 'the shared corpus (../shared/specs) is absent' }, () => {
    const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(CORPUS, f));
    // DigitalOcean's 2,850 small files: every tenth (they are alike); every other file whole.
    let seen = 0;
    const chosen = files.filter((f) => !f.includes('/digitalocean/') || seen++ % 10 === 0);
    assert.ok(chosen.length > 100, `${chosen.length} files`);
    // Read the fast way, all of them (none holds an alias, a tag or a directive).
    for (const f of chosen) assertSame(decodeUtf8(readFileSync(f)), true);
  });

  it('reads real YAML with random edits the fast way only to the careful way\'s value', { skip: corpusAvailable() ? false : 'the shared corpus (../shared/specs) is absent' }, () => {
    const texts = ['openapi-3.0/twilio/twilio_api_v2010.yaml', 'openapi-3.0/asana/asana_oas.yaml', 'openapi-3.0/spotify/official-spotify-open-api.yml', 'openapi-3.0/swagger-petstore/openapi.yaml', 'openapi-3.0/freee/iv/open-api-3/api-schema.yml']
      .map((f) => decodeUtf8(readFileSync(join(CORPUS, f))));
    const edit = fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.constantFrom(...YAML_PIECES));
    let fast = 0;
    fc.assert(
      fc.property(fc.nat({ max: texts.length - 1 }), fc.nat(), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, from, edits) => {
        const whole = texts[which]!;
        // A window of whole lines, about 2,000 characters, from a line of the top level on.
        const top = /\n(?=[^\s#])/g;
        top.lastIndex = from % whole.length;
        const start = (top.exec(whole)?.index ?? -1) + 1;
        let t = whole.slice(start, start + 2000);
        t = t.slice(0, t.lastIndexOf('\n') + 1);
        for (const [at, op, piece] of edits) {
          const i = at % (t.length + 1);
          t = op === 'insert' ? t.slice(0, i) + piece + t.slice(i) : op === 'delete' ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + piece + t.slice(i + 1);
        }
        const quick = fastYaml(t);
        if (quick === undefined) return;
        fast++;
        const expected = careful(t);
        assert.ok(expected !== 'error' && expected.warnings === 0, `read fast, though the careful way says ${JSON.stringify(expected)}: ${JSON.stringify(t)}`);
        assert.ok(sameValue(quick.value, expected.value), `fast value of ${JSON.stringify(t)}`);
      }),
      { numRuns: 600 },
    );
    assert.ok(fast > 100, `${fast} edited texts read fast`);
  });
});

/** Characters and pieces that mean something to a YAML reader, for edits of real text. */
const YAML_PIECES = [' ', '\n', '\t', ':', '-', '?', '#', '"', "'", '|', '>', '[', ']', '{', '}', ',', '&a ', '*a', '!', '!!', '%', '@', '`', '\\', '\r', '\r\n', 'null', '~', '<<: ', 'é', '  ', '0x1', '.inf', 'true', '1e', '---', '...', '\ufeff', '\u0085', '\u2028'];
