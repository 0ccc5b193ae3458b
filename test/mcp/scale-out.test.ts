// 2026-07-28 over HTTP is stateless, so several `svc serve` processes behind one load balancer serve
// the same catalogue: here two daemons behind a small round-robin proxy (each request to the next
// daemon), and one client pinned to 2026-07-28 that lists, calls and confirms a write across them.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnHttp, workspace, type Workspace } from './support.ts';

const TOKEN = 'scale-out-shared-token-5b1e';

/** Forwards each HTTP request to the next backend in turn; counts what each one served. */
function roundRobin(backends: readonly URL[]): { server: Server; served: number[] } {
  const served = backends.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const i = next++ % backends.length;
    served[i]!++;
    const target = backends[i]!;
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return { server, served };
}

describe('stateless scale-out: two daemons behind one proxy', () => {
  let ws: Workspace;
  let api: Server;
  let proxy: { server: Server; served: number[] };
  let proxyUrl: string;
  const daemons: Awaited<ReturnType<typeof spawnHttp>>[] = [];
  const writes: string[] = [];

  before(async () => {
    api = createServer((req, res) => {
      req.resume();
      if (req.method !== 'GET') writes.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    // One svc.yaml and one token (serve.tokenEnv) for every replica, as a deployment would have.
    ws = await workspace({ serve: 'tokenEnv: SVC_SCALE_TOKEN', zoo: `baseUrl: http://127.0.0.1:${(api.address() as AddressInfo).port}/zoo\nwrites: confirm` });
    for (let i = 0; i < 2; i++) daemons.push(await spawnHttp(ws.configFile, ['--socket', `${ws.dir}/d${i}.sock`], { SVC_SCALE_TOKEN: TOKEN }));
    proxy = roundRobin(daemons.map((d) => new URL(d.url)));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await Promise.all(daemons.map((d) => d.stop()));
    for (const s of [proxy?.server, api]) if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    await ws?.cleanup();
  });

  it('a client pinned to 2026-07-28 works across both, a confirmed write included', async () => {
    const client = new Client({ name: 'scale-out', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxyUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      for (let i = 0; i < 3; i++) assert.equal((await client.listTools()).tools.length, 7);
      for (const query of ['add an animal', 'weather alerts', 'keepers']) {
        const result = await client.callTool({ name: 'search', arguments: { query } });
        assert.equal(result.isError, undefined);
      }
      // The question is asked by one daemon and the answer may reach the other: the call carries its state.
      const write = await client.callTool({ name: 'invoke', arguments: { endpointId: 'zoo:DELETE:/animals/{animalId}', params: { animalId: 4 } } });
      assert.equal(write.isError, undefined, JSON.stringify(write.content));
      assert.deepEqual(writes, ['DELETE /zoo/animals/4']);
    } finally {
      await client.close();
    }
    assert.ok(proxy.served.every((n) => n >= 3), `both daemons served requests: ${proxy.served.join(', ')}`);
  });
});
