// The search tool pages like the listing tools: a true total, and a cursor to the next page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SessionContext } from '../../src/mcp/server.ts';
import { MAX_SEARCH_DEPTH } from '../../src/catalog/index.ts';
import { spec } from '../catalog/fixtures.ts';
import { call, inMemoryClient, sessionContext, textOf, workspace, type Workspace } from './support.ts';

interface Page {
  endpoints: { id: string }[];
  total: number;
  nextCursor?: string;
}

describe('search tool pages', () => {
  let ws: Workspace;
  let ctx: SessionContext;
  let client: Client;

  before(async () => {
    ws = await workspace();
    ctx = await sessionContext(ws.configFile);
    client = await inMemoryClient(ctx);
  });
  after(async () => {
    await client?.close();
    await ws?.cleanup();
  });

  it('walks every match once, page by page, to the total it announced', async () => {
    const first = (await call(client, 'search', { query: 'animal', limit: 50 })).structuredContent as unknown as Page;
    assert.ok(first.total >= 3, `expected several matches, got ${first.total}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await call(client, 'search', { query: 'animal', limit: 1, ...(cursor ? { cursor } : {}) });
      const page = result.structuredContent as unknown as Page;
      assert.equal(page.total, first.total);
      seen.push(...page.endpoints.map((e) => e.id));
      cursor = page.nextCursor;
      if (cursor) assert.match(textOf(result), new RegExp(`^more: cursor=${cursor}$`, 'm'));
      pages++;
    } while (cursor && pages < 100);
    assert.equal(seen.length, first.total);
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual(seen.slice(0, first.endpoints.length), first.endpoints.map((e) => e.id));
  });

  it('says which part of the total a page shows', async () => {
    const result = await call(client, 'search', { query: 'animal', limit: 1 });
    const page = result.structuredContent as unknown as Page;
    assert.match(textOf(result), new RegExp(`^1-1 of ${page.total} matches for "animal", best first$`, 'm'));
  });

  it('refuses a cursor it did not give out, and a page past the depth it ranks', async () => {
    const bad = await call(client, 'search', { query: 'animal', cursor: 'not-a-cursor' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /cursor "not-a-cursor" is not one this server gave out/);
    const deep = await call(client, 'search', { query: 'animal', cursor: Buffer.from('svc1:999').toString('base64url'), limit: 5 });
    assert.equal(deep.isError, true);
    assert.match(textOf(deep), /search pages reach 1000 results deep/);
  });

  it('refuses a query too long to be a search, saying how long one may be', async () => {
    const result = await call(client, 'search', { query: 'animal '.repeat(400) });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /query must be at most 2000 characters/);
    const words = await call(client, 'search', { query: 'a '.repeat(400) });
    assert.equal(words.isError, true);
    assert.match(textOf(words), /search query is too large: 400 words/);
  });
});

describe('search tool count past the depth pages reach', () => {
  let ws: Workspace;
  let client: Client;

  before(async () => {
    ws = await workspace();
    const ctx = await sessionContext(ws.configFile);
    // 1,100 endpoints naming one word: more than pages reach.
    const many = spec('ledger', Array.from({ length: 1100 }, (_, i) => ({ method: 'GET' as const, path: `/ledgers/${i}`, summary: 'Get a ledger' })));
    ctx.catalog.replace([...ctx.catalog.specs(), many]);
    client = await inMemoryClient(ctx);
  });
  after(async () => {
    await client?.close();
    await ws?.cleanup();
  });

  it(`says "more than ${MAX_SEARCH_DEPTH}" and pages to the depth, not an exact count nobody can page through`, async () => {
    const result = await call(client, 'search', { query: 'ledger', limit: 20 });
    const page = result.structuredContent as unknown as Page & { moreThanTotal?: boolean };
    assert.equal(page.total, MAX_SEARCH_DEPTH);
    assert.equal(page.moreThanTotal, true);
    assert.match(textOf(result), new RegExp(`^1-20 of more than ${MAX_SEARCH_DEPTH} matches for "ledger", best first$`, 'm'));
    const last = await call(client, 'search', { query: 'ledger', limit: 20, cursor: Buffer.from(`svc1:${MAX_SEARCH_DEPTH - 20}`).toString('base64url') });
    const lastPage = last.structuredContent as unknown as Page & { moreThanTotal?: boolean };
    assert.equal(lastPage.endpoints.length, 20);
    assert.equal(lastPage.nextCursor, undefined);
    assert.equal(lastPage.moreThanTotal, true);
  });

  it('gives an exact total, with no "more than", when it is within the depth', async () => {
    const result = await call(client, 'search', { query: 'animal', limit: 1 });
    assert.equal((result.structuredContent as { moreThanTotal?: boolean }).moreThanTotal, undefined);
    assert.doesNotMatch(textOf(result), /more than/);
  });
});
