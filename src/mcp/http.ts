// One node:http server that offers both HTTP transports, so every current client can connect:
//   /mcp                      Streamable HTTP (protocol 2025-03-26 and later)
//   GET /sse, POST /messages  the legacy HTTP+SSE transport (2024-11-05)
// Each session gets its own McpServer. Every request passes the Host/Origin check and,
// when a token is configured, the bearer-token check, before anything else runs.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULTS } from '../config/types.ts';
import { SvcError } from '../model/errors.ts';
import { checkHostAndOrigin, isLoopbackHost, tokenChecker } from './guard.ts';
import { createMcpServer, type McpServerOptions } from './server.ts';

export const MCP_PATH = '/mcp';
export const SSE_PATH = '/sse';
export const MESSAGES_PATH = '/messages';

/** Sessions nobody touched for this long are closed (clients that vanish without DELETE). */
const IDLE_SESSION_MS = 60 * 60 * 1000;
/**
 * At most this many sessions are open at once. A client that opens sessions in a loop and
 * abandons them would otherwise hold memory until the idle sweep. Past the cap one session is
 * closed (its client gets 404 and can start a new one): one that never made a request after the
 * handshake if there is one, so a flood of abandoned sessions does not push out clients at work;
 * among those, the one touched longest ago.
 */
export const DEFAULT_MAX_SESSIONS = DEFAULTS.maxSessions;

export interface HttpOptions extends McpServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Required when `host` is not loopback. Never logged. */
  readonly token?: string;
  readonly allowedOrigins?: readonly string[];
  readonly maxBodyBytes: number;
  /** Open sessions kept at most; default DEFAULT_MAX_SESSIONS. */
  readonly maxSessions?: number;
  readonly log?: (message: string) => void;
}

export interface HttpHandle {
  /** Base URL actually bound, e.g. `http://127.0.0.1:41237`. */
  readonly url: string;
  readonly port: number;
  /** Open sessions (both transports). */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session {
  readonly server: McpServer;
  readonly transport: StreamableHTTPServerTransport | SSEServerTransport;
  lastSeen: number;
  /** Requests after the one that opened the session; the handshake's `initialized` notice is one. */
  requests: number;
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

class BodyTooLarge extends Error {}

async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function displayHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export async function startHttp(options: HttpOptions): Promise<HttpHandle> {
  const log = options.log ?? (() => {});
  if (!isLoopbackHost(options.host) && !options.token) {
    throw new SvcError('token-required', `refusing to serve MCP on ${options.host} without a bearer token`, {
      hint: 'set serve.tokenEnv in svc.yaml to the name of an environment variable holding a token, and set that variable; or bind 127.0.0.1',
    });
  }
  const policy = { bindHost: options.host, allowedOrigins: options.allowedOrigins ?? [] };
  const tokenOk = options.token ? tokenChecker(options.token) : undefined;
  const sessions = new Map<string, Session>();

  const forget = (id: string): void => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    void session.server.close().catch(() => {});
  };

  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const admit = (id: string, session: Session): void => {
    while (sessions.size >= maxSessions) {
      let victim: string | undefined;
      let victimRank = Infinity;
      for (const [other, s] of sessions) {
        const rank = (s.requests > 1 ? 1e15 : 0) + s.lastSeen; // never used first, then idle longest
        if (rank < victimRank) [victim, victimRank] = [other, rank];
      }
      if (victim === undefined) break;
      log(`${maxSessions} HTTP sessions open: closing one that is idle (serve.maxSessions)`);
      forget(victim);
    }
    sessions.set(id, session);
  };

  const handleStreamable = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const id = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    if (req.method === 'POST') {
      const body = await readJsonBody(req, options.maxBodyBytes);
      if (id !== undefined) {
        const session = sessions.get(id);
        if (!session || !(session.transport instanceof StreamableHTTPServerTransport)) {
          rpcError(res, 404, -32001, 'Session not found; start a new session with initialize');
          return;
        }
        session.lastSeen = Date.now();
        session.requests++;
        await session.transport.handleRequest(req, res, body);
        return;
      }
      const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
      if (!initializing) {
        rpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; the first request must be initialize');
        return;
      }
      const server = createMcpServer(options);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (newId) => {
          admit(newId, { server, transport, lastSeen: Date.now(), requests: 0 });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) forget(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      const session = id !== undefined ? sessions.get(id) : undefined;
      if (!session || !(session.transport instanceof StreamableHTTPServerTransport)) {
        rpcError(res, id === undefined ? 400 : 404, -32000, id === undefined ? 'Bad Request: mcp-session-id header required' : 'Session not found');
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res);
      return;
    }
    rpcError(res, 405, -32000, 'Method not allowed', { allow: 'GET, POST, DELETE' });
  };

  const handleSseStream = async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const transport = new SSEServerTransport(MESSAGES_PATH, res);
    const server = createMcpServer(options);
    const id = transport.sessionId;
    admit(id, { server, transport, lastSeen: Date.now(), requests: 0 });
    res.on('close', () => forget(id));
    await server.connect(transport);
  };

  const handleSseMessage = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const id = url.searchParams.get('sessionId') ?? '';
    const session = sessions.get(id);
    if (!session || !(session.transport instanceof SSEServerTransport)) {
      rpcError(res, 404, -32001, 'Session not found; open GET /sse first');
      return;
    }
    session.lastSeen = Date.now();
    session.requests++;
    const body = await readJsonBody(req, options.maxBodyBytes);
    await session.transport.handlePostMessage(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = checkHostAndOrigin(req, policy);
    if (refused) {
      log(`refused ${req.method} ${req.url}: ${refused}`);
      sendJson(res, 403, { error: `Forbidden: ${refused}` });
      return;
    }
    if (tokenOk && !tokenOk(req)) {
      sendJson(res, 401, { error: 'Unauthorized: send Authorization: Bearer <token>' }, { 'www-authenticate': 'Bearer' });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      if (url.pathname === MCP_PATH) await handleStreamable(req, res);
      else if (url.pathname === SSE_PATH && req.method === 'GET') await handleSseStream(req, res);
      else if (url.pathname === MESSAGES_PATH && req.method === 'POST') await handleSseMessage(req, res, url);
      else sendJson(res, 404, { error: `Not found: MCP is served at ${MCP_PATH} (Streamable HTTP) and ${SSE_PATH} (legacy SSE)` });
    } catch (error) {
      if (error instanceof BodyTooLarge) rpcError(res, 413, -32000, `Request body larger than ${options.maxBodyBytes} bytes`);
      else if (error instanceof SyntaxError) rpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      else {
        log(`error on ${req.method} ${url.pathname}: ${error instanceof Error ? error.message : String(error)}`);
        rpcError(res, 500, -32603, 'Internal error');
      }
    }
  };

  const http: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const url = `http://${displayHost(options.host)}:${port}`;

  const sweep = setInterval(() => {
    const cutoff = Date.now() - IDLE_SESSION_MS;
    for (const [id, s] of sessions) if (s.lastSeen < cutoff) forget(id);
  }, 60_000);
  sweep.unref();

  return {
    url,
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      const closing = [...sessions.keys()].map((id) => {
        const s = sessions.get(id)!;
        sessions.delete(id);
        return s.server.close().catch(() => {});
      });
      await Promise.all(closing);
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
