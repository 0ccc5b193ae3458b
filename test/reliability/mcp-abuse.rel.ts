// Abuse of the MCP HTTP transport of a live daemon: malformed JSON-RPC, unknown methods and tools,
// huge arguments, bodies over the limit (declared and streamed), foreign Origin and Host, clients
// that disconnect mid-call, a flood of sessions never closed. Throughout, the daemon keeps
// answering status and a real SDK client keeps getting right answers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDaemon, type LiveDaemon } from './support/daemon.ts';
import { recordFigures, percentile, round } from './support/figures.ts';
import { REPO_ROOT, scaled } from './support/scale.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-abuse-'));
let daemon: LiveDaemon;
let client: Client;
const figures: Record<string, string | number> = {};
const statusMs: number[] = [];
const MAX_BODY = 1024 * 1024;

const ACCEPT = 'application/json, text/event-stream';
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

async function post(body: string | Uint8Array, headers: Record<string, string> = {}): Promise<RawResponse> {
  const res = await fetch(daemon.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...daemon.headers, ...headers }, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** JSON-RPC messages in a response body, whether plain JSON or an SSE stream. */
function messages(text: string): Record<string, unknown>[] {
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    const v = JSON.parse(t) as unknown;
    return (Array.isArray(v) ? v : [v]) as Record<string, unknown>[];
  }
  return t
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

async function rawSession(): Promise<string> {
  const r = await post(JSON.stringify(INIT));
  const id = r.headers.get('mcp-session-id');
  assert.ok(id, `initialize gave no session id: ${r.status} ${r.text.slice(0, 200)}`);
  await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-session-id': id });
  return id;
}

async function checkStillServing(label: string): Promise<void> {
  const t0 = performance.now();
  await daemon.status(1000);
  statusMs.push(performance.now() - t0);
  const r = (await client.callTool({ name: 'endpoint_by_id', arguments: { endpointId: 'bookshelf:GET:/books' } })) as { content: { text?: string }[]; isError?: boolean };
  assert.ok(!r.isError && r.content[0]?.text?.includes('/books'), `${label}: a normal call no longer answers right: ${JSON.stringify(r).slice(0, 300)}`);
  assert.ok(daemon.alive(), `${label}: the daemon died:\n${daemon.stderr().slice(-2000)}`);
}

before(async () => {
  cpSync(join(REPO_ROOT, 'specs/bookshelf.yaml'), join(dir, 'bookshelf.yaml'));
  writeFileSync(join(dir, 'svc.yaml'), `serve:\n  maxBodyBytes: ${MAX_BODY}\nspecs:\n  - path: bookshelf.yaml\n`);
  daemon = await startDaemon({ config: join(dir, 'svc.yaml'), cwd: dir, socket: join(dir, 'd.sock') });
  client = new Client({ name: 'reliability-mcp-abuse', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(daemon.mcpUrl), { requestInit: { headers: daemon.headers } }));
});

after(async () => {
  await client?.close().catch(() => {});
  const st = await daemon?.status().catch(() => undefined);
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
  if (st) figures['daemon heap after, MB'] = round(st.memory.heapUsed / 1048576);
  figures['status p50 / p99 ms during abuse'] = `${round(percentile(statusMs, 50))} / ${round(percentile(statusMs, 99))}`;
  recordFigures('mcp-abuse (live daemon, Streamable HTTP)', figures);
});

describe('MCP transport under abuse', () => {
  test('malformed JSON-RPC gets a JSON-RPC error status, never a crash', { timeout: 60_000 }, async () => {
    const bodies = ['not json', '{', '', 'null', '[]', '{}', '[1,2,3]', '{"jsonrpc":"1.0","id":1,"method":"initialize"}', '{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}', '{"jsonrpc":"2.0","method":42}', JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'x' }))), '\u0000\u0001'];
    let refused = 0;
    for (const b of bodies) {
      const r = await post(b);
      assert.ok(r.status >= 400 && r.status < 500, `body ${JSON.stringify(b.slice(0, 40))} got HTTP ${r.status}: ${r.text.slice(0, 200)}`);
      refused++;
    }
    // The same inside a live session.
    const sid = await rawSession();
    for (const b of bodies.slice(0, 6)) {
      const r = await post(b, { 'mcp-session-id': sid });
      // The SDK answers an empty batch `[]` with 202 (nothing to answer); anything but a 5xx is fine here.
      assert.ok(r.status >= 200 && r.status < 500, `in session, body ${JSON.stringify(b.slice(0, 40))} got HTTP ${r.status}`);
      refused++;
    }
    figures['malformed bodies refused'] = refused;
    await checkStillServing('malformed');
  });

  test('unknown methods and tools, and wrong argument types, come back as errors', { timeout: 60_000 }, async () => {
    const sid = await rawSession();
    const unknown = messages((await post(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'no/such/method' }), { 'mcp-session-id': sid })).text);
    assert.equal((unknown[0]?.['error'] as { code: number } | undefined)?.code, -32601);
    // An unknown tool may come back as a tool error or as the JSON-RPC -32602 the spec asks for.
    const badTool = (await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: { code?: number }) => ({ isError: e.code === -32602 }))) as { isError?: boolean };
    assert.equal(badTool.isError, true);
    for (const args of [{ query: 42 }, { query: null }, { query: ['a'] }, { endpointId: { $ref: '/etc/passwd' } }, { query: 'x', limit: -1 }, { query: 'x', limit: 1e308 }, { query: 'x', method: 'TRACE' }]) {
      const r = (await client.callTool({ name: 'search', arguments: args as Record<string, unknown> }).catch((e: Error) => ({ isError: true, thrown: e.message }))) as { isError?: boolean };
      assert.equal(r.isError, true, `search accepted ${JSON.stringify(args)}`);
    }
    await checkStillServing('unknown');
  });

  test('huge arguments just under the body limit are answered in time', { timeout: 60_000 }, async () => {
    const ms: number[] = [];
    const echoed: string[] = [];
    for (const [name, args] of [
      ['search', { query: 'book '.repeat((MAX_BODY - 4096) / 5) }],
      ['search', { query: 'x'.repeat(MAX_BODY - 4096) }],
      ['endpoint_by_id', { endpointId: `bookshelf:GET:/${'a'.repeat(MAX_BODY - 4096)}` }],
      ['inspect', { endpointId: `${'b'.repeat(MAX_BODY - 4096)}` }],
      ['search', { query: 'books', extra: JSON.parse('['.repeat(5000) + ']'.repeat(5000)) as unknown }],
    ] as const) {
      const t0 = performance.now();
      const r = (await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: 30_000 }).catch((e: Error) => ({ isError: true, content: [{ text: e.message }] }))) as { content: { text?: string }[] };
      ms.push(performance.now() - t0);
      const text = r.content.map((c) => c.text ?? '').join('');
      if (text.length >= 20_000) echoed.push(`${name} echoed ${text.length} characters of a huge argument back: ${text.slice(0, 120)}`);
    }
    figures['huge arguments: slowest call ms'] = round(Math.max(...ms));
    assert.deepEqual(echoed, []);
    await checkStillServing('huge');
  });

  test('bodies over the limit are refused with 413, declared or streamed', { timeout: 60_000 }, async () => {
    const declared = await post(Buffer.alloc(MAX_BODY + 1, 0x20));
    assert.equal(declared.status, 413);
    // 64 MB streamed without Content-Length: refused once past the limit, not buffered whole.
    const before = (await daemon.status()).memory.rss;
    const streamed = await new Promise<number>((resolve, reject) => {
      const u = new URL(daemon.mcpUrl);
      const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...daemon.headers, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (e) => (e.message.includes('EPIPE') || e.message.includes('ECONNRESET') ? resolve(413) : reject(e)));
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 64 && !req.destroyed) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    const grew = ((await daemon.status()).memory.rss - before) / 1048576;
    figures['64 MB streamed body: daemon rss growth MB'] = round(grew);
    assert.equal(streamed, 413);
    assert.ok(grew < 48, `the daemon grew by ${round(grew)} MB on a refused 64 MB body`);
    await checkStillServing('too large');
  });

  test('a foreign Origin or Host is refused with 403', { timeout: 30_000 }, async () => {
    const init = JSON.stringify(INIT);
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: 'http://127.0.0.1.evil.example' }]) {
      const r = await post(init, headers);
      assert.equal(r.status, 403, `Origin ${headers.origin} got ${r.status}`);
    }
    for (const host of ['evil.example', '127.0.0.1.evil.example', 'localhost.evil.example:80']) {
      const status = await new Promise<number>((resolve, reject) => {
        const u = new URL(daemon.mcpUrl);
        const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { host, 'content-type': 'application/json', accept: ACCEPT } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(init);
      });
      assert.equal(status, 403, `Host ${host} got ${status}`);
    }
    figures['foreign Origin/Host requests refused'] = 6;
    await checkStillServing('origin');
  });

  test('clients that disconnect mid-call leave the daemon serving', { timeout: 120_000 }, async () => {
    const sid = await rawSession();
    const n = scaled(200);
    for (let i = 0; i < n; i++) {
      const ac = new AbortController();
      const p = fetch(daemon.mcpUrl, {
        method: 'POST',
        signal: ac.signal,
        headers: { 'content-type': 'application/json', accept: ACCEPT, ...daemon.headers, 'mcp-session-id': sid },
        body: JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: i % 2 ? 'search' : 'endpoint_by_spec', arguments: i % 2 ? { query: 'book author' } : {} } }),
      }).then((r) => r.body?.cancel());
      // Abort at different moments: before sending, while waiting, after the headers.
      if (i % 3 === 0) ac.abort();
      else setTimeout(() => ac.abort(), i % 5);
      await p.catch(() => {});
    }
    figures['mid-call disconnects'] = n;
    await checkStillServing('disconnect');
  });

  test('open sessions are capped, so a client opening sessions in a loop cannot grow the heap until the idle sweep', { timeout: 120_000 }, async () => {
    const n = 600;
    for (let i = 0; i < n; i += 25) await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => rawSession()));
    const st = await daemon.status();
    assert.ok(st.sessions <= 256, `${st.sessions} sessions open after ${n} were opened and abandoned`);
  });

  test('a flood of sessions that are never closed does not exhaust the daemon', { timeout: 120_000 }, async () => {
    const before = (await daemon.status()).memory.heapUsed;
    const n = scaled(500);
    for (let i = 0; i < n; i += 25) await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => rawSession()));
    const st = await daemon.status();
    figures['sessions opened and abandoned'] = n;
    figures['open sessions reported after the flood'] = st.sessions;
    figures['session flood: daemon heap growth MB'] = round((st.memory.heapUsed - before) / 1048576);
    await checkStillServing('flood');
  });
});
