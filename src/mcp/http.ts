// One node:http server for every MCP client over HTTP:
//   /mcp      Streamable HTTP, both protocol eras side by side:
//               2026-07-28 requests are stateless, one server instance per request (so several
//               daemons behind a load balancer serve the same catalogue);
//               2025-era requests (no per-request envelope) are served as before, in sessions.
//   /sse, /messages  the legacy HTTP+SSE transport (2024-11-05), deprecated, kept for old clients.
//   /healthz, /readyz  liveness and readiness (catalogue loaded) for probes: no token, no details.
// Every MCP request passes the Host/Origin check and the bearer-token check before anything else,
// and its body is refused past maxBodyBytes before it is buffered.
// First: zod's settings, before the SDK's modules below build their schemas.
import './zod-config.ts';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, type Server, type Transport } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toWebRequest } from '@modelcontextprotocol/node';
import { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';
import { DEFAULTS } from '../config/types.ts';
import { SvcError } from '../model/errors.ts';
import { bareHost } from '../model/host.ts';
import { BodyTooLarge, readBody } from './body.ts';
import { checkHostAndOrigin, isLoopbackHost, tokenChecker } from './guard.ts';
import { createMcpServer, type McpServerOptions } from './server.ts';
import { SessionTable, clientKey, type SessionEntry } from './sessions.ts';
import type { HttpAuth } from './token.ts';

export const MCP_PATH = '/mcp';
export const SSE_PATH = '/sse';
export const MESSAGES_PATH = '/messages';
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export const DEFAULT_MAX_SESSIONS = DEFAULTS.maxSessions;

export interface HttpOptions extends McpServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Bearer token or none; a host other than loopback requires a token. Never logged. */
  readonly auth: HttpAuth;
  readonly allowedOrigins?: readonly string[];
  readonly maxBodyBytes: number;
  /** Open 2025-era sessions kept at most; default DEFAULT_MAX_SESSIONS. */
  readonly maxSessions?: number;
  /** A session idle this long is closed; default DEFAULTS.sessionIdleMs. */
  readonly sessionIdleMs?: number;
  /** For /readyz: true once the catalogue is loaded (default: always). */
  readonly ready?: () => boolean;
  readonly log?: (message: string) => void;
}

export interface HttpHandle {
  /** Base URL actually bound, e.g. `http://127.0.0.1:41237`. */
  readonly url: string;
  readonly port: number;
  /** Open 2025-era sessions (Streamable HTTP and SSE). */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session extends SessionEntry {
  readonly server: Server;
  readonly transport: NodeStreamableHTTPServerTransport | SSEServerTransport;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, headers?: Record<string, string>): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function displayHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Writes a web Response (JSON or an SSE stream) to a node response, stopping when the client goes. */
async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await new Promise<void>((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
    }
  } finally {
    res.off('close', stop);
    res.end();
  }
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export async function startHttp(options: HttpOptions): Promise<HttpHandle> {
  const log = options.log ?? (() => {});
  if (!isLoopbackHost(options.host) && options.auth.kind !== 'token') {
    throw new SvcError('token-required', `refusing to serve MCP on ${options.host} without a bearer token (serve.auth: none)`, {
      hint: 'remove serve.auth: none (svc then requires a token), or bind 127.0.0.1',
    });
  }
  // Stryker disable next-line ArrayDeclaration: a made-up entry is no origin: it equals no parsed Origin and gives no host
  const policy = { bindHost: options.host, allowedOrigins: options.allowedOrigins ?? [] };
  const tokenOk = options.auth.kind === 'token' ? tokenChecker(options.auth.token) : undefined;
  const sessions = new SessionTable<Session>({
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    idleMs: options.sessionIdleMs ?? DEFAULTS.sessionIdleMs,
    log,
  });

  // 2026-07-28: a fresh instance per request, nothing kept between requests. Old-era requests are
  // routed to the sessions below before they reach it.
  const modern = createMcpHandler(() => createMcpServer(options), {
    // Stryker disable next-line StringLiteral: isLegacyRequest (the handler's own classification) sends every 2025-era request to the sessions first, so the handler never sees one
    legacy: 'reject',
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => log(`MCP (2026-07-28): ${error.message}`),
  });
  // After `svc update`: 2026-07-28 clients listening (subscriptions/listen) hear tools/list_changed;
  // session instances tell their own clients (server.ts).
  const unsubscribe = options.hooks?.onCatalogChanged?.(() => modern.notify.toolsChanged());

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const server = createMcpServer(options, { connection: true });
    const initialize = (Array.isArray(body) ? body : [body]).find((m) => isInitializeRequest(m)) as { params?: { clientInfo?: { name?: string } } } | undefined;
    // Stryker disable next-line OptionalChaining: openSession runs only for a body with an initialize request, whose schema requires params and clientInfo
    const client = clientKey(req.socket.remoteAddress, header(req, 'user-agent'), initialize?.params?.clientInfo?.name);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.admit(id, { server, transport, client, lastSeen: Date.now(), requests: 0, close: () => server.close() });
      },
    });
    transport.onclose = () => {
      // Stryker disable next-line ConditionalExpression: forgetting an id the table does not hold does nothing
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // The transport refused the initialize (406 without `Accept: text/event-stream`, 400 for a batch
    // holding more than it): no session was made, so its server goes now. Kept, every refused
    // initialize would hold a server and count as a session opened that never closes.
    if (transport.sessionId === undefined) await server.close();
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const id = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      const body = await readBody(req, options.maxBodyBytes);
      if (id !== undefined) {
        const session = sessions.touch(id);
        if (!session || !(session.transport instanceof NodeStreamableHTTPServerTransport)) {
          rpcError(res, 404, -32001, 'Session not found; start a new session with initialize');
          return;
        }
        await session.transport.handleRequest(req, res, body);
        return;
      }
      const abort = new AbortController();
      res.once('close', () => abort.abort());
      const request = await toWebRequest(req, body, { signal: abort.signal });
      if (!(await isLegacyRequest(request, body))) {
        // Stryker disable next-line ObjectLiteral: speed only: the request carries the same body (toWebRequest serialises it), which the handler parses again
        await writeWebResponse(res, await modern.fetch(request, { parsedBody: body }));
        return;
      }
      const initializing = (Array.isArray(body) ? body : [body]).some((m) => isInitializeRequest(m));
      if (!initializing) {
        rpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; the first request must be initialize (protocol 2025-11-25), or send a 2026-07-28 request');
        return;
      }
      await openSession(req, res, body);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      // Stryker disable next-line ConditionalExpression: the table holds no session under an undefined id either
      const session = id !== undefined ? sessions.get(id) : undefined;
      if (!session || !(session.transport instanceof NodeStreamableHTTPServerTransport)) {
        rpcError(res, id === undefined ? 400 : 404, -32000, id === undefined ? 'Bad Request: mcp-session-id header required' : 'Session not found');
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res);
      return;
    }
    rpcError(res, 405, -32000, 'Method not allowed', { allow: 'GET, POST, DELETE' });
  };

  const handleSseStream = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const transport = new SSEServerTransport(MESSAGES_PATH, res);
    const server = createMcpServer(options, { connection: true });
    const id = transport.sessionId;
    const client = clientKey(req.socket.remoteAddress, header(req, 'user-agent'), undefined);
    sessions.admit(id, { server, transport, client, lastSeen: Date.now(), requests: 0, close: () => server.close() });
    res.on('close', () => sessions.forget(id));
    // The frozen legacy transport is typed against an older copy of the SDK's core; same interface.
    await server.connect(transport as unknown as Transport);
  };

  const handleSseMessage = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    // Stryker disable next-line StringLiteral: session ids are UUIDs, so no session has the empty id or any other fixed text
    const session = sessions.touch(url.searchParams.get('sessionId') ?? '');
    if (!session || !(session.transport instanceof SSEServerTransport)) {
      rpcError(res, 404, -32001, 'Session not found; open GET /sse first');
      return;
    }
    const body = await readBody(req, options.maxBodyBytes);
    await session.transport.handlePostMessage(req, res, body);
  };

  /** Probes: no token, no Host check, nothing but a word (what is loaded stays private). */
  const handleProbe = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end();
      return;
    }
    const ok = path === HEALTH_PATH || (options.ready?.() ?? true);
    res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    // Stryker disable next-line ConditionalExpression,StringLiteral: Node's server sends no body in answer to HEAD whatever end() is given
    res.end(req.method === 'HEAD' ? undefined : ok ? 'ok\n' : 'starting\n');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Stryker disable next-line StringLiteral: an empty URL resolves to the base's '/' as well (and node's server always sets req.url)
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === HEALTH_PATH || url.pathname === READY_PATH) {
      // Stryker disable next-line CallExpression: node's server reads and drops a body left unread once the answer is sent
      req.resume();
      handleProbe(req, res, url.pathname);
      return;
    }
    const refused = checkHostAndOrigin(req, policy);
    if (refused) {
      log(`refused ${req.method} ${url.pathname}: ${refused}`);
      // Stryker disable next-line CallExpression: node's server reads and drops a body left unread once the answer is sent
      req.resume();
      sendJson(res, 403, { error: `Forbidden: ${refused}` });
      return;
    }
    if (tokenOk && !tokenOk(req)) {
      // Stryker disable next-line CallExpression: node's server reads and drops a body left unread once the answer is sent
      req.resume();
      sendJson(res, 401, { error: 'Unauthorized: send Authorization: Bearer <token> (svc status says where the token is)' }, { 'www-authenticate': 'Bearer' });
      return;
    }
    try {
      if (url.pathname === MCP_PATH) await handleMcp(req, res);
      else if (url.pathname === SSE_PATH && req.method === 'GET') await handleSseStream(req, res);
      else if (url.pathname === MESSAGES_PATH && req.method === 'POST') await handleSseMessage(req, res, url);
      else sendJson(res, 404, { error: `Not found: MCP is served at ${MCP_PATH} (Streamable HTTP) and ${SSE_PATH} (legacy SSE, deprecated)` });
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        rpcError(res, 413, -32000, `Request body larger than ${options.maxBodyBytes} bytes (serve.maxBodyBytes)`, { connection: 'close' });
        // Stryker disable next-line CallExpression: node's server reads and drops the rest of the body once the answer is sent (a client past the limit by 32 MB still gets its 413 without this)
        req.resume();
      } else if (error instanceof SyntaxError) rpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      else {
        log(`error on ${req.method} ${url.pathname}: ${error instanceof Error ? error.message : String(error)}`);
        rpcError(res, 500, -32603, 'Internal error');
      }
    }
  };

  const http: NodeServer = createServer((req, res) => void handle(req, res));
  // Clients close an idle keep-alive connection a second before the server's advertised timeout.
  // With Node's 5 s, a loop held for a second (an update parsing a large spec) lets the server's
  // timer close a connection the client has just sent on: the client sees a reset. A long timeout
  // makes that window rare; idle connections still close.
  http.keepAliveTimeout = 60_000;
  http.headersTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    // `[::1]`, as a URL writes it, is a host the config takes; listen() takes the bare address.
    http.listen(options.port, bareHost(options.host), () => {
      // Stryker disable next-line StringLiteral: once listening, a late reject settles nothing (the promise is settled)
      http.off('error', reject);
      resolve();
    });
  });
  // Once listening, a server emits 'error' only when accept() fails (libuv meets EMFILE by accepting
  // and closing the connection, so that one never arrives); without a listener it would be thrown
  // and end the daemon with every session. Logged, and the server keeps serving, as the IPC server does.
  // Stryker disable next-line StringLiteral,ArrowFunction,CallExpression: no input makes accept() fail here (see above)
  http.on('error', (error) => log(`http: ${error.message}`));
  const port = (http.address() as AddressInfo).port;
  const url = `http://${displayHost(options.host)}:${port}`;

  return {
    url,
    port,
    sessionCount: () => sessions.size,
    async close() {
      unsubscribe?.();
      await sessions.closeAll();
      await modern.close().catch(() => {});
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
