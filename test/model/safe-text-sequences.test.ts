// The sanitizer's contract (src/model/safe-text.ts), one kind of hostile text at a time, on
// generated inputs: a terminal escape sequence of any shape (CSI in its 7-bit and 8-bit forms,
// strings such as OSC window titles and clipboard writes up to any of their terminators, two-byte
// escapes with intermediates) is removed whole wherever it stands in ordinary text, and so is one
// cut short at the end of the text; a lone control character is removed and nothing put in its
// place; every line break becomes a line feed in multi-line text and a space in a one-line field.
// test/security/terminal-safety checks the same module against mixed hostile strings and end to end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { safeLine, safeText, UNSAFE_IN_LINE } from '../../src/model/safe-text.ts';

const ESC = '\u001b';
const BEL = '\u0007';
const ST8 = '\u009c';

const charIn = (from: number, to: number) => fc.integer({ min: from, max: to }).map((c) => String.fromCharCode(c));
const run = (from: number, to: number, maxLength = 4) => fc.array(charIn(from, to), { maxLength }).map((cs) => cs.join(''));

/** Text with no control character, line break or bidi mark: any script, punctuation, brackets. */
const ordinary = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('[31m', '0;title', 'ユーザー', 'Größe', '\\', ' ')), { maxLength: 4 })
  .map((parts) => parts.join(''))
  .filter((s) => !UNSAFE_IN_LINE.test(s) && !/[\n\t\u0085]/.test(s));

/** CSI: `ESC [` or 8-bit CSI, parameter bytes, intermediate bytes, and (when complete) a final byte. */
const csi = (complete: boolean) =>
  fc
    .tuple(fc.constantFrom(`${ESC}[`, '\u009b'), run(0x30, 0x3f, 6), run(0x20, 0x2f, 3), complete ? charIn(0x40, 0x7e) : fc.constant(''))
    .map((parts) => parts.join(''));

/** OSC, DCS, SOS, PM, APC strings (7-bit and 8-bit introducers), any body, and (when complete) a terminator. */
const controlString = (complete: boolean) =>
  fc
    .tuple(
      fc.constantFrom(`${ESC}]`, `${ESC}P`, `${ESC}^`, `${ESC}_`, `${ESC}X`, '\u0090', '\u0098', '\u009d', '\u009e', '\u009f'),
      fc.string({ unit: 'binary', maxLength: 16 }).filter((s) => !/[\u0007\u001b\u009c]/.test(s)),
      complete ? fc.constantFrom(BEL, `${ESC}\\`, ST8) : fc.constant(''),
    )
    .map((parts) => parts.join(''));

/** Other escapes: ESC, intermediate bytes, and (when complete) a final byte (`ESC ( B`, `ESC 7`, `ESC c`). */
const shortEscape = (complete: boolean) =>
  fc
    .tuple(run(0x20, 0x2f, 3), complete ? charIn(0x30, 0x7e) : fc.constant(''))
    // With no intermediate byte, `[ ] P ^ _ X` after ESC start a CSI or a string instead.
    .filter(([mid, final]) => mid !== '' || !'[]P^_X'.includes(final) || final === '')
    .map(([mid, final]) => `${ESC}${mid}${final}`);

const complete = fc.oneof(csi(true), controlString(true), shortEscape(true));
const cutShort = fc.oneof(csi(false), controlString(false), shortEscape(false));

test('an escape sequence of any shape is removed whole, wherever it stands in ordinary text', () => {
  fc.assert(
    fc.property(ordinary, complete, ordinary, (before, sequence, after) => {
      assert.equal(safeText(before + sequence + after), before + after, JSON.stringify(sequence));
      assert.equal(safeLine(before + sequence + after), before + after, JSON.stringify(sequence));
    }),
    { numRuns: 2000 },
  );
});

test('an escape sequence cut short at the end of the text is removed whole, leaving no parameter or body as text', () => {
  fc.assert(
    fc.property(ordinary, cutShort, (before, sequence) => {
      assert.equal(safeText(before + sequence), before, JSON.stringify(sequence));
      assert.equal(safeLine(before + sequence), before, JSON.stringify(sequence));
    }),
    { numRuns: 2000 },
  );
});

test('several sequences in a row, complete or not, leave only the ordinary text between them', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(complete, ordinary), { maxLength: 5 }), ordinary, cutShort, (pieces, head, tail) => {
      const text = head + pieces.map(([s, t]) => s + t).join('') + tail;
      assert.equal(safeText(text), head + pieces.map(([, t]) => t).join(''));
    }),
    { numRuns: 500 },
  );
});

/** Control characters that start nothing (no ESC, no 8-bit CSI or string introducer) and break no line. */
const loneControl = fc
  .oneof(charIn(0x00, 0x08), charIn(0x0e, 0x1f), charIn(0x7f, 0x9f), fc.constantFrom('\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'))
  .filter((c) => !'\u001b\u0085\u0090\u0098\u009b\u009d\u009e\u009f'.includes(c));

test('a lone control or bidi character is removed, and nothing is put in its place', () => {
  fc.assert(
    fc.property(ordinary, loneControl, ordinary, (before, control, after) => {
      assert.equal(safeText(before + control + after), before + after, JSON.stringify(control));
      assert.equal(safeLine(before + control + after), before + after, JSON.stringify(control));
    }),
    { numRuns: 1000 },
  );
});

const lineBreak = fc.constantFrom('\n', '\r', '\r\n', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029');

test('every kind of line break is one line feed in multi-line text and one space in a one-line field; tabs stay or become spaces', () => {
  fc.assert(
    fc.property(fc.array(ordinary.filter((s) => s !== ''), { minLength: 1, maxLength: 5 }), fc.array(lineBreak, { minLength: 5, maxLength: 5 }), (lines, breaks) => {
      const text = lines.map((line, i) => (i === 0 ? line : breaks[i - 1] + line)).join('');
      assert.equal(safeText(text), lines.join('\n'));
      assert.equal(safeLine(text), lines.join(' '));
      assert.equal(safeText(lines.join('\t')), lines.join('\t'));
      assert.equal(safeLine(lines.join('\t')), lines.join(' '));
    }),
    { numRuns: 1000 },
  );
});
