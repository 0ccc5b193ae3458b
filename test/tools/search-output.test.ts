// The search tool's answer: a header with the range shown of a true total (or "more than" past the
// depth pages reach), one listing line per hit, a cursor exactly when more follow; the query quoted
// back on one line and cut; the filters checked and applied; the bounds of query, limit and depth.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { MAX_QUERY_CHARS, MAX_SEARCH_DEPTH } from '../../src/catalog/index.ts';
import { safeLine } from '../../src/model/safe-text.ts';
import { spec } from '../catalog/fixtures.ts';
import { decodeCursor, encodeCursor, endpointItemOf, listingLine, listingOutputShape } from '../../src/tools/listing.ts';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, search } from '../../src/tools/search.ts';
import { benchOfSpecs, type Bench } from './support.ts';

/** `n` widget endpoints in spec shop (collection retail, tag widgets), and an order endpoint in spec sales. */
async function shop(n: number): Promise<Bench> {
  const widgets = spec(
    'shop',
    Array.from({ length: n }, (_, i) => ({ method: (i % 3 === 0 ? 'POST' : 'GET') as 'GET' | 'POST', path: `/widgets/${i}`, summary: `Get widget number ${i}`, tags: ['widgets'] })),
    { collection: 'retail' },
  );
  const sales = spec('sales', [{ method: 'POST', path: '/orders', summary: 'Create an order', tags: ['orders'] }, { method: 'GET', path: '/widgets', summary: 'Widget sales', tags: ['widgets'] }], {
    collection: 'office',
  });
  return benchOfSpecs(n > 0 ? [widgets, sales] : [sales]);
}

interface Answer {
  text: string;
  isError?: boolean;
  structured?: { endpoints: { id: string }[]; total: number; nextCursor?: string; moreThanTotal?: boolean; readAs?: string };
}
const ask = async (bench: Bench, input: Record<string, unknown>): Promise<Answer> => (await bench.run('search', input)) as Answer;

describe('search pages', () => {
  it('says the range shown of the total, lists each hit once across the pages, and gives a cursor exactly when more follow', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 45 }), fc.option(fc.integer({ min: 1, max: 25 }), { nil: undefined }), async (n, limit) => {
        const bench = await shop(n);
        const size = limit ?? DEFAULT_SEARCH_LIMIT;
        const seen: string[] = [];
        let cursor: string | undefined;
        let offset = 0;
        let total = -1;
        do {
          const r = await ask(bench, { query: 'widget', ...(limit ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) });
          assert.equal(r.isError, undefined, r.text);
          const s = r.structured!;
          if (total < 0) total = s.total;
          assert.equal(s.total, total);
          const ids = s.endpoints.map((e) => e.id);
          assert.equal(ids.length, Math.min(size, total - offset));
          seen.push(...ids);
          const end = offset + ids.length;
          const lines = r.text.split('\n');
          const hits = ids.map((id) => bench.ctx.catalog.get(id)!);
          assert.deepEqual(s.endpoints, hits.map(endpointItemOf));
          if (end < total) {
            assert.equal(decodeCursor(s.nextCursor!), end);
            assert.deepEqual(lines, [`${offset + 1}-${end} of ${total} matches for "widget", best first`, ...hits.map(listingLine), `more: cursor=${s.nextCursor}`]);
          } else {
            assert.ok(!('nextCursor' in s));
            const head = total === 0 ? 'no endpoints match "widget"; try other words or fewer filters' : `${offset === 0 ? `${total}` : `${offset + 1}-${end} of ${total}`} matches for "widget", best first`;
            assert.deepEqual(lines, [head, ...hits.map(listingLine)]);
          }
          assert.deepEqual(Object.keys(s).sort(), end < total ? ['endpoints', 'nextCursor', 'total'] : ['endpoints', 'total']);
          assert.ok(z.object(listingOutputShape).safeParse(s).success);
          cursor = s.nextCursor;
          offset = end;
        } while (cursor);
        assert.equal(total, n + 1);
        assert.equal(new Set(seen).size, seen.length);
        assert.equal(seen.length, total);
      }),
      { numRuns: 25 },
    );
  });

  it('takes an empty cursor as the first page, and 20 hits when no limit is given', async () => {
    const bench = await shop(30);
    const first = await ask(bench, { query: 'widget', cursor: '' });
    assert.equal(first.structured!.endpoints.length, 20);
    assert.equal(DEFAULT_SEARCH_LIMIT, 20);
    assert.equal(first.text.split('\n')[0], '1-20 of 31 matches for "widget", best first');
    assert.equal(decodeCursor(first.structured!.nextCursor!), 20);
  });

  it('says a page past the end is past the end, with the total', async () => {
    const bench = await shop(4);
    const r = await ask(bench, { query: 'widget', cursor: encodeCursor(9), limit: 3 });
    assert.deepEqual(r, { text: '5 matches for "widget"; this page is past the end', structured: { endpoints: [], total: 5 } });
  });

  it('pages down to the depth it ranks, exactly, and refuses one page further', async () => {
    const bench = await shop(3);
    assert.equal((await ask(bench, { query: 'widget', cursor: encodeCursor(MAX_SEARCH_DEPTH - 5), limit: 5 })).isError, undefined);
    assert.deepEqual(await ask(bench, { query: 'widget', cursor: encodeCursor(MAX_SEARCH_DEPTH - 5), limit: 6 }), {
      isError: true,
      text: `search pages reach ${MAX_SEARCH_DEPTH} results deep\nhint: add words or a spec, tag or method filter to narrow the search`,
    });
    assert.deepEqual(await ask(bench, { query: 'widget', limit: MAX_SEARCH_DEPTH + 1 }), {
      isError: true,
      text: `search pages reach ${MAX_SEARCH_DEPTH} results deep\nhint: add words or a spec, tag or method filter to narrow the search`,
    });
  });

  it('past the depth pages reach: "more than", the cursor stops at that depth', async () => {
    const bench = await shop(1005);
    const first = await ask(bench, { query: 'widget', limit: 10 });
    assert.equal(first.text.split('\n')[0], `1-10 of more than ${MAX_SEARCH_DEPTH} matches for "widget", best first`);
    assert.equal(first.structured!.moreThanTotal, true);
    assert.equal(first.structured!.total, MAX_SEARCH_DEPTH);
    const last = await ask(bench, { query: 'widget', limit: 10, cursor: encodeCursor(MAX_SEARCH_DEPTH - 10) });
    assert.equal(last.text.split('\n')[0], `${MAX_SEARCH_DEPTH - 9}-${MAX_SEARCH_DEPTH} of more than ${MAX_SEARCH_DEPTH} matches for "widget", best first`);
    assert.equal(last.structured!.nextCursor, undefined);
    assert.ok(!last.text.includes('more: cursor='));
    const exact = await ask(bench, { query: 'order' });
    assert.ok(!('moreThanTotal' in exact.structured!));
  });
});

describe('the query quoted back', () => {
  it('on one line, whole up to 80 characters, else its first 77 and "..."', async () => {
    const bench = await shop(2);
    const char = fc.constantFrom('w', 'i', 'd', 'g', 'e', 't', ' ', '\n', '\t', '\r', '\u2028', '\u001b', 'é', '"');
    await fc.assert(
      fc.asyncProperty(fc.array(char, { minLength: 1, maxLength: 140 }).map((cs) => cs.join('')), async (query) => {
        fc.pre(query.trim() !== '');
        const r = await ask(bench, { query });
        fc.pre(!r.isError); // a query of too many words is refused by the catalogue: another test's matter
        const head = r.text.split('\n')[0]!;
        assert.equal(r.text.split('\n').length, 1 + r.structured!.endpoints.length + (r.structured!.nextCursor ? 1 : 0));
        const line = safeLine(query);
        const quoted = line.length <= 80 ? line : `${line.slice(0, 77)}...`;
        assert.ok(head.includes(`"${quoted}"`), `${JSON.stringify(head)} quotes ${JSON.stringify(quoted)}`);
        assert.ok(!head.includes(`"${line}"`) || line.length <= 80);
      }),
      { numRuns: 80 },
    );
  });

  it('cuts at exactly 80 characters', async () => {
    const bench = await shop(2);
    const q80 = `widget ${'z'.repeat(73)}`;
    assert.match((await ask(bench, { query: q80 })).text, new RegExp(`^.* matches for "${q80}", best first`));
    const q81 = `${q80}y`;
    assert.match((await ask(bench, { query: q81 })).text, new RegExp(`^.* matches for "${q81.slice(0, 77)}\\.\\.\\.", best first`));
  });

  it('says how it read a misspelt query, in text and structured', async () => {
    const bench = await shop(3);
    const r = await ask(bench, { query: 'widgte', limit: 2 });
    assert.equal(r.text.split('\n')[0], '1-2 of 4 matches for "widgte" (read as "widget"), best first');
    assert.equal(r.structured!.readAs, 'widget');
    const plain = await ask(bench, { query: 'widget', limit: 2 });
    assert.ok(!('readAs' in plain.structured!));
    assert.doesNotMatch(plain.text, /read as/);
  });

  it('keeps a query with line breaks on the header line', async () => {
    const bench = await shop(1);
    assert.equal((await ask(bench, { query: 'xylo\nphone' })).text, 'no endpoints match "xylo phone"; try other words or fewer filters');
  });
});

describe('search filters and bounds', () => {
  it('narrows by spec, collection, tag and method (any case), alone or together', async () => {
    const bench = await shop(6);
    const ids = async (input: Record<string, unknown>): Promise<string[]> => {
      const r = await ask(bench, { query: 'widget', limit: 50, ...input });
      assert.equal(r.isError, undefined, r.text);
      return r.structured!.endpoints.map((e) => e.id).sort();
    };
    const all = await ids({});
    assert.equal(all.length, 7);
    assert.deepEqual(await ids({ spec: 'sales' }), ['sales:GET:/widgets']);
    assert.deepEqual(await ids({ spec: '' }), all);
    assert.deepEqual(await ids({ collection: 'retail' }), all.filter((id) => id.startsWith('shop:')));
    assert.deepEqual(await ids({ collection: '' }), all);
    assert.deepEqual(await ids({ tag: 'widgets', spec: 'sales' }), ['sales:GET:/widgets']);
    assert.deepEqual(await ids({ tag: '' }), all);
    assert.deepEqual(await ids({ method: 'post' }), ['shop:POST:/widgets/0', 'shop:POST:/widgets/3']);
    assert.deepEqual(await ids({ method: 'Get', collection: 'retail' }), ['shop:GET:/widgets/1', 'shop:GET:/widgets/2', 'shop:GET:/widgets/4', 'shop:GET:/widgets/5']);
    assert.deepEqual(await ids({ method: '' }), all);
  });

  it('checks a tag within the spec given, and names the tools that list specs, collections and tags', async () => {
    const bench = await shop(2);
    assert.deepEqual(await ask(bench, { query: 'widget', tag: 'orders', spec: 'shop' }), {
      isError: true,
      text: 'unknown tag "orders"\nhint: call endpoint_by_tag without tag to list the tags',
    });
    assert.equal((await ask(bench, { query: 'widget', tag: 'orders', spec: '' })).isError, undefined);
    assert.deepEqual(await ask(bench, { query: 'widget', spec: 'shops' }), {
      isError: true,
      text: 'unknown spec "shops"\nhint: did you mean "shop"? Call endpoint_by_spec without spec to list them all',
    });
    assert.deepEqual(await ask(bench, { query: 'widget', collection: 'retai' }), {
      isError: true,
      text: 'unknown collection "retai"\nhint: did you mean "retail"? Call endpoint_by_collection without collection to list them all',
    });
  });

  it('refuses an empty query and one longer than the catalogue reads, saying what to pass', async () => {
    const bench = await shop(1);
    for (const query of ['', '  ', '\n\t']) {
      assert.deepEqual(await ask(bench, { query }), { isError: true, text: 'query must not be empty\nhint: pass a few keywords, e.g. "create issue"' });
    }
    assert.equal(MAX_QUERY_CHARS, 2000);
    const longest = `widget ${'w'.repeat(MAX_QUERY_CHARS - 7)}`;
    assert.equal((await ask(bench, { query: longest })).isError, undefined);
    assert.deepEqual(await ask(bench, { query: `${longest}w` }), {
      isError: true,
      text: `query must be at most ${MAX_QUERY_CHARS} characters\nhint: a few keywords say what the endpoint does`,
    });
  });

  it('refuses a cursor it did not give out', async () => {
    const bench = await shop(1);
    const r = await ask(bench, { query: 'widget', cursor: 'abc' });
    assert.equal(r.isError, true);
    assert.match(r.text, /^cursor "abc" is not one this server gave out\nhint: /);
  });

  it('says what is wrong with each argument', () => {
    const shape = z.object(search.inputShape);
    const message = (input: unknown): string | undefined => {
      const r = shape.safeParse(input);
      return r.success ? undefined : r.error.issues.map((i) => i.message).join('; ');
    };
    assert.equal(message({}), 'query must be a text, e.g. "create issue"');
    assert.equal(message({ query: 3 }), 'query must be a text, e.g. "create issue"');
    assert.equal(message({ query: 'x', method: 'FETCH' }), 'method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
    assert.equal(message({ query: 'x', method: 5 }), 'method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
    for (const m of ['get', 'POST', 'pAtCh', 'options', 'Head', 'put', 'delete']) assert.equal(message({ query: 'x', method: m }), undefined, m);
    assert.equal(message({ query: 'x', limit: 0 }), 'limit must be at least 1');
    assert.equal(message({ query: 'x', limit: MAX_SEARCH_LIMIT + 1 }), 'limit must be at most 100');
    assert.equal(message({ query: 'x', limit: 2.5 }), 'limit must be a whole number');
    assert.equal(message({ query: 'x', limit: '2' }), 'limit must be a number');
    assert.equal(message({ query: 'x', limit: 1, cursor: 'c', spec: 's', collection: 'c', tag: 't' }), undefined);
    assert.equal(message({ query: 'x', limit: 100 }), undefined);
    assert.equal(search.inputShape.query!.description, 'keywords');
    assert.equal(search.inputShape.limit!.description, 'default 20');
  });
});
