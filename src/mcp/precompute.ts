// The answers the real SDK server gives to initialize and tools/list, for the stdio front
// (early.ts) to give before the SDK is loaded on the next start. A stdio daemon computes them once
// its SDK is loaded and caches them (stdio.ts, early-cache.ts); the tests compare them with the
// SDK's own answers for every protocol version.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { EarlyAnswers } from './early.ts';
import { createMcpServer } from './server.ts';

type Json = Record<string, unknown>;

/** The in-memory exchange takes a few milliseconds; this only keeps a broken server from hanging the caller. */
const ANSWER_TIMEOUT_MS = 10_000;

/** Sends `requests` to a fresh SDK server (our tools, no catalogue) and returns its answers by id. */
export async function askSdkServer(requests: readonly JSONRPCMessage[]): Promise<Map<string | number, JSONRPCMessage>> {
  const server = createMcpServer({ context: () => Promise.reject(new Error('no catalogue while precomputing')) });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<string | number, JSONRPCMessage>();
  const expected = requests.filter((r) => 'id' in r).length;
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve, reject) => {
    // Only responses count (a notification from the server must not end the wait early).
    client.onmessage = (message) => {
      if ('id' in message && !('method' in message)) answers.set(message.id as string | number, message);
      if (answers.size === expected) resolve();
    };
    timer = setTimeout(() => reject(new Error(`the SDK server answered ${answers.size} of ${expected} requests in ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
  });
  try {
    await server.connect(serverSide);
    await client.start();
    for (const request of requests) await client.send(request);
    await done;
    return answers;
  } finally {
    clearTimeout(timer);
    await server.close();
  }
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
