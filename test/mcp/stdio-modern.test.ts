// The 2026-07-28 era over stdio, in this process with raw enveloped lines: a catalogue change
// reaches a listening client as tools/list_changed on its subscription and as nothing else (this
// era has no unsolicited log lines); whether a client can be asked to confirm is read from each
// request's own envelope, not from the connection.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { serveStdio } from '../../src/mcp/stdio.ts';
import type { CatalogChangeNotice, SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { until } from '../support/until.ts';
import { jsonLines } from './support.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;
const envelope = (capabilities: Record<string, unknown>) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-modern', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const request = (id: number, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = {}) =>
  line({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(capabilities) } });

const write: ToolDefinition = {
  name: 'write', description: 'asks first', inputShape: {},
  annotations: { title: 'Write', readOnlyHint: false, openWorldHint: true },
  handler: async (_input, ctx) => (ctx.confirm ? ((await ctx.confirm('Send it?')) ? { text: 'sent' } : { text: 'declined', isError: true }) : { text: 'cannot ask', isError: true }),
};

describe('stdio, 2026-07-28 era', { timeout: HANG_MS }, () => {
  it('a catalogue change reaches a listening client as tools/list_changed on its subscription, and no log line', { timeout: HANG_MS }, async () => {
    const listeners = new Set<(c: CatalogChangeNotice) => void>();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = jsonLines(stdout);
    const handle = await serveStdio({ stdin, stdout, context: () => CONTEXT, tools: [], hooks: { onCatalogChanged: (l) => (listeners.add(l), () => void listeners.delete(l)) } });
    try {
      stdin.write(request(1, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
      await until(() => out.some((m) => m['method'] === 'notifications/subscriptions/acknowledged'), 5000, 'the subscription');
      for (const l of listeners) l({ message: 'specs changed', endpointsChanged: true, specsChanged: false });
      // An answer after the change: whatever the change made the server write is out before it.
      stdin.write(request(2, 'tools/list', {}));
      await until(() => out.some((m) => m['id'] === 2), 5000, 'the tool list');
      assert.deepEqual(out.filter((m) => m['id'] === undefined).map((m) => m['method']), ['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    } finally {
      await handle.close();
    }
  });

  it('each request\'s envelope says whether its client can be asked: without elicitation it cannot, with form it is', { timeout: HANG_MS }, async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = jsonLines(stdout);
    const handle = await serveStdio({ stdin, stdout, context: () => CONTEXT, tools: [write] });
    try {
      stdin.write(request(1, 'tools/call', { name: 'write', arguments: {} }));
      stdin.write(request(2, 'tools/call', { name: 'write', arguments: {} }, { elicitation: { form: {} } }));
      await until(() => out.some((m) => m['id'] === 1) && out.some((m) => m['id'] === 2), 5000, 'both answers');
      const result = (id: number) => out.find((m) => m['id'] === id)!['result'] as { resultType: string; content?: { text: string }[] };
      assert.deepEqual([result(1).resultType, result(1).content?.[0]?.text], ['complete', 'cannot ask']);
      assert.equal(result(2).resultType, 'input_required');
    } finally {
      await handle.close();
    }
  });
});
