// What a 2026-07-28 client reads in the answers over HTTP, with raw requests in this process: the
// tool list and server/discover say they may be kept an hour and shared (the list is fixed for a
// build); a client whose envelope declares elicitation as a bare {} (form) is asked to confirm.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startHttp, MCP_PATH, TOOL_LIST_CACHE } from '../../src/mcp/index.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { rawRequest } from './raw-http.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;

const write: ToolDefinition = {
  name: 'write', description: 'asks first', inputShape: {},
  annotations: { title: 'Write', readOnlyHint: false, openWorldHint: true },
  handler: async (_input, ctx) => (ctx.confirm ? ((await ctx.confirm('Send it?')) ? { text: 'sent' } : { text: 'declined', isError: true }) : { text: 'cannot ask', isError: true }),
};

/** A 2026-07-28 request as its client sends it: the envelope in _meta, the method in a header. */
async function modern(url: string, id: number, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'hints', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
  const headers: Record<string, string> = { 'mcp-method': method, 'mcp-protocol-version': '2026-07-28' };
  if (typeof params['name'] === 'string') headers['mcp-name'] = params['name'];
  const res = await rawRequest(`${url}${MCP_PATH}`, { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } }) });
  assert.equal(res.status, 200, res.body);
  return (JSON.parse(res.body) as { result: Record<string, unknown> }).result;
}

describe('HTTP, 2026-07-28 era, what the answers say', { timeout: HANG_MS }, () => {
  it('the tool list and server/discover may be kept an hour and shared', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [write] });
    try {
      assert.deepEqual(TOOL_LIST_CACHE, { ttlMs: 3_600_000, cacheScope: 'public' });
      for (const [id, method] of [[1, 'tools/list'], [2, 'server/discover']] as const) {
        const result = await modern(http.url, id, method, {});
        assert.deepEqual([result['ttlMs'], result['cacheScope']], [TOOL_LIST_CACHE.ttlMs, TOOL_LIST_CACHE.cacheScope], method);
      }
    } finally {
      await http.close();
    }
  });

  it('a client declaring elicitation as a bare {} is asked to confirm (input_required with the question)', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [write] });
    try {
      const result = await modern(http.url, 3, 'tools/call', { name: 'write', arguments: {} }, { elicitation: {} });
      assert.equal(result['resultType'], 'input_required', JSON.stringify(result));
      assert.match(JSON.stringify(result['inputRequests']), /Send it\?/);
    } finally {
      await http.close();
    }
  });
});
