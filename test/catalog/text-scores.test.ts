// The ranking's text scores (text-scores.ts) read MiniSearch's postings without its result objects.
// They must be MiniSearch's own: the same documents, the same scores to the last bit, the same order
// (ties too), and the same field coverage to the last bit as MiniSearch's match objects give it (in
// their key order), over the lean and the stock index, with the prefix, field, term-boost and
// document-gate options the ranking passes, gates that keep state included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { EMPTY_FIELD } from '../../src/catalog/document.ts';
import { loadLean } from '../../src/catalog/lean-mini.ts';
import { type Doc, MINI_OPTIONS, type MiniIndexData } from '../../src/catalog/search.ts';
import { fieldCoverage } from '../../src/catalog/coverage.ts';
import type { ParsedQuery } from '../../src/catalog/query.ts';
import { type TextQuery, textScores } from '../../src/catalog/text-scores.ts';
import { FIELD_KEYS, WEIGHTS } from '../../src/catalog/weights.ts';

const WORDS = ['pod', 'pods', 'list', 'lists', 'create', 'user', 'users', 'usage', 'repo', 'repos', 'issue', 'issues', 'label', 'gist', 'a', '404', '40', '2', '10'];
const STRONG = ['s', 'p', 'o', 't', 'd'];

const fieldTerms = fc.oneof(
  fc.constant(EMPTY_FIELD as string[]),
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }),
  fc.array(fc.constantFrom('404', '40', '2', '10', 'pods', 'list'), { minLength: 2, maxLength: 6 }),
);
const docs = fc.array(fc.tuple(...FIELD_KEYS.map(() => fieldTerms)), { minLength: 1, maxLength: 60 }).map((rows) =>
  rows.map((fields, n) => {
    const doc: Record<string, unknown> = { i: n + 1 };
    FIELD_KEYS.forEach((key, f) => (doc[key] = fields[f]));
    return doc as Doc;
  }),
);
const queries = fc.record({
  // Numbers often: JavaScript orders an object's array-index keys first, whatever came first.
  terms: fc.oneof(
    fc.uniqueArray(fc.constantFrom<string>(...WORDS, 'po', 'us', 'iss', 'nothing'), { minLength: 1, maxLength: 4 }),
    fc.uniqueArray(fc.constantFrom<string>('404', '40', '2', '10', 'pods', 'list'), { minLength: 3, maxLength: 4 }),
  ),
  prefix: fc.boolean(),
  strong: fc.boolean(),
  skip: fc.integer({ min: 0, max: 5 }),
  gated: fc.boolean(),
  pool: fc.integer({ min: 1, max: 30 }),
});
type Query = typeof queries extends fc.Arbitrary<infer Q> ? Q : never;

/**
 * A document gate as the ranking's are: some documents left out, some boosted, and (when `gated`)
 * state kept from call to call: a document counts for later terms only once the first term found it.
 */
function gateFor(q: Query): (id: number, term: string) => number {
  const holders = new Set<number>();
  return (id, term) => {
    if (q.skip > 1 && id % q.skip === 0) return 0;
    if (q.gated) {
      if (term.startsWith(q.terms[0]!)) holders.add(id);
      else if (!holders.has(id)) return 0;
    }
    return 1 + (id % 3) / 10;
  };
}

const boostTerm = (term: string) => (term.length > 4 ? 2 : 1);
const prefixOf = (q: Query) => (term: string) => q.prefix && term.length >= 3;

function stockSearch(mini: MiniSearch<Doc>, q: Query) {
  return mini.search(q.terms.join(' '), {
    ...(q.strong ? { fields: STRONG } : {}),
    prefix: prefixOf(q),
    fuzzy: false,
    boostDocument: gateFor(q),
    boostTerm,
    weights: { prefix: WEIGHTS.prefix, fuzzy: WEIGHTS.fuzzy },
  });
}

function ours(mini: MiniSearch<Doc>, q: Query) {
  const query: TextQuery = {
    terms: q.terms,
    fields: q.strong ? STRONG : FIELD_KEYS,
    boost: WEIGHTS.fields,
    bm25: WEIGHTS.bm25,
    prefixWeight: WEIGHTS.prefix,
    prefix: prefixOf(q),
    boostTerm,
    boostDocument: gateFor(q),
  };
  const { matched, best } = textScores(mini, query, q.pool);
  const parsed = parsedOf(q);
  const out = [];
  for (let i = 0; i < best.length; i++) out.push({ ...best.at(i)!, coverage: best.coverage(i, parsed) });
  return { matched, best: out };
}

/**
 * What coverage reads of a query: its terms and their weights. Weights no sum of which is exact
 * in binary, so that summing in another order than MiniSearch's match keys would show.
 */
function parsedOf(q: Query): ParsedQuery {
  return { terms: q.terms, weights: new Map(q.terms.map((t, i) => [t, [0.1, 0.7, 0.2, 0.3][i]!])) } as unknown as ParsedQuery;
}

function serialized(all: readonly Doc[]): MiniIndexData {
  const mini = new MiniSearch<Doc>(MINI_OPTIONS);
  mini.addAll(all);
  return JSON.parse(JSON.stringify(mini)) as MiniIndexData;
}

function assertSame(mini: MiniSearch<Doc>, q: Query): void {
  const expected = stockSearch(mini, q);
  const got = ours(mini, q);
  assert.equal(got.matched, expected.length, 'documents matched');
  const top = expected.slice(0, q.pool);
  assert.deepEqual(
    got.best.map((r) => [r.id, r.score]),
    top.map((r) => [r.id, r.score]),
  );
  for (let i = 0; i < top.length; i++) assert.equal(got.best[i]!.coverage, fieldCoverage(top[i]!.match, parsedOf(q)), `coverage of ${top[i]!.id}`);
}

describe('text scores', () => {
  it('are MiniSearch search results, score for score and in the same order, over a lean and a stock index', () => {
    fc.assert(
      fc.property(docs, fc.array(queries, { minLength: 1, maxLength: 5 }), (all, qs) => {
        const data = serialized(all);
        const lean = loadLean(data);
        const stock = new MiniSearch<Doc>(MINI_OPTIONS);
        stock.addAll(all);
        for (const q of qs) {
          assertSame(lean, q);
          assertSame(stock, q);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('grows its working lists in the middle of a search and still answers as MiniSearch does', () => {
    // Run after the small generated indexes: 900 documents, each naming both words in three fields,
    // visit more postings than the lists first hold.
    const all = Array.from({ length: 900 }, (_, n) => {
      const doc: Record<string, unknown> = { i: n + 1 };
      FIELD_KEYS.forEach((key, f) => (doc[key] = f < 3 ? ['pods', n % 7 ? 'list' : 'label', String(n % 5)] : EMPTY_FIELD));
      return doc as Doc;
    });
    const mini = loadLean(serialized(all));
    for (const pool of [5, 120, 900]) assertSame(mini, { terms: ['pods', 'list', '3'], prefix: true, strong: false, skip: 0, gated: false, pool });
  });

  it('has no match before the first or past the last of its pool', () => {
    const all = [{ i: 1, ...Object.fromEntries(FIELD_KEYS.map((k) => [k, k === 's' ? ['users'] : EMPTY_FIELD])) } as Doc];
    const mini = loadLean(serialized(all));
    const query: TextQuery = { terms: ['users'], fields: FIELD_KEYS, boost: WEIGHTS.fields, bm25: WEIGHTS.bm25, prefixWeight: WEIGHTS.prefix, prefix: () => false, boostTerm };
    const { matched, best } = textScores(mini, query, 5);
    assert.equal(matched, 1);
    assert.equal(best.length, 1);
    assert.equal(best.at(-1), undefined);
    assert.equal(best.at(1), undefined);
    assert.equal(best.at(0)!.id, 1);
  });

  it('refuses to work out coverage from the visits of an earlier search', () => {
    const all = [{ i: 1, ...Object.fromEntries(FIELD_KEYS.map((k) => [k, k === 's' ? ['users'] : EMPTY_FIELD])) } as Doc];
    const mini = loadLean(serialized(all));
    const q = { terms: ['users'], prefix: false, strong: false, skip: 0, gated: false, pool: 5 };
    const query: TextQuery = { terms: q.terms, fields: FIELD_KEYS, boost: WEIGHTS.fields, bm25: WEIGHTS.bm25, prefixWeight: WEIGHTS.prefix, prefix: () => false, boostTerm };
    const first = textScores(mini, query, 5);
    textScores(mini, query, 5);
    assert.throws(() => first.best.coverage(0, parsedOf(q)), /after the next search/);
  });
});
