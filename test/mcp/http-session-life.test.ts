// The life of a 2025-era HTTP session, in this process with raw requests: a Streamable HTTP session
// and a legacy SSE session each count as a session for the hooks from the moment they are made,
// and the server that closes an idle one ends it (the hooks hear it close, an SSE stream is ended);
// clients are told apart by their User-Agent too when the cap picks whose session to close.
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { startHttp, MCP_PATH, SSE_PATH, type HttpHandle } from '../../src/mcp/index.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import { until } from '../support/until.ts';
import { rawRequest } from './raw-http.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;

const initialize = (name: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } });
const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });


/** A Streamable HTTP session opened with a raw initialize; its id. */
async function openStreamable(http: HttpHandle, headers: Record<string, string> = {}, name = 'raw'): Promise<string> {
  const res = await rawRequest(`${http.url}${MCP_PATH}`, { headers, body: initialize(name) });
  assert.equal(res.status, 200);
  return String(res.headers['mcp-session-id']);
}

/** A legacy SSE stream held open: its session id (from the endpoint event), and when the server ends it. */
function openSse(http: HttpHandle, headers: Record<string, string> = {}): Promise<{ id: string; ended: Promise<void>; stop(): void }> {
  const u = new URL(`${http.url}${SSE_PATH}`);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers: { accept: 'text/event-stream', ...headers } }, (res: IncomingMessage) => {
      let text = '';
      const ended = new Promise<void>((done) => res.once('end', done).once('close', done));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        const id = /sessionId=([\w-]+)/.exec(text)?.[1];
        if (id) resolve({ id, ended, stop: () => res.destroy() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('2025-era HTTP sessions, their life', { timeout: HANG_MS }, () => {
  it('each Streamable HTTP and SSE session is a session for the hooks, and the idle sweep closes its server: the hooks hear it, the SSE stream ends', { timeout: HANG_MS }, async () => {
    let opened = 0;
    let closed = 0;
    const http = await startHttp({
      host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [], sessionIdleMs: 300,
      hooks: { sessionOpened: () => void opened++, sessionClosed: () => void closed++ },
    });
    try {
      await openStreamable(http);
      assert.equal(opened, 1, 'a Streamable HTTP session opened');
      const sse = await openSse(http);
      assert.equal(opened, 2, 'an SSE session opened');
      await until(() => http.sessionCount() === 0, 5000, 'the idle sweep');
      await until(() => closed === 2, 5000, "both sessions' servers to close");
      await sse.ended;
    } finally {
      await http.close();
    }
  });

  it('under the cap, a client is told apart by its User-Agent: a second agent filling the table loses its own session, not the first\'s', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [], maxSessions: 2 });
    try {
      // Same address, same clientInfo name: only the User-Agent differs.
      const first = await openStreamable(http, { 'user-agent': 'agent-a/1' });
      const second = await openStreamable(http, { 'user-agent': 'agent-b/1' });
      await openStreamable(http, { 'user-agent': 'agent-b/1' });
      assert.equal(http.sessionCount(), 2);
      const pingOn = (id: string) => rawRequest(`${http.url}${MCP_PATH}`, { headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: ping }).then((r) => r.status);
      assert.equal(await pingOn(second), 404, "agent b's older session made room");
      assert.equal(await pingOn(first), 200, "agent a's session stays");
    } finally {
      await http.close();
    }
  });

  it('under the cap, SSE clients are told apart by their User-Agent as well', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [], maxSessions: 2 });
    const streams: { stop(): void }[] = [];
    try {
      const first = await openSse(http, { 'user-agent': 'agent-a/1' });
      const second = await openSse(http, { 'user-agent': 'agent-b/1' });
      streams.push(first, second, await openSse(http, { 'user-agent': 'agent-b/1' }));
      assert.equal(http.sessionCount(), 2);
      await second.ended;
      const post = (id: string) => rawRequest(`${http.url}/messages?sessionId=${id}`, { body: ping }).then((r) => r.status);
      assert.equal(await post(second.id), 404, "agent b's older stream made room");
      assert.equal(await post(first.id), 202, "agent a's stream stays");
    } finally {
      for (const s of streams) s.stop();
      await http.close();
    }
  });
});
