// Reading and parsing one description file, from the contract of src/import/read.ts: the size
// limit to the byte (checked before reading, the same for the sync reader), the refusals with
// their codes and hints, the byte-order mark, JSON and YAML errors at their line and column, the
// alias bomb refused, and the cheap scan for external $refs against generated documents.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeUtf8, hasExternalRefs, lineColumn, parseText, readSpecFile, readSpecFileSync } from '../../src/import/read.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (data: string | Uint8Array): string => {
  const f = join(dir, `f${n++}`);
  writeFileSync(f, data);
  return f;
};

describe('reading a spec file', () => {
  it('returns the bytes of a file within the limit, and refuses one byte over it, both readers alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: -3, max: 3 }), async (bytes, slack) => {
        const f = file(bytes);
        const limit = bytes.length + slack;
        for (const result of [await readSpecFile(f, limit), readSpecFileSync(f, limit)]) {
          if (limit >= bytes.length) {
            assert.ok(result.ok);
            assert.deepEqual([...result.bytes], [...bytes]);
          } else {
            assert.deepEqual(result, {
              ok: false,
              problem: { code: 'file-too-large', message: `file is ${bytes.length} bytes, above the limit of ${limit} bytes`, hint: 'Raise limits.maxSpecBytes in svc.yaml if the file is trusted.' },
            });
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('decodes UTF-8 without its byte-order mark (the async reader), and leaves decoding to the parser for the sync one', async () => {
    const f = file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('openapi: 3.0.0 ✓')]));
    const read = await readSpecFile(f, 1000);
    assert.ok(read.ok);
    assert.equal(read.text, 'openapi: 3.0.0 ✓');
    const sync = readSpecFileSync(f, 1000);
    assert.ok(sync.ok);
    assert.equal(sync.text, '');
    assert.equal(sync.bytes.length, read.bytes.length);
    assert.equal(decodeUtf8(Buffer.from('\ufeff\ufeffx')), '\ufeffx', 'one mark only');
    assert.equal(decodeUtf8(Buffer.from('x\ufeff')), 'x\ufeff');
  });

  it('says what is wrong with a missing path and a folder, and what to do', async () => {
    const missing = { ok: false, problem: { code: 'file-missing', message: 'file not found', hint: 'Check the path (relative paths resolve against the folder of the file that names them).' } };
    assert.deepEqual(await readSpecFile(join(dir, 'nope'), 100), missing);
    assert.deepEqual(readSpecFileSync(join(dir, 'nope'), 100), missing);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const notRegular = { ok: false, problem: { code: 'file-not-regular', message: 'not a regular file', hint: 'Point the spec path at a file.' } };
    assert.deepEqual(await readSpecFile(folder, 100), notRegular);
    assert.deepEqual(readSpecFileSync(folder, 100), notRegular);
    const under = await readSpecFile(join(file('x'), 'child'), 100);
    assert.ok(!under.ok && under.problem.code === 'file-unreadable' && under.problem.message.startsWith('cannot read file: '));
  });
});

describe('parsing', () => {
  it('parses any JSON value sent as JSON or as YAML, with or without a byte-order mark and leading space', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })), fc.constantFrom('', '\ufeff', '  \n\t'), (value, lead) => {
        const json = parseText(`${lead}${JSON.stringify(value)}`);
        assert.ok(json.ok);
        assert.deepEqual(json.value, JSON.parse(JSON.stringify(value)));
        assert.deepEqual(json.warnings, []);
      }),
    );
    const yaml = parseText('a: 1\nb: [x, y]\n');
    assert.deepEqual(yaml, { ok: true, value: { a: 1, b: ['x', 'y'] }, warnings: [] });
  });

  it('places a JSON error at its line and column, the end of the text when it ends early', () => {
    // V8 names a position for this kind of error ("at position 15 (line 3 column 7)").
    const bad = parseText('{\n  "a": 1,\n  "b" 2\n}');
    assert.ok(!bad.ok);
    assert.equal(bad.problem.code, 'json-syntax');
    assert.deepEqual([bad.problem.line, bad.problem.column], [3, 7]);
    assert.match(bad.problem.message, /^JSON syntax error: /);
    assert.doesNotMatch(bad.problem.message, /\(line \d+ column \d+\)/);
    assert.equal(bad.problem.hint, 'Fix the JSON at that place (a JSON validator shows it).');
    const cut = parseText('{\n  "a": [1,');
    assert.ok(!cut.ok);
    assert.deepEqual([cut.problem.line, cut.problem.column], [2, 11]);
  });

  it('places a YAML error at its line and column, with what to do', () => {
    const bad = parseText('openapi: 3.0.0\ninfo:\n  title: "x\n  version: 1\n');
    assert.ok(!bad.ok);
    assert.equal(bad.problem.code, 'yaml-syntax');
    assert.match(bad.problem.message, /^YAML syntax error: /);
    assert.doesNotMatch(bad.problem.message, / at line \d+, column \d+:?$/);
    assert.equal(typeof bad.problem.line, 'number');
    assert.equal(bad.problem.hint, 'Fix the YAML at that place (a validator or editor with YAML support shows it).');
  });

  it('takes the last of duplicate keys, keeps <<: merges, and passes YAML warnings on at their place', () => {
    const dup = parseText('a: 1\nb: 2\na: 3\n');
    assert.ok(dup.ok);
    assert.deepEqual(dup.value, { a: 3, b: 2 });
    assert.deepEqual(parseText('%FOO bar\n---\na: 1\n'), { ok: true, value: { a: 1 }, warnings: [{ code: 'yaml-warning', message: 'Unknown directive %FOO', line: 1, column: 1 }] });
    const merged = parseText('base: &b { x: 1 }\nthing:\n  <<: *b\n  y: 2\n');
    assert.ok(merged.ok);
    assert.deepEqual((merged.value as Record<string, unknown>)['thing'], { x: 1, y: 2 });
  });

  it('refuses an alias bomb and an alias before its anchor, at the alias, saying what to do', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const bomb = parseText(levels.join('\n'));
    assert.ok(!bomb.ok);
    assert.equal(bomb.problem.code, 'yaml-invalid');
    assert.match(bomb.problem.message, /^YAML cannot be loaded: /);
    assert.equal(bomb.problem.hint, 'Reduce aliases or fix the document.');
    assert.equal(bomb.problem.line, 2, 'the first alias');
    const early = parseText('a: *later\nb: &later 1\n');
    assert.ok(!early.ok);
    assert.equal(early.problem.hint, 'Define the anchor &later before the alias *later that uses it.');
    assert.deepEqual([early.problem.line, early.problem.column], [1, 4]);
  });
});

describe('lineColumn', () => {
  it('is the 1-based line and column of any offset', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', 'b', ' ') }), fc.nat(), (text, k) => {
        const offset = k % (text.length + 1);
        const before = text.slice(0, offset);
        const line = before.split('\n').length;
        const column = offset - (before.lastIndexOf('\n') + 1) + 1;
        assert.deepEqual(lineColumn(text, offset), { line, column });
      }),
    );
  });
});

describe('hasExternalRefs', () => {
  const target = fc.oneof(
    fc.stringMatching(/^#\/[a-zA-Z\/]{0,12}$/).map((t) => ({ t, external: false })),
    fc.stringMatching(/^[a-z]{1,8}\.(yaml|json)(#\/[a-z]{1,5})?$/).map((t) => ({ t, external: true })),
    fc.stringMatching(/^https:\/\/x\.example\/[a-z]{1,5}\.json$/).map((t) => ({ t, external: true })),
  );

  it('finds a $ref to another file in JSON or YAML, quoted or plain, and ignores local ones', () => {
    fc.assert(
      fc.property(fc.array(target, { maxLength: 4 }), fc.constantFrom('json', 'yaml-plain', 'yaml-quoted', 'yaml-single'), (refs, style) => {
        const parts = refs.map(({ t }) =>
          style === 'json' ? `{"$ref": ${JSON.stringify(t)}}`
          : style === 'yaml-plain' ? (t.startsWith('#') ? `- $ref: '${t}'` : `- $ref: ${t}`)
          : style === 'yaml-quoted' ? `- "$ref": "${t}"`
          : `- $ref:   '${t}'`,
        );
        const text = style === 'json' ? `[${parts.join(',')}]` : parts.join('\n');
        assert.equal(hasExternalRefs(text), refs.some((r) => r.external), text);
      }),
    );
  });

  it('does not take a property named $ref, a list, an empty value or prose for a reference', () => {
    assert.equal(hasExternalRefs('properties:\n  $ref:\n    type: string\n'), false);
    assert.equal(hasExternalRefs('{"properties": {"$ref": {"type": "string"}}}'), false);
    assert.equal(hasExternalRefs('a: { $ref: [x.yaml] }'), false);
    assert.equal(hasExternalRefs('description: use $ref to point'), false);
    assert.equal(hasExternalRefs('$ref:'), false);
    assert.equal(hasExternalRefs('- $ref: - x'), false);
    assert.equal(hasExternalRefs('$ref:\n  other.yaml'), true, 'a value on the next line');
    assert.equal(hasExternalRefs('$ref: x.yaml\r\n'), true);
  });
});
