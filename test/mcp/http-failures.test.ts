// The HTTP front when something goes wrong, in this process with raw requests: an unexpected error
// while serving is a JSON-RPC internal error (500, -32603), logged with the method and path, and
// the server goes on serving; a 2025 batch holding an initialize is the session transport's to
// judge; GET /messages is no route; a host svc cannot tell is loopback serves once a token is set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startHttp, MCP_PATH, SSE_PATH } from '../../src/mcp/index.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import { rawRequest } from './raw-http.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'failures', version: '1' } } };
const internalError = { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null };

describe('HTTP front, failures', { timeout: HANG_MS }, () => {
  it('an error while opening a session (Streamable HTTP or SSE) is a 500 internal error, logged with method and path, and the server serves on', { timeout: HANG_MS }, async () => {
    const logs: string[] = [];
    let broken = true;
    const http = await startHttp({
      host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [], log: (l) => logs.push(l),
      hooks: { sessionOpened: () => { if (broken) throw new Error('the session hook broke'); } },
    });
    try {
      const post = await rawRequest(`${http.url}${MCP_PATH}`, { body: JSON.stringify(initialize) });
      assert.deepEqual([post.status, JSON.parse(post.body)], [500, internalError]);
      const sse = await rawRequest(`${http.url}${SSE_PATH}`, { method: 'GET' });
      assert.deepEqual([sse.status, JSON.parse(sse.body)], [500, internalError]);
      assert.deepEqual(logs, ['error on POST /mcp: the session hook broke', 'error on GET /sse: the session hook broke']);
      broken = false;
      assert.equal((await rawRequest(`${http.url}${MCP_PATH}`, { body: JSON.stringify(initialize) })).status, 200);
    } finally {
      await http.close();
    }
  });

  it('a 2025 batch holding an initialize goes to a new session\'s transport, which allows one message with it', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [] });
    try {
      const res = await rawRequest(`${http.url}${MCP_PATH}`, { body: JSON.stringify([initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }]) });
      assert.deepEqual([res.status, JSON.parse(res.body)], [400, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: Only one initialization request is allowed' }, id: null }]);
      assert.equal(http.sessionCount(), 0);
    } finally {
      await http.close();
    }
  });

  it('GET /messages is no route: 404 naming where MCP is served, not a session lookup', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [] });
    try {
      const res = await rawRequest(`${http.url}/messages?sessionId=nobody`, { method: 'GET' });
      assert.deepEqual([res.status, JSON.parse(res.body)], [404, { error: 'Not found: MCP is served at /mcp (Streamable HTTP) and /sse (legacy SSE, deprecated)' }]);
    } finally {
      await http.close();
    }
  });

  it('a host that is not a loopback name (127.1 binds 127.0.0.1 all the same) serves once a token is set, and only with it', { timeout: HANG_MS }, async () => {
    const token = 'Failures-token_0123456789abcdef';
    const http = await startHttp({ host: '127.1', port: 0, auth: { kind: 'token', token, source: { env: 'X' } }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [] });
    try {
      assert.equal(http.url, `http://127.1:${http.port}`);
      const body = JSON.stringify(initialize);
      assert.equal((await rawRequest(`${http.url}${MCP_PATH}`, { body })).status, 401);
      assert.equal((await rawRequest(`${http.url}${MCP_PATH}`, { headers: { authorization: `Bearer ${token}` }, body })).status, 200);
    } finally {
      await http.close();
    }
  });
});
