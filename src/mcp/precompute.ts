// Writes early-answers.json: the answers the real SDK server gives to initialize and tools/list,
// so the stdio front (early.ts) can give them before the SDK is loaded.
//   npm run gen:mcp     after changing a tool, the instructions or the MCP SDK version
// test/mcp/early-answers.test.ts runs `computeEarlyAnswers` and fails when the file is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { EARLY_ANSWERS_FILE, type EarlyAnswers } from './early.ts';
import { TOOLS } from '../tools/index.ts';
import { createMcpServer } from './server.ts';

type Json = Record<string, unknown>;

/** Sends `requests` to a fresh SDK server (our tools, no catalogue) and returns its answers by id. */
export async function askSdkServer(requests: readonly JSONRPCMessage[]): Promise<Map<string | number, JSONRPCMessage>> {
  // A copy of TOOLS: the server then lists them through describeTools, not from the file being written.
  const server = createMcpServer({ tools: [...TOOLS], context: () => Promise.reject(new Error('no catalogue while precomputing')) });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<string | number, JSONRPCMessage>();
  let expected = requests.filter((r) => 'id' in r).length;
  const done = new Promise<void>((resolve) => {
    client.onmessage = (message) => {
      if ('id' in message && !('method' in message)) answers.set(message.id as string | number, message);
      if (--expected === 0) resolve();
    };
  });
  await server.connect(serverSide);
  await client.start();
  for (const request of requests) await client.send(request);
  await done;
  await server.close();
  return answers;
}

export async function computeEarlyAnswers(): Promise<EarlyAnswers> {
  const answers = await askSdkServer([
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'precompute', version: '1' } } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]);
  const init = (answers.get(1) as { result?: Json } | undefined)?.result;
  const list = (answers.get(2) as { result?: { tools?: Json[] } } | undefined)?.result;
  if (!init || !list?.tools) throw new Error('the SDK server did not answer initialize and tools/list');
  return {
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: init['capabilities'] as Json,
    ...(typeof init['instructions'] === 'string' ? { instructions: init['instructions'] } : {}),
    tools: list.tools,
  };
}

export function serializeEarlyAnswers(answers: EarlyAnswers): string {
  return `${JSON.stringify(answers, null, 1)}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(EARLY_ANSWERS_FILE, serializeEarlyAnswers(await computeEarlyAnswers()));
  process.stderr.write(`wrote ${fileURLToPath(EARLY_ANSWERS_FILE)}\n`);
}
