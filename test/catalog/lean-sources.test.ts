// Field lengths held lean (lean-mini.ts `FieldLengths`) give back every length as MiniSearch's
// serialized rows hold it, however large (two bytes a length while they fit, four past that), and
// an index source that has lean postings is loaded from them, never from MiniSearch's serialized
// form: building that form is the time and memory the lean postings exist to save. Lean postings
// whose head is not shaped as svc builds it (short ids not 0..n-1) load into MiniSearch's own form
// instead, and search alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FieldLengths } from '../../src/catalog/lean-maps.ts';
import { type IndexSource, loadLeanPostings, loadSource, loadSourceAsync } from '../../src/catalog/lean-mini.ts';
import { buildIndex, makeEntry } from '../../src/catalog/search.ts';
import { spec } from './fixtures.ts';

describe('field lengths held lean', () => {
  it('give back every row as it was, short rows padded with 0 (generated)', () => {
    const length = fc.oneof(fc.nat(20), fc.integer({ min: 0xfff0, max: 0x1000f }), fc.integer({ min: 0, max: 0x7fffffff }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.array(length, { maxLength: 8 }), { maxLength: 12 }), (fields, raw) => {
        const rows = raw.map((r) => r.slice(0, fields));
        // MiniSearch's serialized rows: short id -> row.
        const held = FieldLengths.of(Object.fromEntries(rows.map((r, i) => [String(i), r])), rows.length, fields);
        const want = rows.map((r) => Array.from({ length: fields }, (_, f) => r[f] ?? 0));
        assert.equal(held.size, rows.length);
        assert.deepEqual([...held], want.map((r, i) => [i, r]));
        want.forEach((r, i) => {
          assert.deepEqual([...held.get(i)!], r);
          r.forEach((v, f) => assert.equal(held.lengthOf(i, f), v));
        });
        assert.equal(held.get(rows.length), undefined);
        assert.equal(held.get(-1), undefined);
      }),
      { numRuns: 300 },
    );
  });
});

describe('an index source with lean postings', () => {
  function source(): IndexSource {
    const imported = spec('s', [{ method: 'GET', path: '/widgets', summary: 'List widgets' }, { method: 'POST', path: '/widgets', summary: 'Add a widget' }]);
    const { data } = buildIndex(imported.endpoints.map((e, i) => makeEntry(e, i + 1, i)));
    return Object.assign(
      (): never => {
        throw new Error('the serialized form was built');
      },
      { lean: data.lean },
    );
  }

  it('is loaded from them, at once or yielding the thread', async () => {
    for (const mini of [loadSource(source()), await loadSourceAsync(source())]) {
      assert.deepEqual(mini.search('widget').map((r) => r.id).sort(), [1, 2]);
    }
  });
});

describe('lean postings with a head not shaped as svc builds it', () => {
  const built = () => {
    const imported = spec('s', [{ method: 'GET', path: '/widgets', summary: 'List widgets' }, { method: 'POST', path: '/gadgets', summary: 'Add a widget' }]);
    return buildIndex(imported.endpoints.map((e, i) => makeEntry(e, i + 1, i))).data.lean();
  };
  const isLean = (mini: unknown) => (mini as { _fieldLength: unknown })._fieldLength instanceof FieldLengths;
  const results = (mini: ReturnType<typeof loadLeanPostings>) => mini.search('widget gadget').map((r) => `${r.id} ${r.score.toFixed(6)}`);

  it('load into MiniSearch\'s own form, and search alike', () => {
    const { head, postings } = built();
    const lean = loadLeanPostings(head, postings);
    assert.ok(isLean(lean));
    const variants = {
      'a next id past the documents': { head: { ...head, nextId: head.nextId + 1 }, postings },
      'document ids past the short ids': { head: { ...head, documentIds: { ...head.documentIds, [head.documentCount + 5]: 99 }, documentCount: head.documentCount }, postings },
    };
    for (const [name, v] of Object.entries(variants)) {
      const mini = loadLeanPostings(v.head, v.postings);
      assert.ok(!isLean(mini), name);
      assert.deepEqual(results(mini), results(lean), name);
    }
  });
});
