// The lean loader's stand-ins for MiniSearch's Maps (postings per term and field, document ids,
// field lengths, ids back to short ids) answer every Map method MiniSearch may call as the Maps
// `MiniSearch.loadJS` builds from the same data do: size, has, get, keys, values, entries and
// iteration, inside and just outside the range of keys held; and MiniSearch's own look-ups by
// document id (`has`, `getStoredFields`) agree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { loadLean, loadLeanAsync } from '../../src/catalog/lean-mini.ts';
import { EMPTY_FIELD } from '../../src/catalog/document.ts';
import { type Doc, MINI_OPTIONS, type MiniIndexData } from '../../src/catalog/search.ts';
import { FIELD_KEYS } from '../../src/catalog/weights.ts';

const WORDS = ['pod', 'pods', 'list', 'user', 'users', 'repo', 'issue', 'a', 'z'];
const fieldTerms = fc.oneof(fc.constant(EMPTY_FIELD as string[]), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }));
const docs = fc.array(fc.tuple(...FIELD_KEYS.map(() => fieldTerms)), { minLength: 1, maxLength: 25 }).map((rows) =>
  rows.map((fields, n) => {
    const doc: Record<string, unknown> = { i: n + 1 };
    FIELD_KEYS.forEach((key, f) => (doc[key] = fields[f]));
    return doc as Doc;
  }),
);

function serialized(all: readonly Doc[]): MiniIndexData {
  const mini = new MiniSearch<Doc>(MINI_OPTIONS);
  mini.addAll(all);
  return JSON.parse(JSON.stringify(mini)) as MiniIndexData;
}

type MapLike = {
  size: number;
  has(k: unknown): boolean;
  get(k: unknown): unknown;
  keys?(): Iterable<unknown>;
  values?(): Iterable<unknown>;
  entries(): Iterable<[unknown, unknown]>;
  [Symbol.iterator](): Iterator<[unknown, unknown]>;
};
/** MiniSearch 7's private fields, as the lean loader fills them in. */
type Inner = { _index: { entries(): Iterable<[string, MapLike]>; get(term: string): MapLike | undefined }; _documentIds: MapLike; _fieldLength: MapLike; _idToShortId: MapLike };

const plain = (v: unknown): unknown => (v && typeof v === 'object' && Symbol.iterator in v ? [...(v as Iterable<unknown>)].map(plain) : v);

/** `lean` answers as the Map `stock` for keys `probe`, and iterates as it does. */
function sameMap(lean: MapLike, stock: MapLike, probe: readonly unknown[], where: string, inner?: (a: MapLike, b: MapLike, key: unknown) => void): void {
  assert.equal(lean.size, stock.size, `${where}: size`);
  for (const k of probe) {
    assert.equal(lean.has(k), stock.has(k), `${where}: has(${String(k)})`);
    if (inner && stock.has(k)) inner(lean.get(k) as MapLike, stock.get(k) as MapLike, k);
    else assert.deepEqual(plain(lean.get(k)), plain(stock.get(k)), `${where}: get(${String(k)})`);
  }
  // The stand-ins have the methods MiniSearch calls on each; those they have answer as the Map's.
  if (lean.keys) assert.deepEqual([...lean.keys()], [...stock.keys!()], `${where}: keys`);
  if (lean.values) assert.deepEqual(plain([...lean.values()]), plain([...stock.values!()]), `${where}: values`);
  assert.deepEqual(plain([...lean.entries()]), plain([...stock.entries()]), `${where}: entries`);
  assert.deepEqual(plain([...lean]), plain([...stock]), `${where}: iteration`);
}

describe('MiniSearch loaded lean, its Maps', () => {
  it('answer every Map method as loadJS\'s Maps of the same data do', async () => {
    await fc.assert(
      fc.asyncProperty(docs, fc.boolean(), async (all, stepped) => {
        const data = serialized(all);
        const stock = MiniSearch.loadJS(data, MINI_OPTIONS);
        const lean = stepped ? await loadLeanAsync(data) : loadLean(data);
        const s = stock as unknown as Inner;
        const l = lean as unknown as Inner;
        const n = all.length;
        const shortIds = Array.from({ length: n + 4 }, (_, i) => i - 2);
        const fields = Array.from({ length: FIELD_KEYS.length + 3 }, (_, i) => i - 1);
        for (const [term, postings] of s._index.entries()) {
          const got = l._index.get(term);
          assert.ok(got, term);
          sameMap(got, postings, fields, term, (a, b, field) => sameMap(a, b, shortIds, `${term} field ${String(field)}`));
        }
        sameMap(l._documentIds, s._documentIds, shortIds, 'document ids');
        sameMap(l._fieldLength, s._fieldLength, shortIds, 'field lengths');
        for (const id of [0, ...all.map((d) => d.i), n + 1, 'x']) {
          assert.equal(lean.has(id), stock.has(id), `has(${id})`);
          assert.deepEqual(lean.getStoredFields(id), stock.getStoredFields(id), `getStoredFields(${id})`);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('hold field lengths above 65,535 as they are', () => {
    const long = Array.from({ length: 70_000 }, (_, i) => (i % 2 === 0 ? 'pod' : 'user'));
    const all = [{ i: 1, s: long, p: ['pods'], o: EMPTY_FIELD, t: EMPTY_FIELD, d: EMPTY_FIELD, a: EMPTY_FIELD, e: EMPTY_FIELD } as unknown as Doc, { i: 2, s: ['list'], p: ['users'], o: EMPTY_FIELD, t: EMPTY_FIELD, d: EMPTY_FIELD, a: EMPTY_FIELD, e: EMPTY_FIELD } as unknown as Doc];
    const data = serialized(all);
    const stock = MiniSearch.loadJS(data, MINI_OPTIONS) as unknown as Inner;
    const lean = loadLean(data) as unknown as Inner;
    sameMap(lean._fieldLength, stock._fieldLength, [-1, 0, 1, 2], 'field lengths');
  });
});
