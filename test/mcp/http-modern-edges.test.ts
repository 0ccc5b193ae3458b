// The 2026-07-28 era over HTTP at its edges, in this process: a notification is accepted with 202
// and no body; a request the SDK's handler refuses gets the handler's own answer and is logged as
// this era's; a client listening (subscriptions/listen) hears tools/list_changed when the
// catalogue changes, and when the server closes, its listen stream ends gracefully with nothing logged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { startHttp, MCP_PATH } from '../../src/mcp/index.ts';
import type { CatalogChangeNotice, SessionContext } from '../../src/mcp/server.ts';
import { until } from '../support/until.ts';
import { rawRequest } from './raw-http.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'edges', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** The headers a 2026-07-28 client sends with a message naming `method`. */
const headersFor = (method: string): Record<string, string> => ({ 'mcp-method': method, 'mcp-protocol-version': '2026-07-28' });


describe('HTTP, 2026-07-28 era, edges', { timeout: HANG_MS }, () => {
  it('a notification is accepted with 202 and no body, and nothing is logged', { timeout: HANG_MS }, async () => {
    const logs: string[] = [];
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [], log: (l) => logs.push(l) });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, _meta: META } });
      const res = await rawRequest(`${http.url}${MCP_PATH}`, { headers: headersFor('notifications/cancelled'), body });
      assert.deepEqual([res.status, res.body, res.headers['content-type']], [202, '', undefined]);
      assert.deepEqual(logs, []);
    } finally {
      await http.close();
    }
  });

  it('a request whose Mcp-Method header contradicts its body gets the handler\'s 400, and the refusal is logged as this era\'s', { timeout: HANG_MS }, async () => {
    const logs: string[] = [];
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [], log: (l) => logs.push(l) });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } });
      const res = await rawRequest(`${http.url}${MCP_PATH}`, { headers: headersFor('tools/call'), body });
      assert.equal(res.status, 400);
      const { error } = JSON.parse(res.body) as { error: { message: string } };
      assert.match(error.message, /Mcp-Method header names tools\/call/);
      assert.equal(logs.length, 1, JSON.stringify(logs));
      assert.equal(logs[0], `MCP (2026-07-28): Rejected inbound request (method-header-mismatch): ${error.message}`);
    } finally {
      await http.close();
    }
  });

  it('a listening client hears tools/list_changed when the catalogue changes', { timeout: HANG_MS }, async () => {
    const listeners = new Set<(c: CatalogChangeNotice) => void>();
    const http = await startHttp({
      host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [],
      hooks: { onCatalogChanged: (l) => (listeners.add(l), () => void listeners.delete(l)) },
    });
    let heard = 0;
    const client = new ModernClient(
      { name: 'listener', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' as const } }, listChanged: { tools: { autoRefresh: false, onChanged: () => void heard++ } } },
    );
    try {
      await client.connect(new ModernHttp(new URL(`${http.url}${MCP_PATH}`)));
      await until(() => client.autoOpenedSubscription !== undefined, 5000, 'the listen stream');
      for (const l of listeners) l({ message: 'specs changed', endpointsChanged: true, specsChanged: false });
      await until(() => heard > 0, 5000, 'tools/list_changed on the listen stream');
    } finally {
      await client.close();
      await http.close();
    }
  });

  it('when the server closes, a listening client\'s stream ends gracefully (the final answer, then the end), and nothing is logged', { timeout: HANG_MS }, async () => {
    const logs: string[] = [];
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [], log: (l) => logs.push(l) });
    const client = new ModernClient({ name: 'listener', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' as const } } });
    try {
      await client.connect(new ModernHttp(new URL(`${http.url}${MCP_PATH}`)));
      const subscription = await client.listen({ toolsListChanged: true });
      await http.close();
      assert.equal(await subscription.closed, 'graceful');
      assert.deepEqual(logs, []);
    } finally {
      await client.close();
    }
  });
});
