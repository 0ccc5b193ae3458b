// How a diagnostic names its place and reads as text (src/model/diagnostic.ts): `file:line:column`,
// `file:line`, `file#pointer` or the file alone, the line winning over the pointer; the message on
// the same line after the severity, the hint on a second, indented line; every part from a spec
// (file names, pointers, messages, hints) made one safe line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatDiagnostic, formatPlace, type Diagnostic } from '../../src/model/diagnostic.ts';
import { UNSAFE_IN_LINE } from '../../src/model/safe-text.ts';

const plain = fc.string({ maxLength: 16 }).filter((s) => !UNSAFE_IN_LINE.test(s));
const position = fc.integer({ min: 0, max: 100_000 });

test('the place is file:line:column, file:line, file#pointer or the file, in that order of preference', () => {
  fc.assert(
    fc.property(plain, position, position, plain, (file, line, column, pointer) => {
      assert.equal(formatPlace({ file, line, column, pointer }), `${file}:${line}:${column}`);
      assert.equal(formatPlace({ file, line, column }), `${file}:${line}:${column}`);
      assert.equal(formatPlace({ file, line, pointer }), `${file}:${line}`);
      assert.equal(formatPlace({ file, line }), `${file}:${line}`);
      assert.equal(formatPlace({ file, pointer }), `${file}#${pointer}`);
      assert.equal(formatPlace({ file, column, pointer }), `${file}#${pointer}`);
      assert.equal(formatPlace({ file }), file);
      assert.equal(formatPlace({ file, column }), file);
    }),
  );
  assert.equal(formatPlace({ file: '/s/a.yaml', line: 0, column: 0 }), '/s/a.yaml:0:0');
  assert.equal(formatPlace({ file: '/s/a.yaml', pointer: '' }), '/s/a.yaml#');
});

test('a diagnostic is its place, severity and message on one line, and its hint, when it has one, on the next', () => {
  fc.assert(
    fc.property(plain, fc.constantFrom('error' as const, 'warning' as const), plain, plain, fc.option(position, { nil: undefined }), (file, severity, message, hint, line) => {
      const d: Diagnostic = { severity, code: 'c', message, file, ...(line !== undefined ? { line } : {}) };
      const place = line !== undefined ? `${file}:${line}` : file;
      assert.equal(formatDiagnostic(d), `${place}: ${severity}: ${message}`);
      const withHint = formatDiagnostic({ ...d, hint });
      assert.equal(withHint, hint === '' ? `${place}: ${severity}: ${message}` : `${place}: ${severity}: ${message}\n  hint: ${hint}`);
    }),
  );
});

test('file names, pointers, messages and hints from a spec cannot break the line or reach the terminal', () => {
  const evil = 'a\nforged: error: b\u001b]0;title\u0007\r\u202e';
  const d: Diagnostic = { severity: 'error', code: 'c', message: evil, file: evil, pointer: evil, hint: evil };
  assert.equal(formatPlace({ file: evil, pointer: evil }), 'a forged: error: b #a forged: error: b ');
  assert.equal(formatPlace({ file: evil, line: 3, column: 4 }), 'a forged: error: b :3:4');
  assert.equal(formatPlace({ file: evil }), 'a forged: error: b ');
  assert.equal(formatDiagnostic(d), 'a forged: error: b #a forged: error: b : error: a forged: error: b \n  hint: a forged: error: b ');
});
