// Two ways the HTTP front once went wrong, in this process with raw requests. An initialize the
// Streamable HTTP transport refuses (406 without `Accept: text/event-stream`, 400 for a batch that
// holds more than the initialize) makes no session, so the server made for it closes at once: the
// hooks hear as many sessions close as open, and none is left counted. And `serve.host: "[::1]"`,
// as the config takes it (the bracketed form a URL writes), serves on the IPv6 loopback and names
// its URL with the brackets once (it failed with ENOTFOUND).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startHttp, MCP_PATH } from '../../src/mcp/index.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import { until } from '../support/until.ts';
import { rawRequest } from './raw-http.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('the HTTP front', { timeout: HANG_MS }, () => {
  it('closes at once the server it made for an initialize the transport refused: sessions opened and closed stay equal', { timeout: HANG_MS }, async () => {
    let opened = 0;
    let closed = 0;
    const http = await startHttp({
      host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [],
      hooks: { sessionOpened: () => void opened++, sessionClosed: () => void closed++ },
    });
    try {
      const url = `${http.url}${MCP_PATH}`;
      const notAcceptable = await rawRequest(url, { headers: { accept: 'application/json' }, body: JSON.stringify(initialize) });
      assert.equal(notAcceptable.status, 406);
      const batch = await rawRequest(url, { body: JSON.stringify([initialize, { jsonrpc: '2.0', id: 2, method: 'ping' }]) });
      assert.equal(batch.status, 400);
      assert.equal(opened, 2, 'a server was made for each');
      await until(() => closed === 2, 5000, 'both servers closed');
      assert.equal(http.sessionCount(), 0);
      // An accepted initialize still makes a session that stays.
      const ok = await rawRequest(url, { body: JSON.stringify(initialize) });
      assert.equal(ok.status, 200);
      assert.equal(http.sessionCount(), 1);
      assert.equal(opened - closed, 1);
    } finally {
      await http.close();
    }
  });

  it('serves on [::1] as the config writes it, and names its URL with the brackets once', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '[::1]', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [] });
    try {
      assert.match(http.url, /^http:\/\/\[::1\]:\d+$/);
      const res = await fetch(`${http.url}${MCP_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
      });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('mcp-session-id'));
      await res.body?.cancel();
    } finally {
      await http.close();
    }
  });
});
