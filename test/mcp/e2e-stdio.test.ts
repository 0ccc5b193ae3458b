// End to end over stdio: a spawned `svc serve` process and the SDK's Client, real files.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SVC_BIN, call, nodeArgs, spawnSvc, textOf, workspace, type Workspace } from './support.ts';

describe('svc serve over stdio (spawned process)', () => {
  let ws: Workspace;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';

  before(async () => {
    ws = await workspace();
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [...nodeArgs(), SVC_BIN, 'serve', '--config', ws.configFile],
      env: { ...(process.env as Record<string, string>), ...ws.env },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'svc-e2e', version: '1.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await ws?.cleanup();
  });

  it('lists the seven tools', async () => {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 7);
  });

  it('finds, lists and inspects endpoints of the real catalogue', async () => {
    const found = await call(client, 'search', { query: 'weather alerts' });
    assert.match(textOf(found), /^weather:GET:\/alerts - Active weather alerts$/m);
    const listed = await call(client, 'endpoint_by_spec', { spec: 'weather' });
    assert.equal((listed.structuredContent as { total: number }).total, 2);
    const inspected = await call(client, 'inspect', { endpointId: 'weather:GET:/forecast/{city}' });
    assert.match(textOf(inspected), /^GET \/forecast\/\{city\}\n/);
  });

  it('reads a misspelt word as the catalogue writes it, and says so', async () => {
    const found = await call(client, 'search', { query: 'weather alrets' });
    assert.match(textOf(found), /^\d+ matches for "weather alrets" \(read as "weather alerts"\), best first$/m);
    assert.match(textOf(found), /^weather:GET:\/alerts - Active weather alerts$/m);
    assert.equal((found.structuredContent as { readAs?: string }).readAs, 'weather alerts');
  });

  it('logs on stderr', () => {
    assert.match(stderr, /svc: serving MCP on stdio/);
  });
});

describe('stdout in stdio mode', () => {
  let ws: Workspace;
  before(async () => {
    ws = await workspace({ broken: true });
  });
  after(async () => ws?.cleanup());

  it('carries only JSON-RPC, also while a spec fails to load, and the process ends when stdin does', async () => {
    const proc = spawnSvc(['serve', '--config', ws.configFile], { env: ws.env });
    let out = '';
    proc.child.stdout!.setEncoding('utf8');
    proc.child.stdout!.on('data', (chunk: string) => (out += chunk));
    const send = (message: unknown): void => void proc.child.stdin!.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'endpoint_by_spec', arguments: {} } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'inspect', arguments: { endpointId: 'nope' } } });
    proc.child.stdin!.end();
    const code = await proc.exited;
    assert.equal(code, 0, proc.stderr());

    const lines = out.split('\n').filter((l) => l !== '');
    assert.ok(lines.length >= 4, `expected answers, got:\n${out}`);
    for (const line of lines) {
      const message = JSON.parse(line) as { jsonrpc?: string };
      assert.equal(message.jsonrpc, '2.0', line);
    }
    const answers = new Map(lines.map((l) => JSON.parse(l) as { id?: number; result?: { content?: { text: string }[] } }).map((m) => [m.id, m]));
    assert.deepEqual([...answers.keys()].filter((k) => k !== undefined).sort(), [1, 2, 3, 4]);
    // The broken spec is reported on stderr and left out; the others serve.
    assert.match(proc.stderr(), /broken/);
    assert.match(proc.stderr(), /not loaded/);
    const overview = answers.get(3)?.result?.content?.[0]?.text ?? '';
    assert.match(overview, /^zoo: 8 endpoints/m);
    assert.doesNotMatch(overview, /^broken/m);
  });
});
