// An index loaded lean looks its terms up without MiniSearch's tree of every term (`LeanTerms`):
// a term by a Map, a prefix in a tree of only the terms it begins. The scores of a prefix search
// add up in the order the terms come, so that order must be the tree's: these tests hold every
// look-up to MiniSearch's own tree of the same terms put in in the same order, on generated term
// lists (few letters, so that terms share prefixes, split edges and end inside one another) and
// on a real index's terms; and a lean index that something changes answers from the whole tree.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { LeanTerms, loadSource } from '../../src/catalog/lean-mini.ts';
import { type Doc, MINI_OPTIONS, buildIndex, makeEntry } from '../../src/catalog/search.ts';
import { importSpec } from '../../src/import/index.ts';
import { spec } from './fixtures.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Lean terms over `terms` (each term's postings: one document, the term's number as its count). */
function lean(terms: readonly string[]): LeanTerms {
  const starts = Uint32Array.from({ length: terms.length + 1 }, (_, i) => i);
  const numbers = Uint16Array.from(terms, (_, i) => i);
  return new LeanTerms(terms, { docs: numbers, counts: numbers, starts, fields: 1 });
}

type Postings = { get(field: number): { keys(): Iterator<number> } | undefined };

/** The term's number its postings carry (their one document). */
const numberOf = (postings: Postings | undefined): number | undefined => postings?.get(0)?.keys().next().value;

/** A look-up's terms in order, each with its number. */
function listed(found: Iterable<[string, Postings]>): [string, number | undefined][] {
  return [...found].map(([term, postings]) => [term, numberOf(postings)]);
}

/** MiniSearch's tree of `list` as loadJS builds it: every term, in order. */
function tree(list: readonly string[]): SearchableMap<number> {
  const map = new SearchableMap<number>();
  list.forEach((t, i) => map.set(t, i));
  return map;
}

function prefixesOf(list: readonly string[]): string[] {
  const out = new Set<string>(['', 'zz', 'abcabc']);
  for (const t of list) for (let n = 1; n <= t.length + 1; n++) out.add(t.slice(0, n) + (n > t.length ? 'a' : ''));
  return [...out];
}

function holdsToTree(list: readonly string[]): void {
  const held = lean(list);
  const whole = tree(list);
  assert.equal(held.size, whole.size);
  for (const p of prefixesOf(list)) {
    assert.deepEqual(
      listed(held.atPrefix(p)),
      [...whole.atPrefix(p)].map(([t, i]) => [t, i]),
      `prefix ${JSON.stringify(p)} of ${JSON.stringify(list)}`,
    );
    // Asked again (remembered), the same.
    assert.deepEqual(listed(held.atPrefix(p)).map(([t]) => t), [...whole.atPrefix(p)].map(([t]) => t));
    assert.equal(numberOf(held.get(p)), whole.get(p));
    assert.equal(held.has(p), whole.has(p));
  }
}

describe('an index loaded lean, looking its terms up', () => {
  it('finds every prefix\'s terms in the order MiniSearch\'s tree of all its terms gives them (generated)', () => {
    const term = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.uniqueArray(term, { maxLength: 40 }), (list) => holdsToTree(list)),
      { numRuns: 400 },
    );
  });

  it('finds every prefix\'s terms in the tree\'s order on a real index', async () => {
    const outcome = await importSpec(path.join(REPO, 'specs', 'bookshelf.yaml'), { name: 'bookshelf', collection: 'default' });
    assert.ok(outcome.ok);
    const { data } = buildIndex(outcome.spec.endpoints.map((e, i) => makeEntry(e, i + 1, i)));
    const list = data.lean().postings.terms;
    assert.ok(list.length > 20, `${list.length} terms`);
    holdsToTree(list);
  });

  it('answers fuzzy look-ups and iterates as the whole tree does', () => {
    const list = ['repos', 'repo', 'report', 'rep', 'users', 'user', 'usage', 'issue', 'issues', 'isle'];
    const held = lean(list);
    const whole = tree(list);
    assert.deepEqual(listed(held), [...whole]);
    assert.deepEqual([...held.keys()], [...whole.keys()]);
    for (const [q, d] of [['repot', 1], ['isue', 1], ['usr', 2], ['zzz', 1]] as const) {
      assert.deepEqual([...held.fuzzyGet(q, d)].map(([t, [, dist]]) => [t, dist]), [...whole.fuzzyGet(q, d)].map(([t, [, dist]]) => [t, dist]));
    }
  });

  // The order matters: MiniSearch sums a document's score over the fuzzy matches in this order, and
  // keeps equal scores in it. A tree of only the terms within reach orders them otherwise (a term
  // whose edge another term split moves after its later siblings), so fuzzy look-ups use the whole tree.
  it('answers fuzzy look-ups as the whole tree does, in its order, over generated vocabularies', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'r', 'e'), minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 40 }), word, fc.integer({ min: 1, max: 3 }), (list, q, d) => {
        const held = lean(list);
        const whole = tree(list);
        assert.deepEqual([...held.fuzzyGet(q, d)].map(([t, [, dist]]) => [t, dist]), [...whole.fuzzyGet(q, d)].map(([t, [, dist]]) => [t, dist]), `${q} within ${d}`);
      }),
      { numRuns: 300 },
    );
  });

  it('answers from the whole tree once something changes it', () => {
    const list = ['pods', 'pod', 'nodes'];
    const held = lean(list);
    const postings = held.get('pod')!;
    held.set('podcast', postings);
    assert.deepEqual([...held.atPrefix('pod')].map(([t]) => t), [...tree([...list, 'podcast']).atPrefix('pod')].map(([t]) => t));
    assert.equal(held.size, 4);
    held.delete('pods');
    assert.equal(held.get('pods'), undefined);
    assert.equal(held.has('pod'), true);
  });

  it('is what a lean load puts under MiniSearch, and MiniSearch\'s prefix search reads it', () => {
    const imported = spec('s', [
      { method: 'GET', path: '/repos', summary: 'List repositories' },
      { method: 'GET', path: '/repos/{id}/reports', summary: 'List reports of a repository' },
      { method: 'POST', path: '/repos', summary: 'Create a repository' },
    ]);
    const built = buildIndex(imported.endpoints.map((e, i) => makeEntry(e, i + 1, i))).data;
    const mini = loadSource(built);
    assert.ok((mini as unknown as { _index: unknown })._index instanceof LeanTerms);
    const found = (m: MiniSearch<Doc>) => m.search('repo', { prefix: true, fuzzy: 0.3 }).map((r) => [r.id, r.score, r.terms]);
    assert.ok(found(mini).length >= 3);
    assert.deepEqual(found(mini), found(MiniSearch.loadJS(built(), MINI_OPTIONS)));
  });
});
