// The search tool's tag filter narrows the hits to the endpoints carrying the tag, in any spec or
// within the one given.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec } from '../catalog/fixtures.ts';
import { benchOfSpecs } from './support.ts';

describe('search tag filter', () => {
  it('keeps only the endpoints with the tag', async () => {
    const bench = await benchOfSpecs([
      spec('shop', [
        { method: 'GET', path: '/widgets', summary: 'List widgets', tags: ['widgets'] },
        { method: 'DELETE', path: '/widgets/old', summary: 'Remove an old widget', tags: ['cleanup'] },
      ]),
      spec('sales', [{ method: 'GET', path: '/widgets/sold', summary: 'Sold widgets', tags: ['cleanup'] }]),
    ]);
    const ids = async (input: Record<string, unknown>): Promise<string[]> => {
      const r = await bench.run('search', { query: 'widget', ...input });
      assert.equal(r.isError, undefined, r.text);
      return (r.structured!['endpoints'] as { id: string }[]).map((e) => e.id).sort();
    };
    assert.deepEqual(await ids({}), ['sales:GET:/widgets/sold', 'shop:DELETE:/widgets/old', 'shop:GET:/widgets']);
    assert.deepEqual(await ids({ tag: 'cleanup' }), ['sales:GET:/widgets/sold', 'shop:DELETE:/widgets/old']);
    assert.deepEqual(await ids({ tag: 'cleanup', spec: 'shop' }), ['shop:DELETE:/widgets/old']);
    assert.deepEqual(await ids({ tag: 'widgets' }), ['shop:GET:/widgets']);
  });
});
