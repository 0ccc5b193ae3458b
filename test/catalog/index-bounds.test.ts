// What an index build counts beside MiniSearch's data, from its contract: a term's document count
// is the number of documents holding it in any field, and its `best` is an upper bound of the score
// MiniSearch gives any one document for that term alone (what pruning relies on), reached by the
// document whose fields give the most; over vocabularies past the builder's first table size too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { type Doc, MINI_OPTIONS, buildIndex, makeEntry } from '../../src/catalog/search.ts';
import { documentsOf } from '../../src/catalog/document.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { type EndpointInput, endpoint } from './fixtures.ts';

const WORDS = ['pods', 'list', 'user', 'users', 'repo', 'issue', 'label', 'gist', 'status', 'the'];
const METHODS: HttpMethod[] = ['GET', 'POST'];
const inputArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('pods', 'users', '{id}', 'labels'), { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  summary: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' ')),
  description: fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }).map((w) => w.join(' ')),
  tags: fc.subarray(['pods', 'users']),
});

/** MiniSearch's data with its terms in sorted order (the builder and addAll list them in different orders). */
function canonical(data: unknown): unknown {
  const plain = JSON.parse(JSON.stringify(data)) as { index: [string, unknown][] };
  plain.index.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return plain;
}

function check(inputs: readonly EndpointInput[], scored = (_t: string) => true): void {
  const entries = inputs.map((input, i) => makeEntry(endpoint('s', 'c', input), i + 1, i));
  const built = buildIndex(entries);
  const docs = documentsOf(entries);
  const reference = new MiniSearch<Doc>(MINI_OPTIONS);
  reference.addAll(docs);
  assert.deepEqual(canonical(built.data()), canonical(reference));
  const mini = MiniSearch.loadJS(built.data(), MINI_OPTIONS);
  const holding = new Map<string, Set<number>>();
  for (const doc of docs) for (const [key, terms] of Object.entries(doc)) if (key !== 'i') for (const t of terms as string[]) if (t) (holding.get(t) ?? holding.set(t, new Set()).get(t)!).add(doc.i);
  assert.deepEqual(new Set(built.df.keys()), new Set(holding.keys()));
  for (const [t, docIds] of holding) {
    assert.equal(built.df.get(t), docIds.size, t);
    if (!scored(t)) continue;
    const scores = mini.search(t, { prefix: false, fuzzy: false }).map((r) => r.score);
    const top = Math.max(...scores);
    const best = built.best.get(t)!;
    assert.ok(top <= best * (1 + 1e-12), `${t}: ${top} > ${best}`);
    assert.ok(best > 0, t);
  }
}

describe('an index build', () => {
  it('counts each term\'s documents, and bounds the score any document gets for it', () => {
    fc.assert(fc.property(fc.array(inputArb, { minLength: 1, maxLength: 20 }), (inputs) => check(inputs.map((x, i) => ({ ...x, path: `${x.path}/${i}` })))), { numRuns: 100 });
  });

  it('reaches its bound where one document holds a term at its most and shortest in every field', () => {
    const entries = [
      makeEntry(endpoint('s', 'c', { method: 'GET', path: '/pods', summary: 'pods', tags: ['pods'] }), 1, 0),
      makeEntry(endpoint('s', 'c', { method: 'GET', path: '/users', summary: 'list users and things' }), 2, 1),
    ];
    const built = buildIndex(entries);
    const mini = MiniSearch.loadJS(built.data(), MINI_OPTIONS);
    const top = mini.search('pod', { prefix: false, fuzzy: false })[0]!.score;
    assert.ok(Math.abs(top - built.best.get('pod')!) < 1e-9, `${top} ${built.best.get('pod')}`);
  });

  it('holds vocabularies larger than its first tables (over 1,024 and 2,048 terms)', () => {
    const inputs: EndpointInput[] = Array.from({ length: 1400 }, (_, i) => ({ method: 'GET', path: `/things/x${i}`, summary: `word${i} and word${i + 1400} pods` }));
    check(inputs, (t) => t === 'pod' || t === 'word7' || t === 'word2799');
    // The first document alone passes the first table size, and its next field and the next
    // document bring new terms into the grown part.
    const many = Array.from({ length: 1100 }, (_, i) => `w${i}`).join(' ');
    check([
      { method: 'GET', path: '/zeta/omega', summary: many },
      { method: 'GET', path: '/alpha', summary: 'v1 v2 v3 pods' },
    ], (t) => t === 'zeta' || t === 'v1' || t === 'w1099');
  });
});
