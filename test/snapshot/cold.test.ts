// An endpoint's cold fields (description, source pointer and line) as a decoded core keeps them:
// deflated in blocks, inflated on access; and its id, made from its parts unless it is another. Whatever the texts and the order of access (across more
// blocks than are kept inflated), each endpoint reads back exactly its own fields.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Endpoint } from '../../src/model/index.ts';
import { COLD_BLOCK, ColdTexts, StoredEndpoint, deflateCold } from '../../src/snapshot/stored.ts';

type Cold = { description?: string; pointer: string; line?: number };

const cold: fc.Arbitrary<Cold> = fc.record(
  { description: fc.string({ unit: 'binary', maxLength: 300 }), pointer: fc.string({ maxLength: 40 }), line: fc.nat() },
  { requiredKeys: ['pointer'] },
);

/** Just enough of an endpoint for `deflateCold`. */
const endpointOf = (c: Cold): Endpoint =>
  ({ description: c.description, source: c.line === undefined ? { file: 'f', pointer: c.pointer } : { file: 'f', pointer: c.pointer, line: c.line } }) as unknown as Endpoint;

const hot = { spec: 's', collection: 'c', method: 'GET', path: '/', tags: [], deprecated: false, parameters: [], responses: [], servers: [] } as const;

describe('cold fields of decoded endpoints', () => {
  it('read back as written, in any order of access', () => {
    fc.assert(
      fc.property(fc.array(cold, { maxLength: 5 * COLD_BLOCK }), fc.array(fc.nat(), { maxLength: 60 }), (rows, order) => {
        const { bytes, blocks } = deflateCold(rows.map(endpointOf));
        const texts = new ColdTexts(bytes, blocks, rows.length);
        const visit = rows.length === 0 ? [] : [...order.map((i) => i % rows.length), ...rows.keys()];
        for (const n of visit) {
          const e = new StoredEndpoint(hot, undefined, 'file.json', texts, n);
          assert.equal(e.description, rows[n]!.description);
          assert.deepEqual(e.source, rows[n]!.line === undefined ? { file: 'file.json', pointer: rows[n]!.pointer } : { file: 'file.json', pointer: rows[n]!.pointer, line: rows[n]!.line });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('stay right for many specs read in turn (more blocks than are kept inflated)', () => {
    const specs = Array.from({ length: 40 }, (_, s) => Array.from({ length: 10 * COLD_BLOCK }, (_, i) => ({ description: `spec ${s} endpoint ${i}`, pointer: `/p/${i}` })));
    const texts = specs.map((rows) => {
      const { bytes, blocks } = deflateCold(rows.map(endpointOf));
      return new ColdTexts(bytes, blocks, rows.length);
    });
    for (let round = 0; round < 2; round++) {
      for (let s = 0; s < specs.length; s++) {
        for (let i = 0; i < specs[s]!.length; i += 7) assert.equal(new StoredEndpoint(hot, undefined, 'f', texts[s]!, i).description, `spec ${s} endpoint ${i}`);
      }
    }
  });

  it('leave an endpoint its id: made from spec, method and path, or the one it was given', () => {
    const { bytes, blocks } = deflateCold([endpointOf({ pointer: '/0' })]);
    const texts = new ColdTexts(bytes, blocks, 1);
    const fields = { ...hot, spec: 'gh', method: 'POST', path: '/repos/{owner}/{repo}/issues' } as const;
    assert.equal(new StoredEndpoint(fields, undefined, 'f', texts, 0).id, 'gh:POST:/repos/{owner}/{repo}/issues');
    assert.equal(new StoredEndpoint(fields, 'gh:POST:/repos/{owner}/{repo}/issues#2', 'f', texts, 0).id, 'gh:POST:/repos/{owner}/{repo}/issues#2');
  });

  it('refuse block lengths that do not add up, and an endpoint number out of range', () => {
    const { bytes, blocks } = deflateCold(Array.from({ length: 20 }, (_, i) => endpointOf({ pointer: `/${i}` })));
    assert.throws(() => new ColdTexts(bytes, [blocks[0]!], 20), /cold blocks do not agree/);
    assert.throws(() => new ColdTexts(bytes, [blocks[0]!, blocks[1]! + 1], 20), /cold blocks do not agree/);
    assert.throws(() => new ColdTexts(bytes, blocks, 40), /cold blocks do not agree/);
    const texts = new ColdTexts(bytes, blocks, 20);
    assert.throws(() => texts.row(20), /no cold fields for endpoint 20/);
    assert.throws(() => texts.row(-1), /no cold fields/);
  });

  it('refuse a block that inflates to something else than its rows', () => {
    const { bytes, blocks } = deflateCold(Array.from({ length: 20 }, (_, i) => endpointOf({ pointer: `/${i}` })));
    // The first block's bytes given as both blocks: the second inflates to 16 rows where 4 belong.
    const first = bytes.subarray(0, blocks[0]);
    const texts = new ColdTexts(Buffer.concat([first, first]), [blocks[0]!, blocks[0]!], 20);
    assert.equal(texts.row(3)[1], '/3');
    assert.throws(() => texts.row(17), /cold block is not shaped right/);
    const broken = new ColdTexts(Buffer.from(bytes).fill(7, 2, 10), blocks, 20);
    assert.throws(() => broken.row(0));
  });
});
