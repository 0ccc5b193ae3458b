// A document cut into segments (src/snapshot/segments.ts) reads back as the same data, parses only
// the segments on the way to what is read, and a damaged segment stands in for its own place only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type PartReader, type SegmentLimits, decodeSegmented, encodeSegmented, segmentTableBytes } from '../../src/snapshot/segments.ts';

/** Small limits, so that small generated documents are cut in many places. */
const SMALL: SegmentLimits = { segment: 24, piece: 64, tiny: 4 };

function reader(bytes: Buffer, log: number[] = []): PartReader {
  return (offset, length) => {
    if (offset + length > bytes.length) return undefined;
    log.push(length);
    return bytes.subarray(offset, offset + length);
  };
}

function decode(bytes: Buffer, damaged: (tokens: readonly (string | number)[]) => unknown = () => assert.fail('no segment is damaged'), log?: number[]): unknown {
  const read = reader(bytes, log);
  const table = segmentTableBytes(read);
  assert.ok(table);
  return decodeSegmented(table, bytes.length, read, damaged);
}

/** JSON values as a parsed document holds them (no -0: JSON writes it as 0). */
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe('a document in segments', () => {
  it('reads back as the same data: walked, spread, written as JSON, keys in the same order', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(SMALL, { segment: 8, piece: 16, tiny: 1 }, undefined), (doc, limits) => {
        const back = decode(encodeSegmented(doc, limits));
        assert.deepEqual(back, doc);
        assert.equal(JSON.stringify(back), JSON.stringify(doc));
      }),
      { numRuns: 300 },
    );
  });

  it('reading one path parses only the segments on its way', () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++) paths[`/things/${i}`] = { get: { summary: `Get thing ${i}`, responses: { 200: { schema: { type: 'object', properties: { id: { type: 'string', description: 'x'.repeat(2000) } } } } } } };
    const bytes = encodeSegmented({ openapi: '3.0.3', paths });
    const log: number[] = [];
    const doc = decode(bytes, undefined, log) as { paths: Record<string, { get: { summary: string } }> };
    assert.equal(doc.paths['/things/1234']!.get.summary, 'Get thing 1234');
    const read = log.reduce((a, b) => a + b, 0);
    assert.ok(read < bytes.length / 10, `read ${read} of ${bytes.length} bytes`);
  });

  it('a damaged segment: its place alone is asked for, with the pointer tokens to it; the rest reads as before', () => {
    fc.assert(
      fc.property(json, fc.nat(), fc.integer({ min: 1, max: 255 }), (doc, at, bits) => {
        const good = encodeSegmented(doc, SMALL);
        const table = segmentTableBytes(good)!;
        if (good.length === table.length) return;
        const bytes = Buffer.from(good);
        const i = table.length + (at % (good.length - table.length));
        bytes[i] = bytes[i]! ^ bits;
        const asked: (string | number)[][] = [];
        const back = decode(bytes, (tokens) => {
          asked.push([...tokens]);
          // What the source file holds at that place.
          let node: unknown = doc;
          for (const t of tokens) node = (node as Record<string | number, unknown>)[t];
          return node;
        });
        assert.deepEqual(back, doc);
        assert.ok(asked.length <= 1, `one place damaged: ${JSON.stringify(asked)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('a table that is not one reads as nothing; a cycle cannot be written', () => {
    const good = encodeSegmented({ a: [1, 2, { b: 'c'.repeat(100) }] }, SMALL);
    const table = segmentTableBytes(good)!;
    assert.equal(decodeSegmented(table, good.length + 1, reader(good), () => null), undefined);
    assert.equal(decodeSegmented(Buffer.from('\u0003\u0000\u0000\u0000{x]'), 7, reader(good), () => null), undefined);
    const cyclic: Record<string, unknown> = { a: { big: 'x'.repeat(100) } };
    (cyclic['a'] as Record<string, unknown>)['self'] = cyclic;
    assert.throws(() => encodeSegmented(cyclic, SMALL), /circular/);
  });
});
