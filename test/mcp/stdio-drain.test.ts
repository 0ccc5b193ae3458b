// MCP over stdio when the client hangs up with requests still running, in this process with tools
// of the test's making: every running request is answered, and the session closes as soon as the
// last answer is out (not when drainMs runs out); close() pauses stdin only when nobody else reads it.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { serveStdio } from '../../src/mcp/stdio.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { jsonLines } from './support.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drain', version: '1' } } };
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

const slow: ToolDefinition = {
  name: 'slow',
  description: 'answers after ms',
  inputShape: { ms: z.number() },
  annotations: { title: 'Slow', readOnlyHint: true, openWorldHint: false },
  handler: async (input) => {
    await new Promise((r) => setTimeout(r, Number(input['ms'])));
    return { text: `after ${String(input['ms'])}` };
  },
};

const call = (id: number, ms: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { ms } } });

describe('stdio when the client hangs up', { timeout: HANG_MS }, () => {
  it('answers every running request, then closes at once, long before drainMs', { timeout: HANG_MS }, async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = jsonLines(stdout);
    const logs: string[] = [];
    const handle = await serveStdio({ stdin, stdout, context: () => CONTEXT, tools: [slow], drainMs: 60_000, log: (l) => logs.push(l) });
    stdin.write(line(initialize));
    stdin.write(line(initialized));
    const started = Date.now();
    stdin.end(line(call(2, 100)) + line(call(3, 400)));
    await handle.closed;
    const waited = Date.now() - started;
    assert.deepEqual(out.filter((m) => m['id'] === 2 || m['id'] === 3).map((m) => [m['id'], (m['result'] as { content: { text: string }[] }).content[0]!.text]), [[2, 'after 100'], [3, 'after 400']]);
    assert.ok(waited >= 350, `closed after ${waited} ms, before the last answer`);
    assert.ok(waited < 10_000, `closed after ${waited} ms: waited for drainMs instead of the last answer`);
    assert.deepEqual(logs, []);
  });

  it('close() pauses stdin when nobody else reads it, and leaves it flowing for another reader', { timeout: HANG_MS }, async () => {
    const alone = new PassThrough();
    const a = await serveStdio({ stdin: alone, stdout: new PassThrough(), context: () => CONTEXT, tools: [slow] });
    await a.close();
    assert.equal(alone.isPaused(), true);
    const shared = new PassThrough();
    const seen: string[] = [];
    const b = await serveStdio({ stdin: shared, stdout: new PassThrough(), context: () => CONTEXT, tools: [slow] });
    shared.on('data', (d: Buffer) => seen.push(d.toString()));
    await b.close();
    assert.equal(shared.isPaused(), false);
    shared.write('still read\n');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ['still read\n']);
  });
});
