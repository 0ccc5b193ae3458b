// MCP over stdin/stdout. Nothing else may write to stdout in this mode: logs go to stderr.
//
// stdin is read from the first moment, before the MCP SDK is loaded: initialize, tools/list and
// ping are answered at once from the precomputed answers (early.ts), and every line is kept. When
// the SDK server is ready, the kept lines go to it in order (so it knows the client and its
// capabilities); its own answers to requests already answered are dropped. This module loads
// nothing heavy itself: the SDK comes in with import() below.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { earlyResult, type RequestId } from './early.ts';
import type { McpServerOptions } from './server.ts';

export interface StdioOptions extends McpServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** How long requests still running when stdin ends may take to answer (default 10 s). */
  readonly drainMs?: number;
  /** Where to report that an early answer differed from the SDK's (early-answers.json is stale). */
  readonly log?: (line: string) => void;
}

export interface StdioHandle {
  /** Resolves when the client hangs up (stdin ends) or `close` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Loading the SDK takes a few hundred milliseconds in which Node reads no input (module loading
 * is synchronous), so the first exchange is let finish before: the SDK is loaded once tools/list
 * was answered early, a request only the SDK can answer arrives, stdin ends, input stayed quiet
 * for HANDSHAKE_QUIET_MS (except while the client owes the initialized notification that must
 * follow initialize: a busy client may take a while to send it), or HANDSHAKE_MAX_MS passed.
 */
const HANDSHAKE_QUIET_MS = 30;
const HANDSHAKE_MAX_MS = 500;

/** As the SDK's stdio ReadBuffer: a line longer than this ends the session. */
const MAX_BUFFER_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;

const serialize = (message: unknown): string => `${JSON.stringify(message)}\n`;
const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } => !('method' in message) && 'id' in message && message.id !== undefined;
const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } => 'method' in message && 'id' in message;

export async function serveStdio(options: StdioOptions): Promise<StdioHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;

  // Read from now on. Until the SDK is connected, lines are kept in `queued`.
  let buffer: Buffer | undefined;
  let deliver: ((line: string) => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  const queued: string[] = [];
  /** Requests answered early -> the result sent, to check the SDK's own answer against. */
  const answeredEarly = new Map<RequestId, string>();

  let lastInput = performance.now();
  let owesInitialized = false;
  let needSdk: (() => void) | undefined;
  const answerEarly = (line: string): void => {
    lastInput = performance.now();
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return; // the SDK reports it once connected
    }
    if ((message as { method?: unknown } | null)?.method === 'notifications/initialized') owesInitialized = false;
    const early = earlyResult(message);
    if (!early || answeredEarly.has(early.id)) {
      if (typeof message === 'object' && message !== null && 'id' in message && 'method' in message) needSdk?.();
      return;
    }
    const result = JSON.stringify(early.result);
    answeredEarly.set(early.id, result);
    stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(early.id)},"result":${result}}\n`);
    const method = (message as { method?: unknown }).method;
    if (method === 'initialize') owesInitialized = true;
    if (method === 'tools/list') needSdk?.();
  };

  const onData = (chunk: Buffer): void => {
    buffer = buffer ? Buffer.concat([buffer, chunk]) : chunk;
    let newline: number;
    while (buffer !== undefined && (newline = buffer.indexOf(NEWLINE)) !== -1) {
      const line = buffer.toString('utf8', 0, newline).replace(/\r$/, '');
      buffer = buffer.subarray(newline + 1);
      if (deliver) deliver(line);
      else {
        answerEarly(line);
        queued.push(line);
      }
    }
    if (buffer !== undefined && buffer.length > MAX_BUFFER_BYTES) {
      buffer = undefined;
      const error = new Error(`ReadBuffer exceeded maximum size of ${MAX_BUFFER_BYTES} bytes`);
      if (failed) failed(error);
      else stdinError = error;
    }
  };
  let stdinError: Error | undefined;
  const onError = (error: Error): void => {
    if (failed) failed(error);
    else stdinError ??= error;
  };
  let ended = false;
  let onEnd = (): void => {
    ended = true;
  };
  const endListener = (): void => onEnd();
  stdin.on('data', onData);
  stdin.on('error', onError);
  stdin.on('end', endListener);

  const startedAt = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      if (ended || (!owesInitialized && now - lastInput >= HANDSHAKE_QUIET_MS) || now - startedAt >= HANDSHAKE_MAX_MS) go();
    }, HANDSHAKE_QUIET_MS / 3);
    const go = (): void => {
      clearInterval(timer);
      needSdk = undefined;
      resolve();
    };
    needSdk = go;
  });

  const [{ createMcpServer }, { deserializeMessage }] = await Promise.all([import('./server.ts'), import('@modelcontextprotocol/sdk/shared/stdio.js')]);
  const server = createMcpServer(options);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    // Set before anything runs: server.close() closes the transport, which lands here again.
    (closing ??= (async () => {
      stdin.off('end', endListener);
      await server.close().catch(() => {});
      resolveClosed();
    })());

  // Requests still being answered: a client that writes its requests and then closes stdin
  // (a pipe, a test, a script) still gets every answer before the server goes away.
  const pending = new Set<RequestId>();
  let drained: (() => void) | undefined;

  const transport: Transport = {
    async start() {},
    async send(message: JSONRPCMessage) {
      if (isResponse(message)) {
        const early = answeredEarly.get(message.id);
        if (early !== undefined) {
          answeredEarly.delete(message.id);
          const sdk = 'result' in message ? JSON.stringify(message.result) : undefined;
          if (sdk !== early) options.log?.(`the early answer to request ${JSON.stringify(message.id)} differs from the MCP SDK's; run \`npm run gen:mcp\``);
          return;
        }
      }
      const json = serialize(message);
      if (!stdout.write(json)) await new Promise<void>((resolve) => stdout.once('drain', resolve));
      if (isResponse(message)) {
        pending.delete(message.id);
        if (pending.size === 0) drained?.();
      }
    },
    async close() {
      deliver = undefined;
      stdin.off('data', onData);
      stdin.off('error', onError);
      // Only pause stdin if nobody else reads it.
      if (stdin.listenerCount('data') === 0) stdin.pause();
      buffer = undefined;
      transport.onclose?.();
      void close();
    },
  };

  await server.connect(transport);
  failed = (error) => {
    transport.onerror?.(error);
    void transport.close();
  };
  deliver = (line) => {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (isRequest(message) && !answeredEarly.has(message.id)) pending.add(message.id);
    transport.onmessage?.(message);
  };
  for (const line of queued.splice(0)) deliver?.(line);
  if (stdinError) failed(stdinError);

  // The client hung up: answer what is running (up to drainMs), then close.
  onEnd = () => {
    if (pending.size === 0) {
      void close();
      return;
    }
    const timer = setTimeout(() => void close(), options.drainMs ?? 10_000);
    drained = () => {
      clearTimeout(timer);
      void close();
    };
  };
  if (ended) onEnd();
  return { closed, close };
}
