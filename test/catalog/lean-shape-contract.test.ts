// What the lean loader holds (lean-mini.ts): data shaped as svc builds it (short ids 0..n-1, field
// ids 0..f-1, nothing stored, serialization version 2) is held lean: field lengths in one typed
// array, each term's postings in flat arrays; any other data goes to MiniSearch.loadJS whole. Both
// answer alike (test/catalog/lean-mini), so only the shape tells the two apart: the memory the lean
// form saves is its whole point. MiniSearch's own private fields are read here because that is
// where the loader puts its stand-ins.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import MiniSearch from 'minisearch';
import { EMPTY_FIELD } from '../../src/catalog/document.ts';
import { FieldLengths, FieldPostings } from '../../src/catalog/lean-maps.ts';
import { loadLean, loadLeanAsync, loadSource, loadSourceAsync } from '../../src/catalog/lean-mini.ts';
import { type Doc, MINI_OPTIONS, type MiniIndexData } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { FIELD_KEYS } from '../../src/catalog/weights.ts';
import { spec } from './fixtures.ts';

interface Inner {
  _fieldLength: unknown;
  _documentIds: unknown;
  _index: { get(term: string): { get(field: number): unknown } | undefined };
}
const inner = (mini: MiniSearch<Doc>) => mini as unknown as Inner;
const isLean = (mini: MiniSearch<Doc>) => inner(mini)._fieldLength instanceof FieldLengths;

function data(): MiniIndexData {
  const mini = new MiniSearch<Doc>(MINI_OPTIONS);
  mini.addAll(
    ['list users', 'get user', 'create repo'].map((s, n) => {
      const doc: Record<string, unknown> = { i: n + 1 };
      for (const key of FIELD_KEYS) doc[key] = key === 's' ? s.split(' ') : EMPTY_FIELD;
      return doc as Doc;
    }),
  );
  return JSON.parse(JSON.stringify(mini)) as MiniIndexData;
}

const search = (mini: MiniSearch<Doc>) => mini.search('user repo', { prefix: true }).map((r) => `${r.id} ${r.score}`);

describe('the lean loader', () => {
  it('holds data shaped as svc builds it lean: field lengths in one array, postings in flat arrays', async () => {
    for (const mini of [loadLean(data()), await loadLeanAsync(data())]) {
      assert.ok(isLean(mini));
      assert.ok(!(inner(mini)._documentIds instanceof Map));
      const s = FIELD_KEYS.indexOf('s');
      assert.ok(inner(mini)._index.get('user')?.get(s) instanceof FieldPostings);
      assert.deepEqual(search(mini), search(MiniSearch.loadJS(data(), MINI_OPTIONS)));
    }
  });

  it('holds a built index\'s postings lean, from the postings it was built with', async () => {
    const image = () => new SpecState(spec('s', [{ method: 'GET', path: '/users', summary: 'List users' }])).index.image().mini;
    const source = image();
    assert.equal(typeof source, 'function');
    assert.ok(isLean(loadSource(source)));
    assert.ok(isLean(await loadSourceAsync(image())));
    // The same data as a plain object: lean too.
    const plain = typeof source === 'function' ? source() : source;
    assert.ok(isLean(loadSource(plain)));
    assert.ok(isLean(await loadSourceAsync(plain)));
  });

  const variants: [string, (d: MiniIndexData) => void][] = [
    ['a later serialization version', (d) => void (d.serializationVersion = 3)],
    ['a next id past the documents', (d) => void (d.nextId = d.documentCount + 1)],
    ['a document id missing', (d) => void delete (d.documentIds as Record<string, unknown>)['1']],
    ['an extra document id', (d) => void ((d.documentIds as Record<string, unknown>)[String(d.documentCount + 5)] = 99)],
    ['a field length missing', (d) => void delete (d.fieldLength as Record<string, unknown>)['1']],
    ['a field length that is no array', (d) => void ((d.fieldLength as Record<string, unknown>)['1'] = 3)],
    ['a stored field', (d) => void ((d.storedFields as Record<string, unknown>)['0'] = { s: 'x' })],
    ['a field id out of range', (d) => void ((d.fieldIds as Record<string, number>).e = FIELD_KEYS.length)],
    ['a negative field id', (d) => void ((d.fieldIds as Record<string, number>).e = -1)],
    ['a field id that is no integer', (d) => void ((d.fieldIds as Record<string, number>).e = 1.5)],
  ];
  for (const [name, change] of variants) {
    it(`leaves data with ${name} to loadJS`, () => {
      const d = data();
      change(d);
      let lean: MiniSearch<Doc> | undefined;
      try {
        lean = loadLean(d);
      } catch {
        // loadJS refused it too: what matters is that the lean form did not take it.
        assert.throws(() => MiniSearch.loadJS(d, MINI_OPTIONS));
        return;
      }
      assert.ok(!isLean(lean), name);
    });
  }
});
