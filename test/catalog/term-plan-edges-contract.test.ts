// Edges of the term plan and of quoted summaries: the rarest term is searched even when it alone
// passes the postings budget; prefix expansion stops at half the budget of exact postings whatever
// the expansions add; endpoints whose summary the query quotes come before the ranking, in its order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { POSTINGS_BUDGET, cheapEnough, planTerms } from '../../src/catalog/term-plan.ts';
import { spec } from './fixtures.ts';

describe('the term plan, at its edges', () => {
  it('searches the rarest term even when it alone passes the postings budget', () => {
    const parsed = parseQuery('alpha beta');
    const plan = planTerms(parsed, (t) => (t === 'alpha' ? POSTINGS_BUDGET + 1 : POSTINGS_BUDGET + 5));
    assert.deepEqual(plan.searched, ['alpha']);
    assert.deepEqual(plan.late, ['beta']);
    assert.equal(plan.postings, POSTINGS_BUDGET + 1);
  });

  it('stops prefix expansion once the exact postings reach half the budget, whatever the expansions add', () => {
    const half = POSTINGS_BUDGET / 2;
    const plan = (postings: number) => ({ byRarity: ['abcde'], searched: ['abcde'], late: [], postings });
    assert.equal(cheapEnough(plan(half), () => 0, () => 0), false);
    assert.equal(cheapEnough(plan(half - 1), () => 0, () => 0), true);
    assert.equal(cheapEnough({ ...plan(0), late: ['x'] }, () => 0, () => 0), false);
  });
});

describe('endpoints whose summary the query quotes', () => {
  it('come first, in the ranking\'s order, at one and a half times its best score plus one', () => {
    // Two endpoints say "send a message" word for word; a third says more and ranks among them.
    const catalog = new Catalog([
      spec('chat', [
        { method: 'GET', path: '/messages', summary: 'List messages' },
        { method: 'POST', path: '/messages', summary: 'Send a message' },
        { method: 'POST', path: '/messages/send', summary: 'Send a message to a message channel' },
        { method: 'POST', path: '/dm', summary: 'Send a message' },
      ]),
    ]);
    const hits = catalog.search('send a message', {}, 4);
    assert.deepEqual(hits.slice(0, 2).map((h) => h.endpoint.summary), ['Send a message', 'Send a message']);
    assert.equal(hits[0]!.score, hits[1]!.score);
    const ranked = catalog.search('send message', {}, 4);
    assert.equal(hits[0]!.score, ranked[0]!.score * 1.5 + 1);
  });
});
