// Write confirmation and the HTTP front's smaller routes, in this process with a v2 SDK client
// pinned to 2026-07-28 and raw requests: a confirmation counts only for the very question the
// person answered (the tool asking something else is asked again); a client that declares both
// form and URL elicitation can be asked; POSTs to unknown paths and to /messages without a live
// SSE session get their own exact 404s; a probe's 405 is plain text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { startHttp, MCP_PATH, type HttpHandle } from '../../src/mcp/index.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { rawRequest } from './raw-http.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const text = (r: unknown): string => (r as { content: { text?: string }[] }).content.map((c) => c.text ?? '').join('\n');

/** A tool whose question changes once: the first round asks `first`, every later one `second`. */
function changingWrite(): ToolDefinition {
  let rounds = 0;
  return {
    name: 'write',
    description: 'asks first',
    inputShape: { q: z.string() },
    annotations: { title: 'Write', readOnlyHint: false, openWorldHint: true },
    handler: async (_input, ctx) => {
      rounds++;
      if (!ctx.confirm) return { text: 'cannot ask', isError: true };
      return (await ctx.confirm(rounds === 1 ? 'first' : 'second')) ? { text: 'sent' } : { text: 'declined', isError: true };
    },
  };
}

async function withModern<T>(http: HttpHandle, elicitation: { form?: Record<string, never>; url?: Record<string, never> }, asked: string[], run: (c: ModernClient) => Promise<T>): Promise<T> {
  const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' as const } }, capabilities: { elicitation } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  await client.connect(new ModernHttp(new URL(`${http.url}${MCP_PATH}`)));
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

describe('confirmation over HTTP, 2026-07-28', { timeout: HANG_MS }, () => {
  it('a yes counts only for the question it answered: a changed question is asked again', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [changingWrite()] });
    try {
      const asked: string[] = [];
      const result = await withModern(http, { form: {} }, asked, (c) => c.callTool({ name: 'write', arguments: { q: 'x' } }));
      assert.equal(text(result), 'sent');
      assert.deepEqual(asked, ['first', 'second']);
    } finally {
      await http.close();
    }
  });

  it('a client declaring form and URL elicitation is asked; one declaring only URL is not', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [changingWrite()] });
    try {
      const both: string[] = [];
      assert.equal(text(await withModern(http, { form: {}, url: {} }, both, (c) => c.callTool({ name: 'write', arguments: { q: 'x' } }))), 'sent');
      assert.deepEqual(both, ['first', 'second']);
      const urlOnly: string[] = [];
      assert.equal(text(await withModern(http, { url: {} }, urlOnly, (c) => c.callTool({ name: 'write', arguments: { q: 'x' } }))), 'cannot ask');
      assert.deepEqual(urlOnly, []);
    } finally {
      await http.close();
    }
  });
});

describe('HTTP front, smaller routes', { timeout: HANG_MS }, () => {
  it('POST to an unknown path, or to /messages without a live SSE session, gets its own 404; a probe\'s 405 is plain text', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [] });
    try {
      const nope = await rawRequest(`${http.url}/nope`, { method: 'POST', body: '{}' });
      assert.deepEqual([nope.status, JSON.parse(nope.body)], [404, { error: 'Not found: MCP is served at /mcp (Streamable HTTP) and /sse (legacy SSE, deprecated)' }]);
      const noSession = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found; open GET /sse first' }, id: null };
      for (const path of ['/messages?sessionId=nobody', '/messages']) {
        const res = await rawRequest(`${http.url}${path}`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
        assert.deepEqual([res.status, JSON.parse(res.body)], [404, noSession], path);
      }
      const probe = await rawRequest(`${http.url}/healthz`, { method: 'POST', body: '{}' });
      assert.deepEqual([probe.status, probe.headers['allow'], probe.headers['content-type']], [405, 'GET, HEAD', 'text/plain']);
    } finally {
      await http.close();
    }
  });
});
