// The 2025-era HTTP sessions are bounded: past the cap, a session of the client holding the most is
// closed (so a client that opens sessions in a loop pushes out only its own), and a session idle
// longer than sessionIdleMs is closed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttp, MCP_PATH, type HttpHandle } from '../../src/mcp/index.ts';
import { call, sessionContext, textOf, workspace, type SessionContextValue, type Workspace } from './support.ts';

const NO_AUTH = { kind: 'none' } as const;

describe('HTTP session cap', () => {
  let ws: Workspace;
  let context: SessionContextValue;
  const clients: Client[] = [];
  const servers: HttpHandle[] = [];

  before(async () => {
    ws = await workspace();
    context = await sessionContext(ws.configFile);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await Promise.all(servers.map((s) => s.close()));
    await ws.cleanup();
  });

  async function serve(options: { maxSessions?: number; sessionIdleMs?: number }): Promise<HttpHandle> {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: NO_AUTH, maxBodyBytes: 1 << 20, context: () => context, ...options });
    servers.push(http);
    return http;
  }

  async function connect(http: HttpHandle, name: string): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}${MCP_PATH}`)));
    clients.push(client);
    return client;
  }

  it('within one client, closes the session idle longest when a new one would pass the cap', async () => {
    const http = await serve({ maxSessions: 2 });
    const first = await connect(http, 'same');
    const second = await connect(http, 'same');
    await call(first, 'endpoint_by_spec');
    await call(second, 'endpoint_by_spec'); // both at work; the second used last
    assert.equal(http.sessionCount(), 2);
    const third = await connect(http, 'same');
    assert.equal(http.sessionCount(), 2, 'never more sessions than the cap');
    assert.match(textOf(await call(third, 'endpoint_by_spec')), /spec/);
    assert.match(textOf(await call(second, 'endpoint_by_spec')), /spec/, 'the recently used session survives');
    await assert.rejects(call(first, 'endpoint_by_spec'), /404|not found/i, 'the one idle longest was closed');
  });

  it('a client that floods sessions evicts only its own, never another client at work', async () => {
    const http = await serve({ maxSessions: 4 });
    const user = await connect(http, 'the-user');
    await call(user, 'endpoint_by_spec');
    // The user's session is the oldest and idle while the flood runs, and every flood session is at
    // work: a global "idle longest" rule would close the user's.
    for (let i = 0; i < 8; i++) await call(await connect(http, 'flood'), 'endpoint_by_spec');
    assert.equal(http.sessionCount(), 4);
    assert.match(textOf(await call(user, 'endpoint_by_spec')), /spec/, "the user's session survives the flood");
  });

  it('closes a session nobody used for sessionIdleMs', async () => {
    const http = await serve({ sessionIdleMs: 400 });
    const idle = await connect(http, 'idle');
    assert.match(textOf(await call(idle, 'endpoint_by_spec')), /spec/);
    assert.equal(http.sessionCount(), 1);
    const deadline = Date.now() + 10_000;
    while (http.sessionCount() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(http.sessionCount(), 0, 'the idle session was closed');
    await assert.rejects(call(idle, 'endpoint_by_spec'), /404|not found/i);
  });
});
