// MCP over stdin/stdout. Nothing else may write to stdout in this mode: logs go to stderr.
//
// stdin is read from the first moment, before the MCP SDK is loaded: initialize, tools/list and
// ping are answered at once from the answers an earlier run of the same build cached (early.ts,
// early-cache.ts), and every line is kept. When the SDK server is ready, the kept lines go to it in
// order (so it knows the client and its capabilities); its own answers to requests already
// answered are dropped. A start that found no cached answers leaves everything to the SDK and,
// once the SDK is loaded, caches its answers for the next start. This module loads nothing heavy
// itself: the SDK comes in with import() below.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { earlyResult, type EarlyAnswers, type RequestId } from './early.ts';
import { earlyAnswersFile, earlyCacheDir, earlyFingerprint, readEarlyAnswers, writeEarlyAnswers } from './early-cache.ts';
import type { McpServerOptions } from './server.ts';

export interface StdioOptions extends McpServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** How long requests still running when stdin ends may take to answer (default 10 s). */
  readonly drainMs?: number;
  /** Where to report that an early answer differed from the SDK's (the cache is then rewritten). */
  readonly log?: (line: string) => void;
  /**
   * Folder of the cached early answers (default: earlyCacheDir(), in the user's cache folder);
   * null: no early answers and nothing cached.
   */
  readonly cacheDir?: string | null;
  /** Debug lines about the early answers' cache (hit, miss, written, not written); default: `log` when SVC_DEBUG is set. */
  readonly debug?: (line: string) => void;
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
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface EarlyCache {
  readonly dir: string;
  readonly fingerprint: string;
  /** What an earlier run of this build cached; undefined: none usable, the SDK answers this start. */
  readonly answers?: EarlyAnswers;
}

/** This build's cached answers in `dir`, if any. Never throws: without them the SDK answers as usual. */
function lookUpEarlyAnswers(dir: string | undefined, debug: ((line: string) => void) | undefined): EarlyCache | undefined {
  if (dir === undefined) return undefined;
  let fingerprint: string;
  try {
    fingerprint = earlyFingerprint();
  } catch (error) {
    debug?.(`early answers: no build fingerprint (${describe(error)}); the MCP SDK answers`);
    return undefined;
  }
  const found = readEarlyAnswers(dir, fingerprint);
  if ('answers' in found) return { dir, fingerprint, answers: found.answers };
  const file = earlyAnswersFile(dir, fingerprint);
  debug?.(`early answers: ${found.miss === 'missing' ? `none cached in ${file}` : `ignored ${file} (${found.miss})`}; the MCP SDK answers this start`);
  return { dir, fingerprint };
}

export async function serveStdio(options: StdioOptions): Promise<StdioHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const debug = options.debug ?? (process.env['SVC_DEBUG'] ? options.log : undefined);
  const cache = lookUpEarlyAnswers(options.cacheDir === undefined ? earlyCacheDir() : (options.cacheDir ?? undefined), debug);
  const answers = cache?.answers;

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
    const early = answers ? earlyResult(message, answers) : undefined;
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

  // Without early answers there is nothing to wait for: the SDK answers, the sooner the better.
  const startedAt = performance.now();
  if (answers) await new Promise<void>((resolve) => {
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

  // The SDK's answers for the next start of this build, when this one had none (or stale ones).
  let caching: Promise<void> | undefined;
  const cacheAnswers = (): Promise<void> =>
    (caching ??= (async () => {
      if (!cache) return;
      try {
        const { computeEarlyAnswers } = await import('./precompute.ts');
        debug?.(`early answers: cached in ${writeEarlyAnswers(cache.dir, cache.fingerprint, await computeEarlyAnswers())}`);
      } catch (error) {
        debug?.(`early answers: not cached (${describe(error)})`);
      }
    })());

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
          if (sdk !== early) {
            options.log?.(`the cached early answer to request ${JSON.stringify(message.id)} differs from the MCP SDK's; caching the SDK's answers`);
            void cacheAnswers();
          }
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
  if (answers) debug?.(`early answers: answered ${answeredEarly.size ? [...answeredEarly.keys()].map((id) => JSON.stringify(id)).join(', ') : 'nothing'} before the MCP SDK loaded`);
  else void cacheAnswers();
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
