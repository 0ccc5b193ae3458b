// End to end over HTTP: a spawned `svc serve --transport sse --port 0` on 127.0.0.1, reached with the
// SDK's Streamable HTTP and legacy SSE clients, and with raw node:http requests for the guards.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, spawnHttp, spawnSvc, stateHome, textOf, workspace, type Workspace } from './support.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request with exactly the headers given (fetch would not let a test set Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        // An accepted SSE stream never ends: the status and headers are the answer.
        if ((res.headers['content-type'] ?? '').includes('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          res.destroy();
          return;
        }
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The 1.x SSE client opens its stream with EventSource, which takes headers through its own fetch. */
function sseInit(headers: Record<string, string>): { fetch: typeof fetch } {
  return { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) };
}

describe('svc serve over HTTP on 127.0.0.1 (spawned process)', () => {
  let ws: Workspace;
  let svc: Awaited<ReturnType<typeof spawnHttp>>;

  before(async () => {
    ws = await workspace({ serve: 'maxBodyBytes: 4096' });
    svc = await spawnHttp(ws.configFile);
  });
  after(async () => {
    await svc?.stop();
    await ws?.cleanup();
  });

  it('prints the bound loopback URL with the ephemeral port on stderr', () => {
    assert.match(svc.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(svc.url).port, '0');
  });

  it('serves Streamable HTTP at /mcp to the SDK client', async () => {
    const client = new Client({ name: 'e2e-streamable', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: svc.headers } }));
    try {
      assert.equal((await client.listTools()).tools.length, 7);
      assert.match(textOf(await call(client, 'search', { query: 'add an animal' })), /^zoo:POST:\/animals - Add an animal$/m);
    } finally {
      await client.close();
    }
  });

  it('serves the legacy HTTP+SSE transport at /sse and /messages to the SDK client', async () => {
    const client = new Client({ name: 'e2e-sse', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${svc.url}/sse`), { requestInit: { headers: svc.headers }, eventSourceInit: sseInit(svc.headers) }));
    try {
      assert.equal((await client.listTools()).tools.length, 7);
      const result = await call(client, 'inspect', { endpointId: 'zoo:GET:/keepers' });
      assert.match(textOf(result), /^GET \/keepers$/m);
    } finally {
      await client.close();
    }
  });

  it('keeps sessions apart: two clients at once, one per transport', async () => {
    const a = new Client({ name: 'a', version: '1' });
    const b = new Client({ name: 'b', version: '1' });
    await a.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: svc.headers } }));
    await b.connect(new SSEClientTransport(new URL(`${svc.url}/sse`), { requestInit: { headers: svc.headers }, eventSourceInit: sseInit(svc.headers) }));
    try {
      const [ra, rb] = await Promise.all([call(a, 'endpoint_by_spec', { spec: 'zoo', limit: 1 }), call(b, 'endpoint_by_spec', { spec: 'weather', limit: 1 })]);
      assert.match(textOf(ra), /zoo:GET:\/animals/);
      assert.match(textOf(rb), /weather:GET:\/forecast/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('answers a foreign Host with 403 on every route', async () => {
    const port = new URL(svc.url).port;
    for (const [method, path] of [['POST', '/mcp'], ['GET', '/sse'], ['POST', '/messages?sessionId=x']] as const) {
      const res = await raw(`${svc.url}${path}`, { method, headers: { ...JSON_HEADERS, host: `evil.example:${port}` }, ...(method === 'POST' ? { body: INITIALIZE } : {}) });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
  });

  it('answers a foreign Origin with 403', async () => {
    const res = await raw(`${svc.url}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, origin: 'http://evil.example' }, body: INITIALIZE });
    assert.equal(res.status, 403);
    const sse = await raw(`${svc.url}/sse`, { headers: { origin: 'https://attacker.test' } });
    assert.equal(sse.status, 403);
  });

  it('accepts a local Origin and a local Host', async () => {
    const port = new URL(svc.url).port;
    const res = await raw(`${svc.url}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, ...svc.headers, origin: `http://localhost:${port}`, host: `localhost:${port}` }, body: INITIALIZE });
    assert.equal(res.status, 200, res.body);
    assert.ok(res.headers['mcp-session-id']);
  });

  it('refuses a body over serve.maxBodyBytes with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(8000) } });
    const res = await raw(`${svc.url}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, ...svc.headers }, body: big });
    assert.equal(res.status, 413);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const res = await raw(`${svc.url}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, ...svc.headers }, body: '{not json' });
    assert.equal(res.status, 400);
    assert.equal((JSON.parse(res.body) as { error: { code: number } }).error.code, -32700);
  });

  it('answers an unknown session with 404 and a request without session with 400', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const unknown = await raw(`${svc.url}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, ...svc.headers, 'mcp-session-id': 'no-such-session' }, body: list });
    assert.equal(unknown.status, 404);
    const none = await raw(`${svc.url}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, ...svc.headers }, body: list });
    assert.equal(none.status, 400);
  });

  it('answers other paths with 404', async () => {
    assert.equal((await raw(`${svc.url}/`, { headers: svc.headers })).status, 404);
  });

  it('on loopback, refuses a client without the token svc created, and names the file on stderr', async () => {
    assert.ok(svc.token.length >= 40, 'svc created a token');
    assert.match(svc.stderr(), /Authorization: Bearer <token>", the token in \S+http-token/);
    assert.ok(!svc.stderr().includes(svc.token), 'the token itself is never logged');
    const missing = await raw(`${svc.url}/mcp`, { method: 'POST', headers: JSON_HEADERS, body: INITIALIZE });
    assert.equal(missing.status, 401);
    const client = new Client({ name: 'e2e-default-token', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: svc.headers } }));
    assert.equal((await client.listTools()).tools.length, 7);
    await client.close();
  });
});

describe('svc serve on a non-loopback address', () => {
  let ws: Workspace;
  before(async () => {
    ws = await workspace({ serve: 'tokenEnv: SVC_E2E_TOKEN' });
  });
  after(async () => ws?.cleanup());

  it('refuses to start with serve.auth: none, naming the key', async () => {
    const bare = await workspace({ serve: 'auth: none' });
    try {
      const proc = spawnSvc(['serve', '--config', bare.configFile, '--transport', 'http', '--host', '0.0.0.0', '--port', '0'], { env: { XDG_STATE_HOME: stateHome(bare.configFile) } });
      assert.equal(await proc.exited, 1);
      assert.match(proc.stderr(), /auth: none/);
      assert.match(proc.stderr(), /bearer token|127\.0\.0\.1/);
    } finally {
      await bare.cleanup();
    }
  });

  it('refuses to start when the token variable is not set, naming it', async () => {
    const proc = spawnSvc(['serve', '--config', ws.configFile, '--transport', 'sse', '--host', '0.0.0.0', '--port', '0'], { env: { SVC_E2E_TOKEN: '' } });
    assert.equal(await proc.exited, 1);
    assert.match(proc.stderr(), /SVC_E2E_TOKEN/);
  });

  it('requires the bearer token on every request and never prints it', async () => {
    const token = 'e2e-secret-7f3a9c';
    const svc = await spawnHttp(ws.configFile, ['--host', '0.0.0.0'], { SVC_E2E_TOKEN: token });
    try {
      const base = `http://127.0.0.1:${new URL(svc.url).port}`;
      const missing = await raw(`${base}/mcp`, { method: 'POST', headers: JSON_HEADERS, body: INITIALIZE });
      assert.equal(missing.status, 401);
      const wrong = await raw(`${base}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: 'Bearer nope' }, body: INITIALIZE });
      assert.equal(wrong.status, 401);
      const sse = await raw(`${base}/sse`, {});
      assert.equal(sse.status, 401);

      const client = new Client({ name: 'e2e-token', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      try {
        assert.equal((await client.listTools()).tools.length, 7);
      } finally {
        await client.close();
      }
      assert.doesNotMatch(svc.stderr(), new RegExp(token));
    } finally {
      await svc.stop();
    }
  });
});

describe('svc serve over HTTP with serve.auth: none', () => {
  it('with serve.auth: none, serves without a token and warns at start', async () => {
    const ws = await workspace({ serve: 'auth: none' });
    const svc = await spawnHttp(ws.configFile);
    try {
      assert.match(svc.stderr(), /no authentication \(serve\.auth: none\)/);
      await svc.waitForStderr(/warning: serve\.auth is none/);
      const res = await raw(`${svc.url}/mcp`, { method: 'POST', headers: JSON_HEADERS, body: INITIALIZE });
      assert.equal(res.status, 200, res.body);
    } finally {
      await svc.stop();
      await ws.cleanup();
    }
  });
});
