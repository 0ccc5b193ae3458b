// search.vocabulary end to end: a spawned `svc serve` over stdio, a real MCP client, real files.
// With `wordnet` a word no endpoint uses finds the endpoint that says its synonym; without, it does not.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SVC_BIN, call, nodeArgs, textOf } from '../mcp/support.ts';
import { testCache } from '../support/cache.ts';

const SPEC = `openapi: 3.0.3
info: { title: Ledger, version: "1" }
servers: [{ url: "http://127.0.0.1:9/" }]
paths:
  /bills/{id}:
    get:
      summary: Get a bill
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { "200": { description: ok } }
  /payments:
    get:
      summary: List payments
      responses: { "200": { description: ok } }
`;

async function withDaemon(vocabulary: string, fn: (client: Client) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-vocabulary-'));
  await writeFile(join(dir, 'ledger.yaml'), SPEC);
  const configFile = join(dir, 'svc.yaml');
  await writeFile(configFile, `search:\n  vocabulary: ${vocabulary}\nspecs:\n  - ${JSON.stringify(join(dir, 'ledger.yaml'))}\n`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs(), SVC_BIN, 'serve', '--config', configFile],
    env: { ...(process.env as Record<string, string>), ...testCache(dir).env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-vocabulary', version: '1.0.0' });
  try {
    await client.connect(transport);
    // The catalogue is in once a word it holds is found.
    assert.match(textOf(await call(client, 'search', { query: 'payments' })), /ledger:GET:\/payments/);
    await fn(client);
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('search.vocabulary in a running daemon', () => {
  it('wordnet: "invoice" finds the bill once WordNet has loaded in the background', async () => {
    await withDaemon('wordnet', async (client) => {
      const deadline = Date.now() + 20_000;
      let text = '';
      while (Date.now() < deadline) {
        text = textOf(await call(client, 'search', { query: 'invoice' }));
        if (/ledger:GET:\/bills\/\{id\}/.test(text)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(text, /ledger:GET:\/bills\/\{id\} - Get a bill/);
    });
  });

  it('none: "invoice" finds nothing', async () => {
    await withDaemon('none', async (client) => {
      assert.doesNotMatch(textOf(await call(client, 'search', { query: 'invoice' })), /bills/);
    });
  });
});
