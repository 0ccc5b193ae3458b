// Where a JSON text with \u escapes first goes wrong (src/import/json-place.ts): inside a string a
// `\u` takes exactly four hex digits (0-9, A-F, a-f); the scanner agrees with JSON.parse on which
// texts are valid and names the position V8 names for a bad or cut escape.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonErrorOffset } from '../../src/import/json-place.ts';

/** V8's verdict: 'valid', the position it names, or 'unplaced'. */
function v8(text: string): 'valid' | 'unplaced' | number {
  try {
    JSON.parse(text);
    return 'valid';
  } catch (err) {
    const m = /at position (\d+)/.exec((err as Error).message);
    if (m) return Number(m[1]);
    return /end of JSON input/.test((err as Error).message) ? text.length : 'unplaced';
  }
}

// The characters on each side of every hex range, and the ranges' own ends.
const digit = fc.constantFrom(...'/09:@AFG`afgz'.split(''));
const escape = fc.array(digit, { minLength: 0, maxLength: 5 }).map((ds) => `\\u${ds.join('')}`);
const plain = fc.constantFrom('a', ' ', '\\n', '\\"', 'é');
const stringBody = fc.array(fc.oneof(escape, plain), { maxLength: 4 }).map((parts) => parts.join(''));

describe('\\u escapes in JSON strings', () => {
  it('a text is valid exactly when JSON.parse accepts it, and its error is where V8 puts it', () => {
    fc.assert(
      fc.property(stringBody, stringBody, fc.option(fc.nat(), { nil: undefined }), (key, value, cutAt) => {
        const whole = `{"${key}": ["${value}"]}`;
        const text = cutAt === undefined ? whole : whole.slice(0, cutAt % (whole.length + 1));
        const verdict = v8(text);
        const offset = jsonErrorOffset(text);
        if (verdict === 'valid') return assert.equal(offset, undefined, text);
        assert.notEqual(offset, undefined, `no place for ${JSON.stringify(text)}`);
        if (verdict !== 'unplaced') assert.equal(offset, verdict, `for ${JSON.stringify(text)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('each hex digit of every case is accepted, and the characters next to the ranges are refused at their place', () => {
    for (const d of '0123456789ABCDEFabcdef') assert.equal(jsonErrorOffset(`"\\u${d}${d}${d}${d}"`), undefined, d);
    for (const d of '/:@G`g') assert.equal(jsonErrorOffset(`"\\u00${d}0"`), 5, d);
    assert.equal(jsonErrorOffset('"\\u00'), 5);
    assert.equal(jsonErrorOffset('["\\u0041\\u0042", 1]'), undefined);
  });
});
