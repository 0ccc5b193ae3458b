// The ranking core's contracts, checked in-process on generated catalogues: a pruned search (indexes
// and results skipped once they provably cannot reach the page) answers exactly as one that ranks
// everything, with any filter and page size; the term plan splits a query's terms by cost as its
// budget says; a page deeper than the re-ranking pool still gets every hit it asks for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import type { SearchFilters } from '../../src/catalog/index.ts';
import { rerankPool } from '../../src/catalog/rerank.ts';
import { POSTINGS_BUDGET, PREFIX_MIN, cheapEnough, planTerms } from '../../src/catalog/term-plan.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import type { HttpMethod, ImportedSpec } from '../../src/model/index.ts';
import { type EndpointInput, spec } from './fixtures.ts';

const WORDS = ['list', 'get', 'create', 'delete', 'all', 'my', 'the', 'user', 'users', 'message', 'channel', 'invoice', 'refund', 'webhook', 'subscription', 'report'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const TAGS = ['admin', 'billing', 'chat'];

const endpointArb: fc.Arbitrary<EndpointInput> = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('users', 'messages', '{id}', 'me', 'channels', 'invoices', 'refunds', 'webhooks'), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  summary: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' ')),
  operationId: fc.array(fc.constantFrom('list', 'get', 'Users', 'Message', 'create', 'Invoice'), { maxLength: 3 }).map((w) => w.join('')),
  tags: fc.subarray(TAGS, { maxLength: 2 }),
  deprecated: fc.boolean(),
});

/** Specs named s0, s1, ... from generated endpoints, each METHOD /path once. */
function specsOf(inputs: readonly EndpointInput[][]): ImportedSpec[] {
  return inputs.map((list, i) => {
    const seen = new Set<string>();
    return spec(`s${i}`, list.filter((x) => !seen.has(`${x.method} ${x.path}`) && seen.add(`${x.method} ${x.path}`)));
  });
}

const queryArb = fc.array(fc.constantFrom(...WORDS, 'messages', 'invoices'), { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
const filtersArb: fc.Arbitrary<SearchFilters> = fc.record(
  { method: fc.constantFrom(...METHODS), tag: fc.constantFrom(...TAGS) },
  { requiredKeys: [] },
);

const page = (catalog: Catalog, query: string, filters: SearchFilters, limit: number) =>
  catalog.search(query, filters, limit).map((h) => `${h.endpoint.id} ${h.score}`);

describe('a pruned search', () => {
  it('answers as the exhaustive ranking, with any tag or method filter and page size (generated catalogues)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(endpointArb, { minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 5 }),
        queryArb,
        filtersArb,
        fc.integer({ min: 1, max: 12 }),
        (inputs, query, filters, limit) => {
          const specs = specsOf(inputs);
          const pruned = new Catalog(specs, { maxIndexesSearched: Infinity, budgetMs: Infinity, budgetPostings: Infinity, fallbackMs: Infinity });
          const exhaustive = new Catalog(specs, { prune: false });
          assert.deepEqual(page(pruned, query, filters, limit), page(exhaustive, query, filters, limit), `${query} ${JSON.stringify(filters)}`);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('answers as the exhaustive ranking over a subset of the specs (a collection filter)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(endpointArb, { minLength: 1, maxLength: 8 }), { minLength: 3, maxLength: 6 }), queryArb, fc.integer({ min: 1, max: 6 }), (inputs, query, limit) => {
        const specs = specsOf(inputs).map((s, i) => ({ ...s, collection: i % 2 === 0 ? 'even' : 'odd', endpoints: s.endpoints.map((e) => ({ ...e, collection: i % 2 === 0 ? 'even' : 'odd' })) }));
        const pruned = new Catalog(specs, { maxIndexesSearched: Infinity, budgetMs: Infinity, budgetPostings: Infinity, fallbackMs: Infinity });
        const exhaustive = new Catalog(specs, { prune: false });
        for (const collection of ['even', 'odd']) {
          assert.deepEqual(page(pruned, query, { collection }, limit), page(exhaustive, query, { collection }, limit), `${query} in ${collection}`);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('ranks a page deeper than the re-ranking pool whole: every matching endpoint, in score order', () => {
    const pool = rerankPool(1);
    const n = pool + 30;
    const endpoints: EndpointInput[] = Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/reports/r${i}`, summary: `Report number ${i}${i % 3 === 0 ? ' report' : ''}` }));
    const catalog = new Catalog([spec('big', endpoints), spec('other', [{ method: 'GET', path: '/users', summary: 'List users' }])]);
    for (const limit of [pool - 1, pool, pool + 1, n]) {
      const hits = catalog.search('report', {}, limit);
      assert.equal(hits.length, limit, `limit ${limit}`);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, `score order at ${i} (limit ${limit})`);
      // A deeper page starts with the shallower one.
      assert.deepEqual(hits.slice(0, 10).map((h) => h.endpoint.id), catalog.search('report', {}, 10).map((h) => h.endpoint.id));
    }
    assert.equal(rerankPool(pool + 5), pool + 5);
    assert.equal(rerankPool(0), pool);
  });
});

describe('the term plan', () => {
  const termsArb = fc.uniqueArray(fc.stringMatching(/^[a-z]{2,9}$/), { minLength: 1, maxLength: 8 });

  it('looks terms up rarest first, low-weight words last, and leaves out only what would pass the postings budget', () => {
    fc.assert(
      fc.property(termsArb, fc.array(fc.nat(1200), { minLength: 8, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (terms, dfs, light) => {
        const df = (t: string) => dfs[terms.indexOf(t)] ?? 0;
        const weights = new Map(terms.map((t, i) => [t, light[i] ? 0.5 : 1]));
        const parsed = { ...parseQuery(terms.join(' ')), terms, weights };
        const plan = planTerms(parsed, df);
        assert.deepEqual([...plan.byRarity].sort(), [...terms].sort());
        const cost = (t: string) => df(t) * (weights.get(t)! < 1 ? 100 : 1);
        for (let i = 1; i < plan.byRarity.length; i++) assert.ok(cost(plan.byRarity[i - 1]!) <= cost(plan.byRarity[i]!));
        // Searched and late split the terms, each in rarity order, the rarest always searched.
        assert.deepEqual([...plan.searched, ...plan.late].sort(), [...terms].sort());
        assert.equal(plan.searched[0], plan.byRarity[0]);
        const inOrder = (part: readonly string[]) => part.every((t, i) => i === 0 || plan.byRarity.indexOf(part[i - 1]!) < plan.byRarity.indexOf(t));
        assert.ok(inOrder(plan.searched) && inOrder(plan.late));
        assert.equal(plan.postings, plan.searched.reduce((s, t) => s + df(t), 0));
        if (plan.searched.length > 1) assert.ok(plan.postings <= POSTINGS_BUDGET, `${plan.postings}`);
        for (const t of plan.late) assert.ok(plan.postings + df(t) > POSTINGS_BUDGET, `${t} left out though it fits`);
        // Greedy: a term is left out only when it does not fit beside the terms searched before it.
        let sum = 0;
        let count = 0;
        for (const t of plan.byRarity) {
          const fits = count === 0 || sum + df(t) <= POSTINGS_BUDGET;
          assert.equal(plan.searched.includes(t), fits, `${t} (sum ${sum}, df ${df(t)})`);
          if (fits) {
            sum += df(t);
            count++;
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('splits at the budget exactly: a term that reaches it is searched, one past it is not', () => {
    const parsed = parseQuery('alpha beta');
    for (const [second, searched] of [[POSTINGS_BUDGET - 100, true], [POSTINGS_BUDGET - 99, false]] as const) {
      const df = (t: string) => (t === 'alpha' ? 100 : second);
      const plan = planTerms(parsed, df);
      assert.equal(plan.searched.includes('beta'), searched, `beta df ${second}`);
    }
  });

  it('expands prefixes only while the plan is cheap: nothing left out, under half the budget with each long term\'s expansions', () => {
    const half = POSTINGS_BUDGET / 2;
    fc.assert(
      fc.property(termsArb, fc.array(fc.nat(600), { minLength: 8, maxLength: 8 }), fc.array(fc.nat(900), { minLength: 8, maxLength: 8 }), (terms, dfs, prefixDfs) => {
        const df = (t: string) => dfs[terms.indexOf(t)] ?? 0;
        const prefixDf = (t: string) => df(t) + (prefixDfs[terms.indexOf(t)] ?? 0);
        const plan = planTerms({ ...parseQuery(terms.join(' ')), terms, weights: new Map(terms.map((t) => [t, 1])) }, df);
        const expanded = plan.searched.reduce((s, t) => s + (t.length >= PREFIX_MIN ? prefixDf(t) : df(t)), 0);
        const expected = plan.late.length === 0 && plan.postings < half && expanded < half;
        assert.equal(cheapEnough(plan, df, prefixDf), expected);
      }),
      { numRuns: 400 },
    );
    const plan = (n: number) => ({ byRarity: ['abcd'], searched: ['abcd'], late: [], postings: n });
    const flat = () => 0;
    assert.equal(cheapEnough(plan(half - 1), () => half - 1, flat), true);
    assert.equal(cheapEnough(plan(half), () => half, flat), false);
    assert.equal(cheapEnough(plan(0), () => 0, () => half), true, 'a short term counts its own documents, not its prefix expansions');
    assert.equal(cheapEnough({ byRarity: ['abcde'], searched: ['abcde'], late: [], postings: 0 }, () => 0, () => half), false);
    assert.equal(cheapEnough({ byRarity: ['abcde'], searched: ['abcde'], late: [], postings: 0 }, () => 0, () => half - 1), true);
    assert.equal(cheapEnough({ byRarity: ['a', 'b'], searched: ['a'], late: ['b'], postings: 0 }, () => 0, flat), false);
  });
});
