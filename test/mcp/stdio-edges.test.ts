// MCP over stdio at its edges, in this process with streams standing in for the pipes: an answer
// larger than stdout takes at once still lets the session close as soon as it is out; after stdin
// ended, only the server's answers count toward the drain, not a request of its own that happens to
// carry the same id as the client's; after close(), errors on stdin are its owner's, not the session's.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { serveStdio } from '../../src/mcp/stdio.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { until, within } from '../support/until.ts';
import { jsonLines } from './support.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;
const initialize = (capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'stdio-edges', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });


describe('stdio front, edges', { timeout: HANG_MS }, () => {
  it('an answer of 1 MB (more than stdout takes at once) arrives whole, and the session closes right after it, long before drainMs', { timeout: HANG_MS }, async () => {
    const size = 1 << 20;
    const big: ToolDefinition = {
      name: 'big', description: 'answers a lot', inputShape: {},
      annotations: { title: 'Big', readOnlyHint: true, openWorldHint: false },
      handler: async () => ({ text: 'x'.repeat(size) }),
    };
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const handle = await serveStdio({ stdin, stdout, context: () => CONTEXT, tools: [big], drainMs: 60_000 });
    stdin.write(line(initialize()));
    stdin.write(line(initialized));
    stdin.end(line(call(2, 'big')));
    // Nobody reads stdout until the answer fills it: the session must wait for it to drain.
    await until(() => stdout.writableNeedDrain, 5000, 'the answer to fill stdout');
    const out = jsonLines(stdout);
    await within(handle.closed, 'the session to close after its last answer', 5000);
    const answer = out.find((m) => m['id'] === 2)!['result'] as { content: { text: string }[] };
    assert.equal(answer.content[0]!.text.length, size);
  });

  it('after stdin ended, a request of the server\'s own with the id of the client\'s pending call is no answer to it: the session waits drainMs', { timeout: HANG_MS }, async () => {
    const write: ToolDefinition = {
      name: 'write', description: 'asks first', inputShape: {},
      annotations: { title: 'Write', readOnlyHint: false, openWorldHint: true },
      handler: async (_input, ctx) => (ctx.confirm && (await ctx.confirm('Send it?')) ? { text: 'sent' } : { text: 'not sent', isError: true }),
    };
    const drainMs = 400;
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = jsonLines(stdout);
    const handle = await serveStdio({ stdin, stdout, context: () => CONTEXT, tools: [write], drainMs });
    stdin.write(line(initialize({ elicitation: {} })));
    stdin.write(line(initialized));
    const started = Date.now();
    // The server numbers its own requests from 0: its question (elicitation/create) gets id 0 too.
    stdin.end(line(call(0, 'write')));
    await handle.closed;
    const waited = Date.now() - started;
    const asked = out.find((m) => m['method'] === 'elicitation/create');
    assert.equal(asked?.['id'], 0, JSON.stringify(out.map((m) => [m['id'], m['method']])));
    assert.ok(waited >= drainMs - 50, `closed after ${waited} ms, when the server's own request went out, not after drainMs`);
  });

  it('after close(), an error on stdin belongs to its owner: the session does not log it', { timeout: HANG_MS }, async () => {
    const stdin = new PassThrough();
    const logs: string[] = [];
    const handle = await serveStdio({ stdin, stdout: new PassThrough(), context: () => CONTEXT, tools: [], log: (l) => logs.push(l) });
    await handle.close();
    const owners: string[] = [];
    stdin.on('error', (error) => owners.push(error.message));
    stdin.emit('error', new Error('stdin broke later'));
    assert.deepEqual(owners, ['stdin broke later']);
    assert.deepEqual(logs, []);
  });
});
