// Edges of one spec's search index (rank.ts): a page's count takes documents holding a query word
// exactly (not a longer word it begins, not a near miss); a word is expanded to the longer words it
// begins only while that stays cheap; a word too common to look up is still credited on the
// candidates that say it; the fuzzy fallback tries every word of the query.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { textTerms } from '../../src/catalog/text.ts';
import { type EndpointInput, spec } from './fixtures.ts';

const rank = (state: SpecState, query: string, limit = 10) =>
  state.index.rank(parseQuery(query), { limit, accept: () => true, all: true }).map((r) => r.entry.endpoint.path);

describe('a spec\'s search index, at its edges', () => {
  it('counts the documents holding a word exactly: not a longer word it begins, not a near miss', () => {
    const state = new SpecState(spec('s', [
      { method: 'GET', path: '/cards', summary: 'List cards' },
      { method: 'GET', path: '/cardholders', summary: 'List cardholders' },
      { method: 'GET', path: '/carts', summary: 'List carts' },
    ]));
    const docs = state.index.matching(textTerms('card'));
    assert.deepEqual([...docs].map((d) => state.index.entryOf(d)!.endpoint.path), ['/cards']);
  });

  it('expands a word to the longer words it begins while that is cheap, not past half the postings budget', () => {
    const many = (n: number): EndpointInput[] => Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/s${i}`, summary: 'Get subscriptions' }));
    // 10 documents begin with "subscript": expanded.
    assert.equal(rank(new SpecState(spec('few', many(10))), 'subscript').length, 10);
    // 800 do: too many postings to expand, and "subscript" itself is held nowhere.
    assert.deepEqual(rank(new SpecState(spec('lots', many(800))), 'subscript'), []);
    // Only the words it begins count, however many other postings the index holds.
    const other: EndpointInput[] = Array.from({ length: 800 }, (_, i) => ({ method: 'GET', path: `/o${i}`, summary: 'Get orders' }));
    assert.equal(rank(new SpecState(spec('mixed', [...many(10), ...other])), 'subscript').length, 10);
  });

  it('credits a word too common to look up on the candidates whose own fields say it', () => {
    // "user" is in 1,600 documents (past the postings budget): it is checked on the "widget" candidates.
    const endpoints: EndpointInput[] = [
      { method: 'GET', path: '/w1', summary: 'Widget' },
      { method: 'GET', path: '/w2', summary: 'Widget for a user' },
      ...Array.from({ length: 1600 }, (_, i) => ({ method: 'GET' as const, path: `/u${i}`, summary: 'Get a user' })),
    ];
    const state = new SpecState(spec('big', endpoints));
    const [first, second] = state.index.rank(parseQuery('user widget'), { limit: 2, accept: () => true, all: true });
    assert.equal(first!.entry.endpoint.path, '/w2');
    assert.ok(first!.score > 2 * second!.score, `${first!.score} against ${second!.score}: the common word counts`);
    // Without the common word, the shorter summary wins.
    assert.equal(rank(state, 'widget', 1)[0], '/w1');
  });

  it('falls back on near misses of every word when nothing matched as typed', () => {
    const state = new SpecState(spec('s', [
      { method: 'GET', path: '/widgets', summary: 'List widgets' },
      { method: 'GET', path: '/gadgets', summary: 'List gadgets' },
    ]));
    assert.deepEqual(new Set(rank(state, 'widgetz gadgetz')), new Set(['/widgets', '/gadgets']));
  });
});
