// A 2026-07-28 client that hangs up while its tool call runs, in this process with a raw request:
// the call's signal fires at once, so the tool stops instead of working on for nobody.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { startHttp, MCP_PATH } from '../../src/mcp/index.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { until } from '../support/until.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
/** How long the tool works when nobody stops it: well past the wait for the abort below. */
const HOLD_MS = 4000;

describe('HTTP, 2026-07-28 era, client gone', { timeout: HANG_MS }, () => {
  it('a tool call whose client hangs up is aborted: its signal fires long before the tool would end', { timeout: HANG_MS }, async () => {
    let ended: 'aborted' | 'ran out' | undefined;
    let started = false;
    const hold: ToolDefinition = {
      name: 'hold',
      description: `works ${HOLD_MS} ms unless aborted`,
      inputShape: {},
      annotations: { title: 'Hold', readOnlyHint: true, openWorldHint: false },
      handler: (_input, ctx) => {
        started = true;
        return new Promise((resolve) => {
          const timer = setTimeout(() => ((ended = 'ran out'), resolve({ text: 'held' })), HOLD_MS);
          ctx.signal?.addEventListener('abort', () => (clearTimeout(timer), (ended ??= 'aborted'), resolve({ text: 'stopped', isError: true })));
        });
      },
    };
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [hold] });
    try {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'gone', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold', arguments: {}, _meta: meta } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-method': 'tools/call', 'mcp-name': 'hold', 'mcp-protocol-version': '2026-07-28' };
      const req = request(`${http.url}${MCP_PATH}`, { method: 'POST', headers });
      req.on('error', () => {}); // the hang-up below
      req.end(body);
      await until(() => started, 5000, 'the tool to start');
      req.destroy();
      await until(() => ended !== undefined, HOLD_MS + 2000, 'the tool to end');
      assert.equal(ended, 'aborted');
    } finally {
      await http.close();
    }
  });
});
