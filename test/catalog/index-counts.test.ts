// The one-pass index keeps each posting's count in 16 bits while every count fits, and in 32 bits
// once one does not: a word said more than 65,535 times in one field (a generated summary, a
// hostile spec) keeps its true count, so its score stays the one MiniSearch's `addAll` gives. The
// same for the lean postings a snapshot stores: counts and document ids past 16 bits stay whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type MiniIndexData } from '../../src/catalog/index-build.ts';
import { leanPostings, postingsIndex } from '../../src/catalog/lean-postings.ts';
import { buildIndex, makeEntry } from '../../src/catalog/search.ts';
import { spec } from './fixtures.ts';
import { builtAndAdded } from './index-reference.ts';

function indexed(summaries: string[]): { bulk: unknown; added: unknown; countBytes: number } {
  const imported = spec('s', summaries.map((summary, i) => ({ method: 'GET', path: `/things${i}`, summary })));
  const paths = new Map();
  const entries = imported.endpoints.map((e, i) => makeEntry(e, i + 1, i, paths));
  return { ...builtAndAdded(entries), countBytes: buildIndex(entries).data.lean().postings.counts.BYTES_PER_ELEMENT };
}

describe('a posting count past 16 bits', () => {
  for (const times of [0xffff, 0x10000 + 7]) {
    it(`is kept whole: a word said ${times.toLocaleString('en')} times`, () => {
      const { bulk, added, countBytes } = indexed([`${'widget '.repeat(times)}end`, 'widget list']);
      assert.deepEqual(bulk, added);
      assert.equal(countBytes, times <= 0xffff ? 2 : 4, 'two bytes a count while every count fits');
    });
  }
});

describe('the lean postings of an index', () => {
  /** MiniSearch's serialized postings of one term in field 0: document id -> count. */
  const one = (postings: Record<number, number>): MiniIndexData['index'] => [['widget', { 0: postings }]];

  it('keep a count past 16 bits whole', () => {
    for (const count of [0xffff, 0x10000, 0x7fffffff]) {
      const index = one({ 1: 3, 2: count });
      const lean = leanPostings(index, 1, 3);
      assert.deepEqual(postingsIndex(lean), index, `count ${count}`);
      // Two bytes a count while every count fits in them: the lean form's point.
      assert.equal(lean.counts.BYTES_PER_ELEMENT, count <= 0xffff ? 2 : 4, `count ${count}`);
    }
  });

  it('keep a document id past 16 bits whole, whatever the document count says', () => {
    // (16 bits hold the ids of 65,535 documents: 0 to 0xfffe.)
    for (const id of [0xfffe, 0xffff, 0x10000, 1_000_000]) {
      const index = one({ 1: 1, [id]: 2 });
      const lean = leanPostings(index, 1, 3);
      assert.deepEqual(postingsIndex(lean), index, `id ${id}`);
      assert.equal(lean.docs.BYTES_PER_ELEMENT, id < 0xffff ? 2 : 4, `id ${id}`);
    }
  });
});

describe('the lean postings of a built index', () => {
  it('hold no empty term: an empty field counts towards its length and indexes nothing', () => {
    // No summary, tags or parameters: those fields are the one empty token.
    const imported = spec('s', [{ method: 'GET', path: '/widgets' }, { method: 'POST', path: '/widgets', summary: 'Add a widget' }]);
    const entries = imported.endpoints.map((e, i) => makeEntry(e, i + 1, i));
    const { postings } = buildIndex(entries).data.lean();
    assert.ok(postings.terms.length > 0);
    assert.ok(!postings.terms.includes(''), postings.terms.join(' '));
    assert.equal(postings.starts.length, postings.terms.length * postings.fields + 1);
  });
});
