// The HTTP front's routes from its contract, in this process (so mutation testing sees the code
// run): every answer that is not MCP itself is asserted whole (status, JSON-RPC error code, message,
// the headers a client acts on), and a failed request leaves the server serving.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttp, MCP_PATH, SSE_PATH, type HttpHandle } from '../../src/mcp/index.ts';
import { SvcError } from '../../src/model/errors.ts';
import { rawRequest } from './raw-http.ts';
import { call, sessionContext, textOf, workspace, type SessionContextValue, type Workspace } from './support.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 15_000;

const TOKEN = 'Routes-token_0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const LIMIT = 4096;

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'routes', version: '1' } } });
const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

const rpc = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

describe('HTTP routes', { timeout: HANG_MS }, () => {
  let ws: Workspace;
  let context: SessionContextValue;
  let http: HttpHandle;
  const logs: string[] = [];

  before(async () => {
    ws = await workspace();
    context = await sessionContext(ws.configFile);
    http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'token', token: TOKEN, source: { env: 'X' } }, maxBodyBytes: LIMIT, context: () => context, log: (l) => logs.push(l) });
  });
  after(async () => {
    await http.close();
    await ws.cleanup();
  });

  it('reports the URL it bound, with the port it got', { timeout: HANG_MS }, () => {
    assert.equal(http.url, `http://127.0.0.1:${http.port}`);
    assert.ok(http.port > 0);
  });

  it('answers an unknown path with 404 naming where MCP is served', { timeout: HANG_MS }, async () => {
    const res = await rawRequest(`${http.url}/nope`, { method: 'GET', headers: AUTH });
    assert.equal(res.status, 404);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(res.body), { error: 'Not found: MCP is served at /mcp (Streamable HTTP) and /sse (legacy SSE, deprecated)' });
    // Idle keep-alive connections are kept a minute, so a client never reuses one the server just closed.
    assert.equal(res.headers['keep-alive'], 'timeout=60');
    // /sse takes GET only, /messages POST only.
    assert.equal((await rawRequest(`${http.url}/sse`, { method: 'POST', headers: AUTH, body: '{}' })).status, 404);
    assert.equal((await rawRequest(`${http.url}/messages`, { method: 'GET', headers: AUTH })).status, 404);
  });

  it('refuses a foreign Host with 403 and says why, before the token is looked at', { timeout: HANG_MS }, async () => {
    const res = await rawRequest(`${http.url}/mcp`, { headers: { host: 'evil.example', ...AUTH }, body: initialize });
    assert.equal(res.status, 403);
    assert.match(JSON.parse(res.body).error, /^Forbidden: /);
    assert.ok(logs.some((l) => l.startsWith('refused POST /mcp: ')), 'logged');
    assert.equal((await rawRequest(`${http.url}/mcp`, { headers: { host: 'evil.example' }, body: initialize })).status, 403);
  });

  it('answers 401 with a Bearer challenge that says where the token is, never the token', { timeout: HANG_MS }, async () => {
    const res = await rawRequest(`${http.url}/mcp`, { body: initialize });
    assert.equal(res.status, 401);
    assert.equal(res.headers['www-authenticate'], 'Bearer');
    assert.deepEqual(JSON.parse(res.body), { error: 'Unauthorized: send Authorization: Bearer <token> (svc status says where the token is)' });
  });

  it('answers a body that is not JSON with the parse error -32700, and 413 over the limit with the setting to change', { timeout: HANG_MS }, async () => {
    const bad = await rawRequest(`${http.url}/mcp`, { headers: AUTH, body: '{"jsonrpc":' });
    assert.equal(bad.status, 400);
    assert.deepEqual(JSON.parse(bad.body), rpc(-32700, 'Parse error: the body is not JSON'));
    const big = await rawRequest(`${http.url}/mcp`, { headers: AUTH, body: `"${'x'.repeat(LIMIT)}"` });
    assert.equal(big.status, 413);
    assert.equal(big.headers['connection'], 'close');
    assert.deepEqual(JSON.parse(big.body), rpc(-32000, `Request body larger than ${LIMIT} bytes (serve.maxBodyBytes)`));
    const sse = await rawRequest(`${http.url}/messages?sessionId=x`, { headers: AUTH, body: '{' });
    assert.equal(sse.status, 404, 'an unknown SSE session is refused before its body is read');
  });

  it('answers 2025-era requests that are not initialize and carry no session with 400', { timeout: HANG_MS }, async () => {
    const res = await rawRequest(`${http.url}/mcp`, { headers: AUTH, body: listTools });
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), rpc(-32000, 'Bad Request: no mcp-session-id header; the first request must be initialize (protocol 2025-11-25), or send a 2026-07-28 request'));
  });

  it('answers an unknown session id with 404 on POST, GET and DELETE, and a missing one with 400 on GET and DELETE', { timeout: HANG_MS }, async () => {
    const post = await rawRequest(`${http.url}/mcp`, { headers: { ...AUTH, 'mcp-session-id': 'no-such' }, body: listTools });
    assert.equal(post.status, 404);
    assert.deepEqual(JSON.parse(post.body), rpc(-32001, 'Session not found; start a new session with initialize'));
    for (const method of ['GET', 'DELETE']) {
      const unknown = await rawRequest(`${http.url}/mcp`, { method, headers: { ...AUTH, 'mcp-session-id': 'no-such' } });
      assert.equal(unknown.status, 404, method);
      assert.deepEqual(JSON.parse(unknown.body), rpc(-32000, 'Session not found'));
      const missing = await rawRequest(`${http.url}/mcp`, { method, headers: AUTH });
      assert.equal(missing.status, 400, method);
      assert.deepEqual(JSON.parse(missing.body), rpc(-32000, 'Bad Request: mcp-session-id header required'));
    }
  });

  it('answers other methods on /mcp with 405 and the methods it allows', { timeout: HANG_MS }, async () => {
    const res = await rawRequest(`${http.url}/mcp`, { method: 'PUT', headers: AUTH, body: '{}' });
    assert.equal(res.status, 405);
    assert.equal(res.headers['allow'], 'GET, POST, DELETE');
    assert.deepEqual(JSON.parse(res.body), rpc(-32000, 'Method not allowed'));
  });

  it('probes: HEAD gets the status without a body, other methods 405 with the methods allowed, never cached', { timeout: HANG_MS }, async () => {
    const head = await rawRequest(`${http.url}/healthz`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['cache-control'], 'no-store');
    assert.equal(head.headers['content-type'], 'text/plain');
    const post = await rawRequest(`${http.url}/readyz`, { method: 'DELETE' });
    assert.equal(post.status, 405);
    assert.equal(post.headers['allow'], 'GET, HEAD');
    // Without a ready() the daemon counts as ready; a probe needs no Host check either.
    assert.deepEqual(await rawRequest(`${http.url}/readyz`, { method: 'GET', headers: { host: 'evil.example' } }).then((r) => [r.status, r.body]), [200, 'ok\n']);
  });

  it('a session over Streamable HTTP is counted while open, serves tool calls, and is gone after DELETE', { timeout: HANG_MS }, async () => {
    const client = new Client({ name: 'routes-client', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${http.url}${MCP_PATH}`), { requestInit: { headers: AUTH } });
    await client.connect(transport);
    try {
      assert.equal(http.sessionCount(), 1);
      assert.match(textOf(await call(client, 'endpoint_by_spec', {})), /zoo/);
      const id = transport.sessionId!;
      // The session is for Streamable HTTP only: the SSE message route does not know it.
      assert.equal((await rawRequest(`${http.url}/messages?sessionId=${id}`, { headers: AUTH, body: listTools })).status, 404);
      await transport.terminateSession();
      assert.equal(http.sessionCount(), 0);
    } finally {
      await client.close();
    }
  });

  it('a legacy SSE session is counted while its stream is open and forgotten when it closes', { timeout: HANG_MS }, async () => {
    const client = new Client({ name: 'sse-client', version: '1' });
    const transport = new SSEClientTransport(new URL(`${http.url}${SSE_PATH}`), {
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...AUTH } }) },
      requestInit: { headers: AUTH },
    });
    await client.connect(transport);
    try {
      assert.equal(http.sessionCount(), 1);
      assert.match(textOf(await call(client, 'endpoint_by_spec', {})), /zoo/);
      // Its id is an SSE session: the Streamable HTTP route does not take it.
      const id = new URL((transport as unknown as { _endpoint: URL })._endpoint).searchParams.get('sessionId')!;
      assert.equal((await rawRequest(`${http.url}/mcp`, { headers: { ...AUTH, 'mcp-session-id': id }, body: listTools })).status, 404);
      assert.equal((await rawRequest(`${http.url}/mcp`, { method: 'GET', headers: { ...AUTH, 'mcp-session-id': id } })).status, 404);
    } finally {
      await client.close();
    }
    const deadline = Date.now() + 5000;
    while (http.sessionCount() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(http.sessionCount(), 0);
  });

  it('still serves after all of the above', { timeout: HANG_MS }, async () => {
    const res = await rawRequest(`${http.url}/mcp`, { headers: AUTH, body: initialize });
    assert.equal(res.status, 200);
  });
});

describe('HTTP front start-up', { timeout: HANG_MS }, () => {
  it('refuses to serve beyond loopback without a token, naming the host and the fix', { timeout: HANG_MS }, async () => {
    await assert.rejects(
      startHttp({ host: '0.0.0.0', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1024, context: () => { throw new Error('unused'); } }),
      (e: unknown) =>
        e instanceof SvcError && e.code === 'token-required' && e.message === 'refusing to serve MCP on 0.0.0.0 without a bearer token (serve.auth: none)' &&
        e.hint === 'remove serve.auth: none (svc then requires a token), or bind 127.0.0.1',
    );
  });

  it('shows an IPv6 host in brackets in its URL, and serves loopback without a token when auth is none', { timeout: HANG_MS }, async () => {
    let http: HttpHandle | undefined;
    try {
      http = await startHttp({ host: '::1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1024, context: () => { throw new Error('unused'); } });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') return; // No IPv6 loopback here.
      throw error;
    }
    try {
      assert.equal(http.url, `http://[::1]:${http.port}`);
      const res = await fetch(`${http.url}/nope`);
      assert.equal(res.status, 404);
    } finally {
      await http.close();
    }
  });

  it('a port already taken is an error from start, not a server that never answers', { timeout: HANG_MS }, async () => {
    const first = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1024, context: () => { throw new Error('unused'); } });
    try {
      await assert.rejects(startHttp({ host: '127.0.0.1', port: first.port, auth: { kind: 'none' }, maxBodyBytes: 1024, context: () => { throw new Error('unused'); } }), /EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
