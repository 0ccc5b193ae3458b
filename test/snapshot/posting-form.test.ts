// The byte form of lean postings in a snapshot core (src/snapshot/posting-form.ts): any postings
// read back as written (16- and 32-bit ids and counts, little-endian in the bytes whatever the
// machine), and bytes whose numbers do not agree with each other or with the terms are refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { LeanPostings } from '../../src/catalog/catalog.ts';
import { postingParts, readPostings } from '../../src/snapshot/posting-form.ts';

/** Generated postings: `terms.length * fields` runs of documents, in 16- or 32-bit arrays. */
const postings: fc.Arbitrary<LeanPostings> = fc
  .record({
    terms: fc.uniqueArray(fc.string(), { maxLength: 6 }),
    fields: fc.integer({ min: 1, max: 3 }),
    wideDocs: fc.boolean(),
    wideCounts: fc.boolean(),
    runs: fc.array(fc.array(fc.record({ doc: fc.nat({ max: 0xffffffff }), count: fc.nat({ max: 0xffffffff }) }), { maxLength: 4 }), { minLength: 18, maxLength: 18 }),
  })
  .map(({ terms, fields, wideDocs, wideCounts, runs }) => {
    const used = runs.slice(0, terms.length * fields);
    const all = used.flat();
    const starts = new Uint32Array(terms.length * fields + 1);
    used.forEach((r, i) => (starts[i + 1] = starts[i]! + r.length));
    const docs = wideDocs ? Uint32Array.from(all, (p) => p.doc) : Uint16Array.from(all, (p) => p.doc & 0xffff);
    const counts = wideCounts ? Uint32Array.from(all, (p) => p.count) : Uint16Array.from(all, (p) => p.count & 0xffff);
    return { terms, fields, docs, counts, starts };
  });

function roundTrip(p: LeanPostings): LeanPostings {
  const [terms, numbers] = postingParts(p);
  return readPostings(JSON.parse(terms!.toString('utf8')) as unknown, numbers!);
}

const plain = (p: LeanPostings) => ({ terms: [...p.terms], fields: p.fields, docs: p.docs, counts: p.counts, starts: p.starts });

describe('lean postings as bytes', () => {
  it('read back as written, in arrays of the same width', () => {
    fc.assert(
      fc.property(postings, (p) => {
        const back = roundTrip(p);
        assert.deepEqual(plain(back), plain(p));
        assert.equal(back.docs.BYTES_PER_ELEMENT, p.docs.BYTES_PER_ELEMENT);
        assert.equal(back.counts.BYTES_PER_ELEMENT, p.counts.BYTES_PER_ELEMENT);
      }),
      { numRuns: 200 },
    );
  });

  it('hold their numbers little-endian: a header of five u32, the starts, the ids, the counts', () => {
    const p: LeanPostings = { terms: ['a', 'b'], fields: 1, docs: Uint16Array.of(0x0102, 0x0304, 0x0506), counts: Uint32Array.of(0x0a0b0c0d, 1, 2), starts: Uint32Array.of(0, 2, 3) };
    const [terms, numbers] = postingParts(p);
    assert.equal(terms!.toString('utf8'), '["a","b"]');
    assert.deepEqual(
      [...numbers!],
      [
        ...[1, 0, 0, 0], ...[2, 0, 0, 0], ...[3, 0, 0, 0], ...[2, 0, 0, 0], ...[4, 0, 0, 0],
        ...[0, 0, 0, 0], ...[2, 0, 0, 0], ...[3, 0, 0, 0],
        ...[0x02, 0x01], ...[0x04, 0x03], ...[0x06, 0x05],
        ...[0x0d, 0x0c, 0x0b, 0x0a], ...[1, 0, 0, 0], ...[2, 0, 0, 0],
      ],
    );
  });

  it('are refused when their numbers do not agree', () => {
    const p: LeanPostings = { terms: ['a', 'b'], fields: 2, docs: Uint32Array.of(1, 2, 3, 4), counts: Uint16Array.of(1, 1, 2, 2), starts: Uint32Array.of(0, 1, 2, 3, 4) };
    const [termsBytes, good] = postingParts(p);
    const terms = JSON.parse(termsBytes!.toString('utf8')) as string[];
    const edited = (edit: (b: Buffer) => void): Buffer => {
      const b = Buffer.from(good!);
      edit(b);
      return b;
    };
    assert.deepEqual(plain(readPostings(terms, good!)), plain(p));
    /** The numbers of postings with no documents: a header and the starts. */
    const header = (fields: number, termCount: number, n: number, docBytes: number, countBytes: number, starts: number[]): Buffer => {
      const b = Buffer.alloc(20 + 4 * starts.length);
      [fields, termCount, n, docBytes, countBytes, ...starts].forEach((v, i) => b.writeUInt32LE(v, 4 * i));
      return b;
    };
    for (const [docBytes, countBytes] of [[2, 2], [2, 4], [4, 2], [4, 4]] as const) {
      const empty = readPostings(['a'], header(1, 1, 0, docBytes, countBytes, [0, 0]));
      assert.deepEqual([empty.docs.length, empty.docs.BYTES_PER_ELEMENT, empty.counts.BYTES_PER_ELEMENT], [0, docBytes, countBytes]);
    }
    const disagree = 'spec image postings do not agree';
    const cases: [string, unknown, Buffer, string][] = [
      ['terms not a list', 'ab', good!, 'spec image postings: terms are not a list of strings'],
      ['a term that is not text', ['a', 2], good!, 'spec image postings: terms are not a list of strings'],
      ['fewer than 20 bytes', terms, good!.subarray(0, 19), 'spec image postings are cut short'],
      ['no bytes', terms, Buffer.alloc(0), 'spec image postings are cut short'],
      ['one term more than listed', terms, edited((b) => b.writeUInt32LE(3, 4)), disagree],
      ['one term fewer', ['a'], good!, disagree],
      ['no fields', terms, edited((b) => b.writeUInt32LE(0, 0)), disagree],
      // No postings at all: the lengths agree whatever the widths and fields say, so only their own checks refuse them.
      ['no fields, no terms', [], header(0, 0, 0, 2, 2, [0]), disagree],
      ['three bytes per id', ['a'], header(1, 1, 0, 3, 2, [0, 0]), disagree],
      ['one byte per count', ['a'], header(1, 1, 0, 2, 1, [0, 0]), disagree],
      ['eight bytes per count', ['a'], header(1, 1, 0, 4, 8, [0, 0]), disagree],
      ['16-bit ids said of 32-bit ones', terms, edited((b) => b.writeUInt32LE(2, 12)), disagree],
      ['one posting more than the bytes hold', terms, edited((b) => b.writeUInt32LE(5, 8)), disagree],
      ['one byte more', terms, Buffer.concat([good!, Buffer.alloc(1)]), disagree],
      ['one byte fewer', terms, good!.subarray(0, good!.length - 1), disagree],
      ['starts that go back', terms, edited((b) => b.writeUInt32LE(0, 20 + 4 * 2)), disagree],
      ['a first start past 0', terms, edited((b) => b.writeUInt32LE(1, 20)), disagree],
      ['a last start short of the postings', terms, edited((b) => b.writeUInt32LE(3, 20 + 4 * 4)), disagree],
      ['a last start past the postings', terms, edited((b) => b.writeUInt32LE(5, 20 + 4 * 4)), disagree],
    ];
    for (const [label, t, bytes, message] of cases) assert.throws(() => readPostings(t, bytes), { message }, label);
  });
});
