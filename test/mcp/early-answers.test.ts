// The stdio front answers initialize, tools/list and ping before the MCP SDK is loaded
// (src/mcp/early.ts). These tests hold those answers to what the real SDK server says, and check
// the session the SDK takes over afterwards: it knows the client, answers once per request.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { EARLY_ANSWERS_FILE, earlyResult } from '../../src/mcp/early.ts';
import { askSdkServer, computeEarlyAnswers, serializeEarlyAnswers } from '../../src/mcp/precompute.ts';
import { describeTools } from '../../src/mcp/tool-list.ts';
import { serveStdio } from '../../src/mcp/stdio.ts';
import { TOOLS } from '../../src/tools/index.ts';

const initialize = (id: number, protocolVersion: string, capabilities: Record<string, unknown> = {}): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'early-test', version: '1.0.0' } },
});

describe('early answers (stdio, before the SDK is loaded)', () => {
  it('early-answers.json is what the SDK server answers today (else run `npm run gen:mcp`)', async () => {
    const fresh = serializeEarlyAnswers(await computeEarlyAnswers());
    assert.equal(readFileSync(EARLY_ANSWERS_FILE, 'utf8'), fresh, 'src/mcp/early-answers.json is stale: run `npm run gen:mcp`');
  });

  it('lists the tools exactly as describeTools renders the seven tool definitions', () => {
    const tools = JSON.parse(readFileSync(EARLY_ANSWERS_FILE, 'utf8')).tools;
    assert.deepEqual(tools, JSON.parse(JSON.stringify(describeTools(TOOLS))));
  });

  it('answers initialize as the SDK does for every supported protocol version and an unknown one', async () => {
    const versions = [...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01'];
    const requests = versions.map((v, i) => initialize(i + 1, v, i % 2 ? { elicitation: { form: {} } } : {}));
    for (const [i, request] of requests.entries()) {
      // One SDK server per initialize: a server answers one handshake.
      const sdk = (await askSdkServer([request])).get(i + 1) as { result?: unknown };
      const early = earlyResult(request);
      assert.ok(early, `answered early: ${versions[i]}`);
      assert.equal(JSON.stringify(early.result), JSON.stringify(sdk.result), versions[i]);
    }
    assert.equal((earlyResult(initialize(9, '1999-01-01'))!.result as { protocolVersion: string }).protocolVersion, LATEST_PROTOCOL_VERSION);
  });

  it('answers tools/list and ping as the SDK does', async () => {
    const requests: JSONRPCMessage[] = [
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list', params: { cursor: 'x' } },
      { jsonrpc: '2.0', id: 'c', method: 'ping' },
    ];
    // The real server with our own TOOLS array (the precomputed list), as a session gets it.
    const { createMcpServer } = await import('../../src/mcp/server.ts');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const server = createMcpServer({ context: () => Promise.reject(new Error('unused')) });
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const answers = new Map<unknown, unknown>();
    const done = new Promise<void>((resolve) => {
      client.onmessage = (m) => {
        if ('id' in m) answers.set(m.id, (m as { result?: unknown }).result);
        if (answers.size === requests.length) resolve();
      };
    });
    await server.connect(serverSide);
    await client.start();
    for (const r of requests) await client.send(r);
    await done;
    await server.close();
    for (const r of requests) {
      const id = (r as { id: string }).id;
      assert.equal(JSON.stringify(earlyResult(r)?.result), JSON.stringify(answers.get(id)), id);
    }
  });

  it('leaves unusual requests to the SDK: bad params, other methods, notifications, no id', () => {
    assert.equal(earlyResult({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 5 } }), undefined);
    assert.equal(earlyResult({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: 1 } } }), undefined);
    assert.equal(earlyResult({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: true }, clientInfo: { name: 'x', version: '1' } } }), undefined);
    assert.equal(earlyResult({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 7 } }), undefined);
    assert.equal(earlyResult({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: {} } }), undefined);
    assert.equal(earlyResult({ jsonrpc: '2.0', method: 'tools/list' }), undefined);
    assert.equal(earlyResult({ jsonrpc: '1.0', id: 4, method: 'ping' }), undefined);
  });
});

describe('serveStdio with early answers', () => {
  it('answers every request once, in a session the SDK takes over knowing the client', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const logged: string[] = [];
    let opened = 0;
    // Everything is written before serveStdio runs, and stdin ends: the early answers go out, the
    // SDK gets the queued lines, the tool call waits for the context and is answered before the end.
    const send = (m: unknown): void => void stdin.write(`${JSON.stringify(m)}\n`);
    send(initialize(1, '2025-06-18', { elicitation: { form: {} } }));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    stdin.write('{ not json\n');
    send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    stdin.end();
    const handle = await serveStdio({
      stdin,
      stdout,
      log: (line) => logged.push(line),
      hooks: { sessionOpened: () => void opened++ },
      context: () => Promise.reject(new Error('no catalogue needed')),
    });
    await handle.closed;
    const messages = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: number; result?: { protocolVersion?: string; tools?: unknown[] }; error?: { code: number } });
    assert.deepEqual(messages.map((m) => m.id).sort(), [1, 2, 3, 4], out);
    assert.equal(messages.find((m) => m.id === 1)?.result?.protocolVersion, '2025-06-18');
    assert.equal(messages.find((m) => m.id === 2)?.result?.tools?.length, 7);
    assert.equal(messages.find((m) => m.id === 3)?.error?.code, -32602);
    assert.equal(opened, 1, 'the SDK saw initialize and notifications/initialized');
    assert.deepEqual(logged, [], 'no early answer differed from the SDK');
  });

  it('answers initialize and tools/list before the SDK session is connected', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let connected = false;
    const answeredWhileConnecting: number[] = [];
    stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const id = (JSON.parse(line) as { id?: number }).id;
        if (!connected && typeof id === 'number') answeredWhileConnecting.push(id);
      }
    });
    stdin.write(`${JSON.stringify(initialize(1, LATEST_PROTOCOL_VERSION))}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    const handle = await serveStdio({ stdin, stdout, context: () => Promise.reject(new Error('unused')) });
    connected = true;
    assert.deepEqual(answeredWhileConnecting, [1, 2]);
    stdin.end();
    await handle.closed;
  });
});
