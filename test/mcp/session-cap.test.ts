// The HTTP transports keep a bounded number of sessions: past the cap, the session idle longest is
// closed, so a client that opens sessions in a loop cannot grow the daemon until the idle sweep.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttp, MCP_PATH, type HttpHandle } from '../../src/mcp/index.ts';
import { call, sessionContext, textOf, workspace, type Workspace } from './support.ts';

describe('HTTP session cap', () => {
  let ws: Workspace;
  let http: HttpHandle;
  const clients: Client[] = [];

  before(async () => {
    ws = await workspace();
    const context = await sessionContext(ws.configFile);
    http = await startHttp({ host: '127.0.0.1', port: 0, maxBodyBytes: 1 << 20, maxSessions: 2, context: () => context });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await http.close();
    await ws.cleanup();
  });

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'cap-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}${MCP_PATH}`)));
    clients.push(client);
    return client;
  }

  it('closes an idle session when a new one would pass the cap, the one idle longest first', async () => {
    const first = await connect();
    const second = await connect();
    await call(first, 'endpoint_by_spec');
    await call(second, 'endpoint_by_spec'); // both at work; the second used last
    assert.equal(http.sessionCount(), 2);
    const third = await connect();
    assert.equal(http.sessionCount(), 2, 'never more sessions than the cap');
    assert.match(textOf(await call(third, 'endpoint_by_spec')), /spec/);
    assert.match(textOf(await call(second, 'endpoint_by_spec')), /spec/, 'the recently used session survives');
    await assert.rejects(call(first, 'endpoint_by_spec'), /404|not found/i, 'the one idle longest was closed');
  });

  it('closes sessions that never made a request before clients at work, however old', async () => {
    const working = clients[1]!; // the session used last in the test above
    for (let i = 0; i < 5; i++) await connect(); // abandoned right after the handshake
    assert.equal(http.sessionCount(), 2);
    assert.match(textOf(await call(working, 'endpoint_by_spec')), /spec/, 'a flood of abandoned sessions does not push out a client at work');
  });
});
