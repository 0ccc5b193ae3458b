// The lean MiniSearch loader keeps postings in flat arrays instead of Maps. It must answer every
// search exactly as MiniSearch.loadJS of the same data does (same documents, scores, matched
// terms, order) and serialize back to the same data; these tests hold it to that on generated
// indexes and queries, with prefix, fuzzy, field and document-boost options as the ranking uses them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { loadLean, loadLeanAsync } from '../../src/catalog/lean-mini.ts';
import { EMPTY_FIELD } from '../../src/catalog/document.ts';
import { type Doc, MINI_OPTIONS, type MiniIndexData } from '../../src/catalog/search.ts';
import { FIELD_KEYS } from '../../src/catalog/weights.ts';

const WORDS = ['pod', 'pods', 'list', 'lists', 'create', 'user', 'users', 'usage', 'repo', 'repos', 'issue', 'issues', 'label', 'gist', 'a', 'z'];

const fieldTerms = fc.oneof(fc.constant(EMPTY_FIELD as string[]), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }));
const docs = fc.array(fc.tuple(...FIELD_KEYS.map(() => fieldTerms)), { minLength: 1, maxLength: 40 }).map((rows) =>
  rows.map((fields, n) => {
    const doc: Record<string, unknown> = { i: n + 1 };
    FIELD_KEYS.forEach((key, f) => (doc[key] = fields[f]));
    return doc as Doc;
  }),
);
const queries = fc.record({
  terms: fc.array(fc.constantFrom(...WORDS, 'repositor', 'isue', 'nothing'), { minLength: 1, maxLength: 4 }),
  prefix: fc.boolean(),
  fuzzy: fc.boolean(),
  strong: fc.boolean(),
  skip: fc.integer({ min: 0, max: 5 }),
});

/** Data as a snapshot carries it: MiniSearch's own serialization, through JSON. */
function serialized(all: readonly Doc[]): MiniIndexData {
  const mini = new MiniSearch<Doc>(MINI_OPTIONS);
  mini.addAll(all);
  return JSON.parse(JSON.stringify(mini)) as MiniIndexData;
}

interface Query {
  readonly terms: readonly string[];
  readonly prefix: boolean;
  readonly fuzzy: boolean;
  readonly strong: boolean;
  readonly skip: number;
}

function search(mini: MiniSearch<Doc>, q: Query) {
  return mini.search(q.terms.join(' '), {
    ...(q.strong ? { fields: ['s', 'p', 'o', 't', 'd'] } : {}),
    prefix: (term) => q.prefix && term.length >= 3,
    fuzzy: q.fuzzy ? (term) => (term.length >= 4 ? 0.2 : false) : false,
    // Documents whose id is a multiple of `skip` are left out, as the ranking's filters do.
    boostDocument: (id: number) => (q.skip > 1 && id % q.skip === 0 ? 0 : 1 + (id % 3) / 10),
    boostTerm: (term) => (term.length > 4 ? 2 : 1),
  });
}

describe('MiniSearch loaded lean', () => {
  it('answers every search as loadJS of the same data does', () => {
    fc.assert(
      fc.property(docs, fc.array(queries, { minLength: 1, maxLength: 5 }), (all, qs) => {
        const data = serialized(all);
        const stock = MiniSearch.loadJS(data, MINI_OPTIONS);
        const lean = loadLean(data);
        for (const q of qs) assert.deepEqual(search(lean, q), search(stock, q));
        assert.equal(lean.documentCount, stock.documentCount);
        assert.equal(lean.termCount, stock.termCount);
      }),
      { numRuns: 150 },
    );
  });

  it('serializes as loadJS of the same data does', async () => {
    await fc.assert(
      fc.asyncProperty(docs, async (all) => {
        const data = serialized(all);
        const stock = JSON.parse(JSON.stringify(MiniSearch.loadJS(data, MINI_OPTIONS))) as unknown;
        assert.deepEqual(JSON.parse(JSON.stringify(loadLean(data))), stock);
        assert.deepEqual(JSON.parse(JSON.stringify(await loadLeanAsync(data))), stock);
      }),
      { numRuns: 60 },
    );
  });

  it('loads data it cannot hold lean (ids not dense after a removal) the way loadJS does', () => {
    const mini = new MiniSearch<Doc>(MINI_OPTIONS);
    const all = serializedDocs();
    mini.addAll(all);
    mini.discard(2);
    const data = JSON.parse(JSON.stringify(mini)) as MiniIndexData;
    const q = { terms: ['users', 'list'], prefix: true, fuzzy: true, strong: false, skip: 0 };
    assert.deepEqual(search(loadLean(data), q), search(MiniSearch.loadJS(data, MINI_OPTIONS), q));
    assert.ok(search(loadLean(data), q).length > 0);
  });

  it('keeps counts above 65,535 and more documents than 16-bit ids hold', () => {
    const many: Doc[] = [];
    for (let n = 1; n <= 70_000; n++) {
      const doc: Record<string, unknown> = { i: n };
      for (const key of FIELD_KEYS) doc[key] = EMPTY_FIELD;
      doc['s'] = n === 69_999 ? new Array<string>(70_000).fill('pods') : ['users', n % 2 ? 'list' : 'create'];
      many.push(doc as Doc);
    }
    const data = serialized(many);
    const q = { terms: ['pods', 'create'], prefix: false, fuzzy: false, strong: false, skip: 0 };
    const lean = search(loadLean(data), q);
    assert.deepEqual(lean.slice(0, 50), search(MiniSearch.loadJS(data, MINI_OPTIONS), q).slice(0, 50));
    assert.equal(lean[0]!.id, 69_999);
  });
});

function serializedDocs(): Doc[] {
  return [1, 2, 3].map((n) => {
    const doc: Record<string, unknown> = { i: n };
    for (const key of FIELD_KEYS) doc[key] = EMPTY_FIELD;
    doc['s'] = n === 2 ? ['users'] : ['list', 'users'];
    return doc as Doc;
  });
}
