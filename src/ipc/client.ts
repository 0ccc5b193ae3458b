// The CLI's side of the IPC socket. Loaded by `svc update`, `svc status`, ...: it must stay light,
// so it imports nothing from the catalogue, the importers or the MCP adapter.
import { unlinkSync } from 'node:fs';
import { createConnection } from 'node:net';
import { SvcError } from '../model/errors.ts';
import { LineDecoder, encodeLine } from './codec.ts';
import { listSockets, verifySocketOwner, verifyTargetDir, type SocketTarget } from './paths.ts';
import {
  MAX_REPLY_BYTES,
  PROTOCOL_VERSION,
  type ErrorBody,
  type Method,
  type PingResult,
  type ResultByMethod,
  type UpdateProgress,
} from './protocol.ts';

/** The daemon answered with an error reply. */
export class IpcRemoteError extends SvcError {
  readonly socket: string;
  constructor(socket: string, body: ErrorBody) {
    // Stryker disable next-line ConditionalExpression: SvcError keeps no hint for { hint: undefined }, the same as for no options
    super(body.code, body.message, body.hint !== undefined ? { hint: body.hint } : undefined);
    this.socket = socket;
  }
}

/** No answer: nothing listens (stale socket), the socket is missing, or the daemon did not reply in time. */
export class IpcConnectError extends SvcError {
  readonly socket: string;
  /** `ECONNREFUSED`, `ENOENT`, `timeout`, `closed`, ... */
  readonly reason: string;
  constructor(socket: string, reason: string, message: string) {
    super('ipc-unreachable', `${socket}: ${message}`);
    this.socket = socket;
    this.reason = reason;
  }
}

export interface RequestOptions {
  /** Give up (and reject with IpcConnectError `timeout`) after this long without a reply. */
  readonly timeoutMs?: number;
  readonly onProgress?: (p: UpdateProgress) => void;
  readonly maxReplyBytes?: number;
  /**
   * The uid the socket must belong to; default this process's user. Only a caller that started the
   * daemon as another user itself (a test harness running as root) names that user here.
   */
  readonly socketOwner?: number;
}

let nextId = 1;

/** Sends one request on a fresh connection and resolves to the daemon's result. */
export function request<M extends Method>(socketPath: string, method: M, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<ResultByMethod[M]> {
  // Stryker disable next-line UpdateOperator: ids only need to differ between the requests of this process, which counting down does too
  const id = nextId++;
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    try {
      // Another user's socket could answer anything (and the CLI prints answers): never talk to one.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: verifySocketOwner takes an undefined owner as this process's uid, the same value
      verifySocketOwner(socketPath, options.socketOwner ?? (typeof process.getuid === 'function' ? process.getuid() : undefined));
    } catch (error) {
      reject(error as Error);
      return;
    }
    const socket = createConnection(socketPath);
    const decoder = new LineDecoder(options.maxReplyBytes ?? MAX_REPLY_BYTES);
    let settled = false;
    const finish = (error: Error | undefined, result?: unknown): void => {
      // Stryker disable next-line ConditionalExpression: a second call only repeats clearTimeout and destroy and settles an already settled promise
      if (settled) return;
      // Stryker disable next-line BooleanLiteral: a second call only repeats clearTimeout and destroy and settles an already settled promise
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(result as ResultByMethod[M]);
    };
    const timer = setTimeout(() => finish(new IpcConnectError(socketPath, 'timeout', `no reply to ${method} within ${timeoutMs} ms`)), timeoutMs);
    socket.on('connect', () => socket.write(encodeLine({ v: PROTOCOL_VERSION, id, method, params })));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // Stryker disable next-line StringLiteral: a socket's errors always carry a code; the fallback is for one that would not
      const reason = error.code ?? 'error';
      const message =
        reason === 'ECONNREFUSED' ? 'no daemon listens on this socket (stale)'
        : reason === 'ENOENT' ? 'no such socket'
        : error.message;
      finish(new IpcConnectError(socketPath, reason, message));
    });
    socket.on('close', () => finish(new IpcConnectError(socketPath, 'closed', `connection closed before the reply to ${method}`)));
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        if (frame.kind !== 'message') {
          finish(new IpcConnectError(socketPath, 'bad-reply', frame.kind !== 'bad-json' ? `reply over ${decoder.maxBytes} bytes` : `reply is not JSON: ${frame.message}`));
          return;
        }
        const msg = frame.value as Record<string, unknown>;
        if (msg['id'] !== id && msg['id'] !== null) continue;
        if ('progress' in msg) {
          options.onProgress?.(msg['progress'] as UpdateProgress);
          continue;
        }
        if (msg['ok'] === true) finish(undefined, msg['result']);
        else finish(new IpcRemoteError(socketPath, (msg['error'] as ErrorBody | undefined) ?? { code: 'bad-reply', message: 'error reply without an error' }));
        return;
      }
    });
  });
}

export type ProbeResult =
  | { readonly kind: 'live'; readonly socket: string; readonly ping: PingResult }
  /** Nothing listens: the file is left over from a daemon that died. */
  | { readonly kind: 'stale'; readonly socket: string; readonly reason: string }
  /** Something listens but did not answer a ping properly: leave it alone. */
  | { readonly kind: 'unresponsive'; readonly socket: string; readonly reason: string };

/** Pings one socket to tell live daemons from leftovers. */
export async function probe(socketPath: string, timeoutMs = 2000): Promise<ProbeResult> {
  try {
    const ping = await request(socketPath, 'ping', {}, { timeoutMs });
    return { kind: 'live', socket: socketPath, ping };
  } catch (error) {
    if (error instanceof IpcConnectError && (error.reason === 'ECONNREFUSED' || error.reason === 'ENOENT')) {
      return { kind: 'stale', socket: socketPath, reason: error.reason };
    }
    return { kind: 'unresponsive', socket: socketPath, reason: error instanceof Error ? error.message : String(error) };
  }
}

export interface Discovery {
  readonly live: readonly Extract<ProbeResult, { kind: 'live' }>[];
  readonly unresponsive: readonly Extract<ProbeResult, { kind: 'unresponsive' }>[];
  /** Socket files of dead daemons that were removed. */
  readonly removed: readonly string[];
}

/** Finds every daemon serving a target; removes socket files nobody listens on any more. */
export async function discover(target: SocketTarget, timeoutMs = 2000): Promise<Discovery> {
  // Throws when the runtime folder is not private: its sockets could be anybody's.
  verifyTargetDir(target);
  const results = await Promise.all(listSockets(target).map((p) => probe(p, timeoutMs)));
  const removed: string[] = [];
  for (const r of results) {
    // ENOENT means the file is already gone; only refused connections leave a file to clean.
    // Stryker disable next-line LogicalOperator: a stale ENOENT socket is already gone, so unlinking it fails and nothing is counted
    if (r.kind === 'stale' && r.reason === 'ECONNREFUSED' && !r.socket.startsWith('\\\\')) {
      try {
        unlinkSync(r.socket);
        removed.push(r.socket);
      } catch {
        // Someone else cleaned it.
      }
    }
  }
  return {
    live: results.filter((r): r is Extract<ProbeResult, { kind: 'live' }> => r.kind === 'live'),
    unresponsive: results.filter((r): r is Extract<ProbeResult, { kind: 'unresponsive' }> => r.kind === 'unresponsive'),
    removed,
  };
}

export type Answer<M extends Method> =
  | { readonly socket: string; readonly pid: number; readonly ok: true; readonly result: ResultByMethod[M] }
  | { readonly socket: string; readonly pid: number; readonly ok: false; readonly error: SvcError };

/** Sends the same request to every live daemon of a target, in parallel. */
export async function requestAll<M extends Method>(
  target: SocketTarget,
  method: M,
  params: Record<string, unknown> = {},
  options: RequestOptions & { readonly probeTimeoutMs?: number } = {},
): Promise<{ discovery: Discovery; answers: Answer<M>[] }> {
  const discovery = await discover(target, options.probeTimeoutMs);
  const answers = await Promise.all(
    discovery.live.map(async (d): Promise<Answer<M>> => {
      try {
        return { socket: d.socket, pid: d.ping.pid, ok: true, result: await request(d.socket, method, params, options) };
      } catch (error) {
        // Stryker disable next-line StringLiteral: request rejects only with SvcErrors (IpcConnectError, IpcRemoteError, UnsafeSocketPathError); the wrap is for one that would not
        const err = error instanceof SvcError ? error : new SvcError('internal', error instanceof Error ? error.message : String(error));
        return { socket: d.socket, pid: d.ping.pid, ok: false, error: err };
      }
    }),
  );
  return { discovery, answers };
}
