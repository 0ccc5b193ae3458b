// MCP over stdin/stdout, both protocol eras: the SDK's serveStdio picks the era from the client's
// opening (an `initialize` for 2025-11-25, `server/discover` or an enveloped request for 2026-07-28)
// and pins one server instance to the connection. Nothing else may write to stdout in this mode:
// logs go to stderr. The transport is ours so that a client that writes its requests and then
// closes stdin (a pipe, a script) still gets every answer before the server goes away.
// First: zod's settings, before the SDK's modules below build their schemas.
import './zod-config.ts';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { McpServerOptions } from './server.ts';

export interface StdioOptions extends McpServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** How long requests still running when stdin ends may take to answer (default 10 s). */
  readonly drainMs?: number;
  readonly log?: (line: string) => void;
}

export interface StdioHandle {
  /** Resolves when the client hung up (stdin ended) or `close` was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** As the SDK's stdio ReadBuffer: a line longer than this ends the session. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;

type RequestId = string | number;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } =>
  !('method' in m) &&
  'id' in m &&
  // Stryker disable next-line ConditionalExpression: a message whose id key holds undefined deletes nothing from pending, and drained() after the last answer only starts the close again (it starts once)
  m.id !== undefined;
const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId; method: string } => 'method' in m && 'id' in m;

export async function serveStdio(options: StdioOptions): Promise<StdioHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const [{ serveStdio: sdkServeStdio }, { deserializeMessage, serializeMessage }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('@modelcontextprotocol/server'),
    import('./server.ts'),
  ]);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const pending = new Set<RequestId>();
  let drained: (() => void) | undefined;
  let buffer: Buffer | undefined;

  const transport: Transport = {
    async start() {
      stdin.on('data', onData);
      stdin.on('error', onError);
      stdin.on('end', onEnd);
    },
    async send(message: JSONRPCMessage) {
      if (!stdout.write(serializeMessage(message))) await new Promise<void>((resolve) => stdout.once('drain', resolve));
      if (!isResponse(message)) return;
      pending.delete(message.id);
      // Stryker disable next-line OptionalChaining: the answer is written before; a send that then fails is reported to the SDK instance's own onerror, which nothing outside hears
      if (pending.size === 0) drained?.();
    },
    async close() {
      stdin.off('data', onData);
      stdin.off('error', onError);
      stdin.off('end', onEnd);
      // Only pause stdin if nobody else reads it.
      if (stdin.listenerCount('data') === 0) stdin.pause();
      buffer = undefined;
      const onclose = transport.onclose;
      transport.onclose = undefined;
      onclose?.();
      resolveClosed();
    },
  };

  const deliver = (line: string): void => {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      // Stryker disable next-line OptionalChaining: the SDK sets onmessage and onerror before start() adds the listeners that lead here, and close() removes those listeners
      transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (isRequest(message)) {
      pending.add(message.id);
    }
    // Stryker disable next-line OptionalChaining: the SDK sets onmessage and onerror before start() adds the listeners that lead here, and close() removes those listeners
    transport.onmessage?.(message);
  };
  function onData(chunk: Buffer): void {
    buffer = buffer ? Buffer.concat([buffer, chunk]) : chunk;
    let newline: number;
    // Stryker disable next-line ConditionalExpression: buffer is undefined only after transport.close(), which the SDK and close() reach only after an await, never inside this loop
    while (buffer !== undefined && (newline = buffer.indexOf(NEWLINE)) !== -1) {
      // Stryker disable next-line Regex: \r is JSON whitespace and never stands raw inside a JSON string, so which \r goes changes no message
      const line = buffer.toString('utf8', 0, newline).replace(/\r$/, '');
      buffer = buffer.subarray(newline + 1);
      if (line.trim() !== '') deliver(line);
    }
    // Stryker disable next-line ConditionalExpression: as in the loop above, buffer is undefined here only after transport.close(), which never runs synchronously inside onData
    if (buffer !== undefined && buffer.length > MAX_LINE_BYTES) {
      buffer = undefined;
      // Stryker disable next-line OptionalChaining: the SDK sets onmessage and onerror before start() adds the listeners that lead here, and close() removes those listeners
      transport.onerror?.(new Error(`stdin: a message longer than ${MAX_LINE_BYTES} bytes; closing`));
      void close();
    }
  }
  function onError(error: Error): void {
    // Stryker disable next-line OptionalChaining: the SDK sets onmessage and onerror before start() adds the listeners that lead here, and close() removes those listeners
    transport.onerror?.(error);
  }
  // The client hung up: answer what is running (up to drainMs), then close.
  function onEnd(): void {
    if (pending.size === 0) {
      void close();
      return;
    }
    const timer = setTimeout(() => void close(), options.drainMs ?? 10_000);
    drained = () => {
      clearTimeout(timer);
      void close();
    };
  }

  const handle = sdkServeStdio(() => createMcpServer(options, { connection: true }), {
    // Stryker disable next-line StringLiteral: the SDK's serveStdio serves the 2025 era for any legacy mode but 'reject'
    legacy: 'serve',
    transport,
    // Stryker disable next-line OptionalChaining: the SDK calls onerror inside try/catch, so a missing log throws nothing out
    onerror: (error) => options.log?.(`stdio: ${error.message}`),
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await handle.close().catch(() => {});
      await transport.close();
    })());
  return { closed, close };
}
