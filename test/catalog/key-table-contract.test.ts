// Key tables put together from parts: a table's pairs shifted by an offset make a table whose every
// value is the part's raised by that offset; a shift that would leave the packable range is
// refused; the size counts distinct pairs. Large tables are sorted by buckets of the hash's top
// bits: the same order as the engine's sort, for generated pairs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { KeyTable, MAX_VALUE, bucketSort, hashed } from '../../src/catalog/key-table.ts';

const pairs = fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.nat({ max: 40 })), { maxLength: 40 });

describe('KeyTable parts', () => {
  it('shifted by an offset, answer every key with the part\'s values raised by it, in one table of all parts', () => {
    fc.assert(
      fc.property(pairs, pairs, fc.integer({ min: 41, max: 1000 }), (a, b, offset) => {
        const ta = new KeyTable(a);
        const tb = new KeyTable(b);
        const whole = new KeyTable(Float64Array.from([...ta.shifted(0), ...tb.shifted(offset)]));
        for (const key of [...a.map(([k]) => k), ...b.map(([k]) => k), 'absent']) {
          assert.deepEqual(whole.candidates(key), [...ta.candidates(key), ...tb.candidates(key).map((v) => v + offset)], key);
        }
        assert.equal(ta.size, new Set(a.map(([k, v]) => hashed(k, v))).size);
        assert.equal(whole.size, ta.size + tb.size);
      }),
    );
  });

  it('refuses a shift that leaves the range a value can be packed in, naming the offset', () => {
    const t = new KeyTable([['k', 10]]);
    assert.equal(new KeyTable(t.shifted(MAX_VALUE - 11)).candidates('k')[0], MAX_VALUE - 1);
    for (const offset of [MAX_VALUE - 10, -1, 0.5]) assert.throws(() => t.shifted(offset), { name: 'RangeError', message: `KeyTable: offset ${offset} out of range` });
    assert.throws(() => new KeyTable([['k', MAX_VALUE]]), { name: 'RangeError', message: `KeyTable: value ${MAX_VALUE} out of range` });
    assert.equal(new KeyTable([]).size, 0);
    assert.equal(new KeyTable([]).shifted(5).length, 0);
  });

  it('sorts large tables as the engine sorts doubles, duplicates and shared top bits included', () => {
    // Hashes drawn from a few top-bit buckets and a few values, so buckets hold many and ties occur.
    const pair = fc.tuple(fc.constantFrom(0, 1, 0xffff), fc.nat({ max: 0xffff }), fc.nat({ max: 5 })).map(([top, low, value]) => (top * 2 ** 16 + low) * MAX_VALUE + value);
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 300 }), (list) => {
        assert.deepEqual(bucketSort(list), Float64Array.from(list).sort());
      }),
      { numRuns: 300 },
    );
  });

  it('answers a table past the engine-sort size as a Map of its pairs would', () => {
    const entries = Array.from({ length: 6000 }, (_, i): [string, number] => [`key${i % 2500}`, i % 97]);
    const table = new KeyTable(entries);
    const expected = new Map<string, Set<number>>();
    for (const [k, v] of entries) expected.set(k, (expected.get(k) ?? new Set()).add(v));
    for (const [k, values] of expected) assert.deepEqual(table.candidates(k).filter((v) => values.has(v)), [...values].sort((a, b) => a - b), k);
    assert.equal(table.size, [...expected.values()].reduce((n, s) => n + s.size, 0));
  });
});
