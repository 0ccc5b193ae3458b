// The 2026-07-28 era over HTTP in this process: a v2 SDK client pinned to that revision against
// startHttp with tools of the test's making. Stateless requests are answered (no session is
// counted), a tool that asks for confirmation gets the person's answer through input_required,
// and the front subscribes to catalogue changes while it serves and unsubscribes when it closes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { startHttp, MCP_PATH } from '../../src/mcp/index.ts';
import type { CatalogChangeNotice, SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 15_000;

const CONTEXT = {} as SessionContext;

const echo: ToolDefinition = {
  name: 'echo',
  description: 'says it back',
  inputShape: { q: z.string() },
  annotations: { title: 'Echo', readOnlyHint: true, openWorldHint: false },
  handler: async (input) => ({ text: `echo ${String(input['q'])}` }),
};
const write: ToolDefinition = {
  name: 'write',
  description: 'asks first',
  inputShape: { q: z.string() },
  annotations: { title: 'Write', readOnlyHint: false, openWorldHint: true },
  handler: async (input, ctx) => {
    if (!ctx.confirm) return { text: 'cannot ask', isError: true };
    return (await ctx.confirm(`Send ${String(input['q'])}?`)) ? { text: 'sent' } : { text: 'declined', isError: true };
  },
};

const text = (r: unknown): string => (r as { content: { text?: string }[] }).content.map((c) => c.text ?? '').join('\n');

describe('HTTP, 2026-07-28 era, in process', { timeout: HANG_MS }, () => {
  it('lists and calls tools statelessly, asks through input_required, and follows catalogue changes while open', { timeout: HANG_MS }, async () => {
    const listeners = new Set<(c: CatalogChangeNotice) => void>();
    let unsubscribed = 0;
    const http = await startHttp({
      host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [echo, write],
      hooks: { onCatalogChanged: (l) => (listeners.add(l), () => void (listeners.delete(l), unsubscribed++)) },
    });
    const asked: string[] = [];
    const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' as const } }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: asked.length === 1 } };
    });
    try {
      assert.equal(listeners.size, 1, 'the front subscribes once, not per request');
      await client.connect(new ModernHttp(new URL(`${http.url}${MCP_PATH}`)));
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['echo', 'write']);
      assert.equal(text(await client.callTool({ name: 'echo', arguments: { q: 'hi' } })), 'echo hi');
      assert.equal(http.sessionCount(), 0, 'no session for stateless requests');
      assert.equal(text(await client.callTool({ name: 'write', arguments: { q: 'X' } })), 'sent');
      assert.equal(text(await client.callTool({ name: 'write', arguments: { q: 'Y' } })), 'declined');
      assert.deepEqual(asked, ['Send X?', 'Send Y?']);
      for (const l of listeners) l({ message: 'changed', endpointsChanged: true, specsChanged: false });
    } finally {
      await client.close();
      await http.close();
    }
    assert.equal(unsubscribed, 1);
    assert.equal(listeners.size, 0);
  });
});
