// MCP over stdin/stdout. Nothing else may write to stdout in this mode: logs go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { createMcpServer, type McpServerOptions } from './server.ts';

export interface StdioOptions extends McpServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

export interface StdioHandle {
  /** Resolves when the client hangs up (stdin ends) or `close` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(options: StdioOptions): Promise<StdioHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = createMcpServer(options);
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      stdin.off('end', onEnd);
      await server.close().catch(() => {});
      resolveClosed();
    })());
  // The SDK transport does not watch for end of input: a client that exits must end the session.
  const onEnd = (): void => void close();
  stdin.on('end', onEnd);
  transport.onclose = () => void close();
  await server.connect(transport);
  return { closed, close };
}
