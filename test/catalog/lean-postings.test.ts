// The lean postings (lean-postings.ts) hold MiniSearch's serialized postings in three typed arrays.
// From that form and back gives the same postings, in order, whatever their number (past the
// point where the conversion pauses) and whatever their size (ids and counts past 16 bits).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type MiniIndexData, leanPostings, postingsIndex } from '../../src/catalog/lean-postings.ts';

const FIELDS = 3;
type Index = MiniIndexData['index'];

/** Postings as MiniSearch serializes them: per term, per field, document -> count (documents ascending). */
const index: fc.Arbitrary<Index> = fc
  .uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 20 })
  .chain((terms) =>
    fc.tuple(
      ...terms.map((term) =>
        fc
          .dictionary(fc.integer({ min: 0, max: FIELDS - 1 }).map(String), fc.dictionary(fc.nat(300).map(String), fc.integer({ min: 1, max: 9 }), { minKeys: 1, maxKeys: 8 }), { minKeys: 1, maxKeys: FIELDS })
          .map((byField) => [term, byField] as unknown as Index[number]),
      ),
    ),
  );

const copy = (i: Index): unknown => JSON.parse(JSON.stringify(i));

describe('lean postings', () => {
  it('give back the postings they were made from, term by term and field by field', () => {
    fc.assert(
      fc.property(index, (i) => {
        const lean = leanPostings(i, FIELDS, 301);
        assert.deepEqual(copy(postingsIndex(lean)), copy(i));
        assert.equal(lean.starts.length, i.length * FIELDS + 1);
        assert.equal(lean.starts[lean.starts.length - 1], lean.docs.length);
      }),
      { numRuns: 200 },
    );
  });

  it('hold many postings, and ids and counts past 16 bits', () => {
    const byField: Record<number, Record<number, number>> = { 0: {}, 2: {} };
    for (let d = 0; d < 70_000; d += 2) byField[0]![d] = 1 + (d % 3);
    byField[2]![69_999] = 70_000;
    const i = [['pods', byField], ['list', { 1: { 5: 2 } }]] as unknown as Index;
    const lean = leanPostings(i, FIELDS, 70_000);
    assert.ok(lean.docs instanceof Uint32Array);
    assert.ok(lean.counts instanceof Uint32Array);
    assert.deepEqual(copy(postingsIndex(lean)), copy(i));
    const small = leanPostings([['a', { 0: { 3: 4 } }]] as unknown as Index, FIELDS, 10);
    assert.ok(small.docs instanceof Uint16Array);
    assert.ok(small.counts instanceof Uint16Array);
  });
});
