// The invoke tool as the MCP layer wires it: the call reaches a real HTTP server on loopback,
// and writes under `writes: confirm` are confirmed through MCP elicitation when the client can ask.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { call, inMemoryClient, sessionContext, textOf, workspace, type Workspace } from './support.ts';

describe('invoke through MCP', () => {
  let http: Server;
  let seen: { method: string; url: string; body: string }[];
  let ws: Workspace;

  before(async () => {
    http = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', body });
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, name: 'Mara' }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as AddressInfo).port;
    ws = await workspace({ zoo: `baseUrl: http://127.0.0.1:${port}/zoo\nwrites: confirm` });
  });
  beforeEach(() => {
    seen = [];
  });
  after(async () => {
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await ws?.cleanup();
  });

  it('sends a GET with the path parameter filled in and returns the response', async () => {
    const client = await inMemoryClient(await sessionContext(ws.configFile));
    try {
      const result = await call(client, 'invoke', { endpointId: 'zoo:GET:/animals/{animalId}', params: { animalId: 7 } });
      assert.equal(result.isError, undefined, textOf(result));
      assert.deepEqual(seen.map((s) => `${s.method} ${s.url}`), ['GET /zoo/animals/7']);
      assert.match(textOf(result), /200/);
      assert.match(textOf(result), /Mara/);
    } finally {
      await client.close();
    }
  });

  it('asks the person through elicitation before a write, and sends it when they accept', async () => {
    const client = await inMemoryClient(await sessionContext(ws.configFile), { elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const result = await call(client, 'invoke', {
        endpointId: 'zoo:POST:/animals',
        params: { 'X-Request-Id': 'r1' },
        body: { name: 'Mara', species: 'lynx', tag: 3 },
      });
      assert.equal(result.isError, undefined, textOf(result));
      assert.equal(asked.length, 1);
      assert.match(asked[0]!, /POST/);
      assert.deepEqual(seen.map((s) => `${s.method} ${s.url}`), ['POST /zoo/animals']);
      assert.deepEqual(JSON.parse(seen[0]!.body), { name: 'Mara', species: 'lynx', tag: 3 });
    } finally {
      await client.close();
    }
  });

  it('does not send a write the person declines', async () => {
    const client = await inMemoryClient(await sessionContext(ws.configFile), { elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    try {
      const result = await call(client, 'invoke', { endpointId: 'zoo:DELETE:/animals/{animalId}', params: { animalId: 3 } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /declined/);
      assert.equal(seen.length, 0);
    } finally {
      await client.close();
    }
  });

  it('refuses a write that needs confirmation when the client cannot ask', async () => {
    const client = await inMemoryClient(await sessionContext(ws.configFile));
    try {
      const result = await call(client, 'invoke', { endpointId: 'zoo:DELETE:/animals/{animalId}', params: { animalId: 3 } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /elicitation/);
      assert.equal(seen.length, 0);
    } finally {
      await client.close();
    }
  });

  it('answers an unknown endpoint id with the closest ids, without a request', async () => {
    const client = await inMemoryClient(await sessionContext(ws.configFile));
    try {
      const result = await call(client, 'invoke', { endpointId: 'zoo:GET:/animal' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /closest ids: .*zoo:GET:\/animals/);
      assert.equal(seen.length, 0);
    } finally {
      await client.close();
    }
  });
});
