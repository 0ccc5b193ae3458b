// What a segmented document holds (src/snapshot/segments.ts) is what JSON would write of it, for
// the values a parsed YAML document can hold besides plain data (dates, objects without a
// prototype) and for what JSON leaves out or writes as null (undefined, functions, symbols),
// whether they sit in a piece or in a segment of their own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type SegmentLimits, decodeSegmented, encodeSegmented, segmentTableBytes } from '../../src/snapshot/segments.ts';

const SMALL: SegmentLimits = { segment: 24, piece: 64, tiny: 4 };

function decode(bytes: Buffer): unknown {
  const read = (offset: number, length: number) => (offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : undefined);
  return decodeSegmented(segmentTableBytes(bytes)!, bytes.length, read, () => assert.fail('no segment is damaged'));
}

const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v) ?? 'null');

describe('a document in segments', () => {
  it('holds dates, prototype-less objects and what JSON drops or nulls as JSON writes them', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { name: 'no prototype', list: [1, 2, { deep: 'x'.repeat(40) }] });
    const doc = {
      when: new Date(Date.UTC(2020, 0, 2, 3, 4, 5)),
      dates: [new Date(0), { at: new Date(86_400_000), note: 'y'.repeat(30) }],
      bare,
      dropped: { u: undefined, f: () => 1, s: Symbol('s'), kept: 'z'.repeat(30) },
      nulled: [undefined, () => 1, Symbol('t'), 'w'.repeat(30)],
    };
    for (const limits of [SMALL, undefined]) {
      const back = decode(encodeSegmented(doc, limits));
      assert.deepEqual(asJson(back), asJson(doc));
      assert.equal(JSON.stringify(back), JSON.stringify(doc));
    }
  });

  it('of a value that is not an object or array: that value as JSON, undefined as null', () => {
    for (const v of [null, 0, 1.5, 'text', true, undefined]) assert.deepEqual(decode(encodeSegmented(v)), asJson(v), String(v));
    assert.equal(JSON.stringify(decode(encodeSegmented(new Date(5)))), JSON.stringify(new Date(5)));
  });
});
