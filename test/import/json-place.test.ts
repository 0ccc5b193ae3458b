// Where a JSON text first goes wrong (src/import/json-place.ts), from its contract: it agrees with
// JSON.parse on what is valid, names the same position as V8 wherever V8 names one, names a place for
// the mistakes V8 does not place (an unexpected letter), and survives any nesting depth.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonErrorOffset } from '../../src/import/json-place.ts';
import { parseText } from '../../src/import/read.ts';

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

/** A JSON text with one edit: a character inserted, removed or replaced, or the text cut. */
const editedJson = fc
  .tuple(
    fc.json({ depthSize: 'small' }),
    fc.constantFrom('insert', 'remove', 'replace', 'cut'),
    fc.nat(),
    fc.constantFrom(...'{}[]:,"\\ \n-+.eE0123456789tfnrulasxu\u0001'),
  )
  .map(([text, edit, at, c]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (edit === 'insert') return text.slice(0, i) + c + text.slice(i);
    if (edit === 'remove') return text.slice(0, i) + text.slice(i + 1);
    if (edit === 'replace') return text.slice(0, i) + c + text.slice(i + 1);
    return text.slice(0, i);
  });

describe('the place of a JSON error', () => {
  it('is none exactly when JSON.parse accepts the text, and V8 position wherever V8 names one', () => {
    fc.assert(
      fc.property(editedJson, (text) => {
        const verdict = v8(text);
        const offset = jsonErrorOffset(text);
        if (verdict === 'valid') return assert.equal(offset, undefined);
        assert.notEqual(offset, undefined, 'an invalid text always gets a place');
        assert.ok(offset! >= 0 && offset! <= text.length);
        if (verdict !== 'unplaced') assert.equal(offset, verdict, `for ${JSON.stringify(text)}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('places the mistakes V8 reports without a position: an unexpected letter or symbol', () => {
    assert.equal(jsonErrorOffset('{"a": tru}'), 9);
    assert.equal(jsonErrorOffset('{"a": nul, "b": 1}'), 9);
    assert.equal(jsonErrorOffset('[1, x]'), 4);
    assert.equal(jsonErrorOffset('{"a": 1, \'b\': 2}'), 9);
    const bad = parseText('{\n  "openapi": "3.0.0",\n  "paths": {\n    "/a": undefined\n  }\n}');
    assert.ok(!bad.ok);
    assert.deepEqual([bad.problem.line, bad.problem.column], [4, 11]);
    assert.match(bad.problem.message, /^JSON syntax error: Unexpected token 'u'/);
  });

  it('reads any depth of nesting without recursion', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    assert.equal(jsonErrorOffset(deep), undefined);
    assert.equal(jsonErrorOffset(`${'{"a":'.repeat(100_000)}1${'}'.repeat(99_999)}`), 100_000 * 5 + 1 + 99_999);
  });
});
