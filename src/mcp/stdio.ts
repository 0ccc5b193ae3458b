// MCP over stdin/stdout. Nothing else may write to stdout in this mode: logs go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { createMcpServer, type McpServerOptions } from './server.ts';

export interface StdioOptions extends McpServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** How long requests still running when stdin ends may take to answer (default 10 s). */
  readonly drainMs?: number;
}

export interface StdioHandle {
  /** Resolves when the client hangs up (stdin ends) or `close` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

type RequestId = string | number;

export async function serveStdio(options: StdioOptions): Promise<StdioHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = createMcpServer(options);
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  let closing: Promise<void> | undefined;
  let started = false;
  const close = (): Promise<void> => {
    // Set before anything runs: server.close() fires transport.onclose, which lands here again.
    if (closing) return closing;
    let finish!: () => void;
    closing = new Promise<void>((resolve) => (finish = resolve));
    if (!started) {
      started = true;
      stdin.off('end', onEnd);
      void server
        .close()
        .catch(() => {})
        .then(() => {
          resolveClosed();
          finish();
        });
    }
    return closing;
  };

  // Requests still being answered: a client that writes its requests and then closes stdin
  // (a pipe, a test, a script) still gets every answer before the server goes away.
  const pending = new Set<RequestId>();
  let drained: (() => void) | undefined;
  const onEnd = (): void => {
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
  // The SDK transport does not watch for end of input: a client that exits must end the session.
  stdin.on('end', onEnd);

  await server.connect(transport);
  // Wrap after connect: the protocol layer installs its own onmessage and onclose there.
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      pending.delete(message.id);
      if (pending.size === 0) drained?.();
    }
  };
  const previousOnClose = transport.onclose;
  transport.onclose = () => {
    previousOnClose?.();
    void close();
  };
  return { closed, close };
}
