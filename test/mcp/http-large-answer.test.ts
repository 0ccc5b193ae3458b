// A 2026-07-28 answer larger than the socket takes at once (a tool's text of 4 MB), in this process:
// it reaches the client whole, written as the client reads it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { startHttp, MCP_PATH } from '../../src/mcp/index.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const SIZE = 4 << 20;

const big: ToolDefinition = {
  name: 'big',
  description: `answers ${SIZE} characters`,
  inputShape: {},
  annotations: { title: 'Big', readOnlyHint: true, openWorldHint: false },
  handler: async () => ({ text: 'x'.repeat(SIZE) }),
};

describe('HTTP, 2026-07-28 era, a large answer', { timeout: HANG_MS }, () => {
  it('a tool answer of 4 MB reaches the client whole', { timeout: HANG_MS }, async () => {
    const http = await startHttp({ host: '127.0.0.1', port: 0, auth: { kind: 'none' }, maxBodyBytes: 1 << 20, context: () => CONTEXT, tools: [big] });
    const client = new ModernClient({ name: 'large', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' as const } } });
    try {
      await client.connect(new ModernHttp(new URL(`${http.url}${MCP_PATH}`)));
      const result = (await client.callTool({ name: 'big', arguments: {} })) as { content: { text: string }[] };
      assert.equal(result.content[0]!.text.length, SIZE);
    } finally {
      await client.close();
      await http.close();
    }
  });
});
