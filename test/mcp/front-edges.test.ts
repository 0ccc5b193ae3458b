// Edges of the stdio and HTTP fronts, in this process: an error on stdin is logged and does not
// take the process down; bad JSON with no log given is survived; a tool call's duration reported to
// the hooks is the time it took; close() does not wait for a request whose body never comes.
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { startHttp, MCP_PATH } from '../../src/mcp/index.ts';
import { serveStdio } from '../../src/mcp/stdio.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { jsonLines } from './support.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'edges', version: '1' } } };

const wait: ToolDefinition = {
  name: 'wait',
  description: 'answers after ms',
  inputShape: { ms: z.number() },
  annotations: { title: 'Wait', readOnlyHint: true, openWorldHint: false },
  handler: async (input) => {
    await new Promise((r) => setTimeout(r, Number(input['ms'])));
    return { text: 'done' };
  },
};

async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('stdio front edges', { timeout: HANG_MS }, () => {
  it('an error on stdin is logged with what it was', { timeout: HANG_MS }, async () => {
    const stdin = new PassThrough();
    const logs: string[] = [];
    const handle = await serveStdio({ stdin, stdout: new PassThrough(), context: () => CONTEXT, tools: [wait], log: (l) => logs.push(l) });
    stdin.emit('error', new Error('stdin broke'));
    assert.ok(logs.includes('stdio: stdin broke'), JSON.stringify(logs));
    await handle.close();
  });

  it('bad JSON with no log given is skipped and the next line answered', { timeout: HANG_MS }, async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = jsonLines(stdout);
    const handle = await serveStdio({ stdin, stdout, context: () => CONTEXT, tools: [wait] });
    stdin.write('{not json\n');
    stdin.write(line(initialize));
    await until(() => out.some((m) => m['id'] === 1));
    await handle.close();
  });
});

describe('HTTP front edges', { timeout: HANG_MS }, () => {
  it('reports a tool call\'s duration as the time it took', { timeout: HANG_MS }, async () => {
    const calls: [string, number, boolean][] = [];
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [wait], hooks: { toolCall: (t, ms, ok) => void calls.push([t, ms, ok]) } });
    const client = new ModernClient({ name: 'edges', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' as const } } });
    try {
      await client.connect(new ModernHttp(new URL(`${http.url}${MCP_PATH}`)));
      const before = performance.now();
      await client.callTool({ name: 'wait', arguments: { ms: 50 } });
      const took = performance.now() - before;
      assert.equal(calls.length, 1);
      const [tool, ms, ok] = calls[0]!;
      assert.deepEqual([tool, ok], ['wait', true]);
      assert.ok(ms >= 40 && ms <= took, `reported ${ms} ms for a call that took ${took} ms`);
    } finally {
      await client.close();
      await http.close();
    }
  });

  it('close() does not wait for a request whose body never comes', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [] });
    const socket = createConnection(http.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(`POST ${MCP_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await http.close();
    assert.ok(Date.now() - started < 5000, 'close waited for the unfinished request');
    socket.destroy();
  });
});
