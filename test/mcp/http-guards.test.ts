// The HTTP front's guards from their contracts: only the exact bearer token passes (also on
// loopback), request bodies past maxBodyBytes are refused with 413 whether their size is declared
// or not, and /healthz and /readyz answer without a token and say nothing else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startHttp, type HttpHandle } from '../../src/mcp/index.ts';
import { rawRequest } from './raw-http.ts';
import { sessionContext, workspace, type SessionContextValue, type Workspace } from './support.ts';

const TOKEN = 'Guard-token_0123456789abcdef';
const LIMIT = 2048;

/** Status and body only. */
const send = async (url: string, options: Parameters<typeof rawRequest>[1]) => {
  const { status, body } = await rawRequest(url, options);
  return { status, body };
};

const initialize = (pad: number): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'g', version: '1' }, _pad: 'x'.repeat(pad) } });

describe('HTTP guards', () => {
  let ws: Workspace;
  let context: SessionContextValue;
  let http: HttpHandle;
  let ready = false;

  before(async () => {
    ws = await workspace();
    context = await sessionContext(ws.configFile);
    http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'token', token: TOKEN, source: { env: 'X' } }, maxBodyBytes: LIMIT, maxSessions: 1000, ready: () => ready, context: () => context });
  });
  after(async () => {
    await http.close();
    await ws.cleanup();
  });

  it('on loopback, answers 401 to every MCP route without the exact token', async () => {
    for (const path of ['/mcp', '/sse', '/messages']) {
      const res = await send(`${http.url}${path}`, { method: path === '/sse' ? 'GET' : 'POST', ...(path === '/sse' ? {} : { body: initialize(0) }) });
      assert.equal(res.status, 401, path);
      assert.doesNotMatch(res.body, new RegExp(TOKEN));
    }
    assert.equal((await send(`${http.url}/mcp`, { headers: { authorization: `Bearer ${TOKEN}` }, body: initialize(0) })).status, 200);
  });

  it('takes no token but the exact one (generated near-misses)', async () => {
    const nearMiss = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer({ min: 0, max: TOKEN.length - 1 }).map((n) => TOKEN.slice(0, n)),
      fc.tuple(fc.integer({ min: 0, max: TOKEN.length - 1 }), fc.string({ minLength: 1, maxLength: 1 })).map(([i, c]) => TOKEN.slice(0, i) + c + TOKEN.slice(i + 1)),
      fc.string({ minLength: 1, maxLength: 3 }).map((s) => TOKEN + s),
    );
    await fc.assert(
      fc.asyncProperty(nearMiss, fc.constantFrom('Bearer ', 'bearer ', 'Basic '), async (candidate, scheme) => {
        fc.pre(candidate !== TOKEN && /^[\x21-\x7e]*$/.test(candidate));
        const res = await send(`${http.url}/mcp`, { headers: { authorization: `${scheme}${candidate}` }, body: initialize(0) });
        assert.equal(res.status, 401);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a body past maxBodyBytes with 413, declared or chunked, and takes one within it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: LIMIT - 200, max: LIMIT + 200 }), fc.boolean(), fc.integer({ min: 1, max: 8 }), async (size, declare, chunks) => {
        const base = initialize(0).length;
        fc.pre(size >= base);
        const body = initialize(size - base);
        assert.equal(Buffer.byteLength(body), size);
        const res = await send(`${http.url}/mcp`, { headers: { authorization: `Bearer ${TOKEN}` }, body, declare, chunks });
        if (size > LIMIT) assert.equal(res.status, 413, `${size} bytes, ${declare ? 'declared' : 'chunked'}`);
        else assert.notEqual(res.status, 413, `${size} bytes within the limit`);
      }),
      { numRuns: 40 },
    );
  });

  it('answers /healthz at once and /readyz once the catalogue is loaded, without a token, with one word', async () => {
    const health = await send(`${http.url}/healthz`, { method: 'GET' });
    assert.deepEqual(health, { status: 200, body: 'ok\n' });
    ready = false;
    assert.deepEqual(await send(`${http.url}/readyz`, { method: 'GET' }), { status: 503, body: 'starting\n' });
    ready = true;
    assert.deepEqual(await send(`${http.url}/readyz`, { method: 'GET' }), { status: 200, body: 'ok\n' });
    assert.equal((await send(`${http.url}/readyz`, { method: 'POST', body: '{}' })).status, 405);
  });
});
