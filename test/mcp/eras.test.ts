// Both protocol eras against one running daemon: a v2 SDK client pinned to 2026-07-28 (no fallback)
// and a 1.x SDK client (2025-11-25), over HTTP (/mcp, and /sse for 1.x) and over stdio. Each
// discovers (or initializes), lists the tools, calls every tool against a real loopback API, and
// confirms a write: through input_required for 2026-07-28, through elicitation for 2025-11-25.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { countTokens } from 'gpt-tokenizer';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SVC_BIN, nodeArgs, spawnHttp, stateHome, workspace, type Workspace } from './support.ts';

const PINNED = { versionNegotiation: { mode: { pin: '2026-07-28' as const } }, capabilities: { elicitation: { form: {} } } };
const TOOL_NAMES = ['search', 'endpoint_by_spec', 'endpoint_by_collection', 'endpoint_by_tag', 'endpoint_by_id', 'inspect', 'invoke'];

/** What both clients offer the tests: list, call, and the questions the person was asked. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}
interface ToolResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}
const text = (r: unknown): string => (r as ToolResult).content.map((c) => c.text ?? '').join('\n');

function modernClient(asked: string[]): ModernClient {
  const client = new ModernClient({ name: 'eras-2026', version: '1.0.0' }, PINNED);
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  return client;
}

function legacyClient(asked: string[]): LegacyClient {
  const client = new LegacyClient({ name: 'eras-2025', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  return client;
}

describe('both protocol eras, one daemon', () => {
  let api: Server;
  let seen: string[];
  let ws: Workspace;
  let svc: Awaited<ReturnType<typeof spawnHttp>>;

  before(async () => {
    api = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(`${req.method} ${req.url}`);
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, name: 'Mara' }));
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    ws = await workspace({ zoo: `baseUrl: http://127.0.0.1:${(api.address() as AddressInfo).port}/zoo\nwrites: confirm` });
    svc = await spawnHttp(ws.configFile);
  });
  beforeEach(() => {
    seen = [];
  });
  after(async () => {
    await svc?.stop();
    await new Promise<void>((resolve) => api.close(() => resolve()));
    await ws?.cleanup();
  });

  /** tools/list, every tool, and a confirmed write, the same for every client and transport. */
  async function exercise(client: AnyClient, asked: string[]): Promise<void> {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    const calls: [string, Record<string, unknown>, RegExp][] = [
      ['search', { query: 'add an animal' }, /^zoo:POST:\/animals - Add an animal$/m],
      ['endpoint_by_spec', { spec: 'weather' }, /weather:GET:\/forecast/],
      ['endpoint_by_collection', { collection: 'park' }, /zoo:GET:\/animals/],
      ['endpoint_by_tag', { tag: 'keepers' }, /zoo:POST:\/animals\/\{animalId\}\/feed/],
      ['endpoint_by_id', { endpointId: 'zoo:GET:/keepers' }, /GET \/keepers/],
      ['inspect', { endpointId: 'zoo:GET:/animals/{animalId}' }, /^GET \/animals\/\{animalId\}$/m],
      ['invoke', { endpointId: 'zoo:GET:/animals/{animalId}', params: { animalId: 7 } }, /Mara/],
    ];
    for (const [name, args, expected] of calls) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal((result as ToolResult).isError, undefined, `${name}: ${text(result)}`);
      assert.match(text(result), expected, name);
    }
    assert.deepEqual(seen, ['GET /zoo/animals/7']);
    const write = await client.callTool({ name: 'invoke', arguments: { endpointId: 'zoo:DELETE:/animals/{animalId}', params: { animalId: 3 } } });
    assert.equal((write as ToolResult).isError, undefined, text(write));
    assert.equal(asked.length, 1, 'the person was asked once');
    assert.match(asked[0]!, /DELETE/);
    assert.deepEqual(seen, ['GET /zoo/animals/7', 'DELETE /zoo/animals/3'], 'the write was sent once, after the answer');
  }

  it('2026-07-28 client over HTTP: discover, tools, a write confirmed through input_required', async () => {
    const asked: string[] = [];
    const client = modernClient(asked);
    await client.connect(new ModernHttp(new URL(`${svc.url}/mcp`), { requestInit: { headers: svc.headers } }));
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      assert.equal(client.getServerVersion()?.name, 'svc');
      assert.match(client.getInstructions() ?? '', /svc serves a catalogue/);
      assert.ok(client.getServerCapabilities()?.tools, 'discover names the tools capability');
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });

  it('2025-11-25 client over Streamable HTTP: tools and a write confirmed through elicitation', async () => {
    const asked: string[] = [];
    const client = legacyClient(asked);
    await client.connect(new LegacyHttp(new URL(`${svc.url}/mcp`), { requestInit: { headers: svc.headers } }));
    try {
      assert.equal(client.getServerVersion()?.name, 'svc');
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });

  it('2025-11-25 client over the legacy SSE transport', async () => {
    const asked: string[] = [];
    const client = legacyClient(asked);
    const headers = svc.headers;
    await client.connect(
      new SSEClientTransport(new URL(`${svc.url}/sse`), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
      }),
    );
    try {
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });

  it('tools/list and server/discover carry a cache hint on 2026-07-28, and the tool list stays under 1,200 tokens', async () => {
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    for (const method of ['tools/list', 'server/discover']) {
      const res = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { ...svc.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: envelope } }),
      });
      assert.equal(res.status, 200, method);
      const body = await res.text();
      const json = JSON.parse(body.startsWith('{') ? body : /^data: (.*)$/m.exec(body)![1]!) as { result: { ttlMs?: number; cacheScope?: string; resultType?: string } };
      assert.equal(json.result.ttlMs, 3_600_000, method);
      assert.equal(json.result.cacheScope, 'public', method);
      if (method === 'tools/list') {
        // What the model reads: the tool definitions (the protocol's own fields, resultType, ttlMs,
        // cacheScope and the server's name in _meta, stay with the client).
        const tokens = countTokens(JSON.stringify({ tools: (json.result as { tools?: unknown }).tools }));
        assert.ok(tokens < 1200, `the 2026-07-28 tools/list is ${tokens} tokens`);
      }
    }
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    it(`${era} client over stdio: tools and a confirmed write`, async () => {
      const asked: string[] = [];
      const params = { command: process.execPath, args: [...nodeArgs(), SVC_BIN, 'serve', '--config', ws.configFile], env: { ...(process.env as Record<string, string>), ...ws.env, XDG_STATE_HOME: stateHome(ws.configFile) }, stderr: 'ignore' as const };
      if (era === '2026-07-28') {
        const client = modernClient(asked);
        await client.connect(new ModernStdio(params));
        try {
          assert.equal(client.getProtocolEra(), 'modern');
          assert.match(client.getInstructions() ?? '', /svc serves a catalogue/);
          await exercise(client, asked);
        } finally {
          await client.close();
        }
      } else {
        const client = legacyClient(asked);
        await client.connect(new LegacyStdio(params));
        try {
          await exercise(client, asked);
        } finally {
          await client.close();
        }
      }
    });
  }
});
