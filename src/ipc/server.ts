// The daemon's side of the IPC socket. It answers every line with exactly one reply: garbage,
// oversized or unknown messages get an error reply and the connection (and the daemon) keep going.
import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { SvcError } from '../model/errors.ts';
import { LineDecoder, MAX_DISCARD_BYTES, encodeLine, type Frame } from './codec.ts';
import { checkSocketPath, daemonSocketPath, maxSocketPathBytes, preparePrivateSocketDir, type SocketTarget } from './paths.ts';
import { DaemonRunningError, bindingPath, claimPath, cleanStaleSockets, linkIntoPlace, removeSocketFile } from './socket-file.ts';
import {
  MAX_MESSAGE_BYTES,
  METHODS,
  PROTOCOL_VERSION,
  type ErrorBody,
  type Reply,
  type UpdateProgress,
} from './protocol.ts';

/**
 * Open connections kept at most; past it the longest-idle one is closed. Generous on purpose: in a
 * burst of a thousand clients a small cap evicts connections that have not had time to send their
 * request yet (a `svc status` among them). An idle connection costs one descriptor and a few kB.
 */
const MAX_CONNECTIONS = 1024;
/** Requests of one connection handled at once; the CLI sends one per connection. */
const MAX_IN_FLIGHT_PER_CONNECTION = 4;
/** Requests of one connection decoded and waiting; past it the server stops reading from it. */
const MAX_QUEUED_PER_CONNECTION = 64;
/** Reply bytes not yet taken by the client; past it no new request of that connection starts. */
const MAX_UNSENT_BYTES = 1024 * 1024;

export interface HandlerContext {
  /** Sends a progress line before the reply (long requests such as update). */
  progress(p: UpdateProgress): void;
}

export type Handler = (params: Record<string, unknown>, ctx: HandlerContext) => unknown;

export interface IpcServerOptions {
  readonly target: SocketTarget;
  readonly handlers: Readonly<Record<string, Handler>>;
  readonly maxMessageBytes?: number;
  /** Where to say things (stderr in the daemon). */
  readonly log?: (line: string) => void;
  /** An idle connection is closed after this long. */
  readonly idleMs?: number;
  /** Bytes of an oversized message skipped before the connection is closed (see LineDecoder). */
  readonly maxDiscardBytes?: number;
}

/** A decoded line waiting for its answer (an `endless` stream closes the connection instead). */
type Request = Exclude<Frame, { kind: 'endless' }>;

/** Sockets this process listens on, so a second daemon in the same process picks another name. */
const OWN_PATHS = new Set<string>();

export class IpcServer {
  readonly path: string;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  /** Per connection: requests being handled, and when it last sent bytes (to pick whom to evict). */
  readonly #activity = new Map<Socket, { inFlight: number; lastActive: number }>();
  #closed = false;
  #maxDiscardBytes = MAX_DISCARD_BYTES;

  private constructor(path: string, server: Server) {
    this.path = path;
    this.#server = server;
  }

  /** Claims the socket path (cleaning a stale one), listens, and makes the socket private. */
  static async listen(options: IpcServerOptions): Promise<IpcServer> {
    let instance = 1;
    while (options.target.kind === 'dir' && OWN_PATHS.has(daemonSocketPath(options.target, process.pid, instance))) instance++;
    const path = daemonSocketPath(options.target, process.pid, instance);
    // Reserved at once: two daemons starting together in one process must not pick the same name.
    OWN_PATHS.add(path);
    try {
      return await IpcServer.#listenOn(path, options);
    } catch (error) {
      OWN_PATHS.delete(path);
      throw error;
    }
  }

  static async #listenOn(path: string, options: IpcServerOptions): Promise<IpcServer> {
    checkSocketPath(path, options.target);
    preparePrivateSocketDir(options.target, path);
    await claimPath(path);
    // Stryker disable next-line ConditionalExpression: an explicit target lists only its own path, which the clean-up skips
    if (options.target.kind === 'dir') void cleanStaleSockets(options.target, path);

    const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const log = options.log ?? (() => {});
    // Stryker disable next-line ObjectLiteral: false is Node's default for pauseOnConnect
    const server = createServer({ pauseOnConnect: false });
    const ipc = new IpcServer(path, server);
    // Stryker disable next-line ConditionalExpression: LineDecoder takes an undefined maxDiscardBytes as its default, the same value
    if (options.maxDiscardBytes !== undefined) ipc.#maxDiscardBytes = options.maxDiscardBytes;
    // No server.maxConnections: at that cap Node drops *new* connections, so a few clients that
    // connect and never send would lock `svc status` out. #accept evicts the longest-idle one instead.
    server.on('connection', (socket) => ipc.#accept(socket, options.handlers, maxBytes, options.idleMs ?? 300_000, log));

    // Bound under a hidden name first, then linked to its own name once it listens: between bind()
    // and listen() a socket file refuses connections, and a daemon or `svc status` probing the
    // folder then (two daemons starting together) took it for a dead daemon's and removed it.
    const bound = bindingPath(path, maxSocketPathBytes());
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException): void => {
        reject(error.code === 'EADDRINUSE' ? new DaemonRunningError(path) : error);
      };
      server.once('error', onError);
      // The socket file is created by bind(): a tight umask makes it 0600 from its first instant.
      // Stryker disable next-line MethodExpression: no path here ends in a backslash (a pipe name ends in the daemon's pid), and the umask has no bearing on a Windows pipe either way
      const isPipe = path.startsWith('\\\\');
      const oldMask = isPipe ? undefined : process.umask(0o177);
      try {
        // A burst of clients beyond the default backlog (511) would be refused by the kernel (EAGAIN).
        server.listen({ path: bound, backlog: 4096 }, () => {
          // Stryker disable next-line StringLiteral,CallExpression: once listening, a late call of onError settles nothing (the promise is settled) and the error is logged below
          server.off('error', onError);
          resolve();
        });
      } finally {
        // Stryker disable next-line ConditionalExpression: process.umask(undefined) only reads the mask, so calling it for a pipe changes nothing
        if (oldMask !== undefined) process.umask(oldMask);
      }
    });
    if (bound !== path) await linkIntoPlace(server, bound, path);
    // Stryker disable next-line BooleanLiteral,ConditionalExpression,MethodExpression,StringLiteral,CallExpression: bind() ran under umask 0177, so the socket is 0600 already; this only makes it explicit
    if (!path.startsWith('\\\\')) chmodSync(path, 0o600);
    // Stryker disable next-line StringLiteral,ArrowFunction,CallExpression: no error reaches a listening Unix socket server here (libuv meets EMFILE by accepting and closing the connection, tried); kept for what Node may emit
    server.on('error', (error) => log(`ipc: ${error.message}`));
    return ipc;
  }

  #accept(socket: Socket, handlers: Readonly<Record<string, Handler>>, maxBytes: number, idleMs: number, log: (line: string) => void): void {
    // Stryker disable all: unreachable in this Node: close() sets #closed and closes the listening
    // handle in one synchronous step, and no connection is emitted after that; kept against a runtime that would
    if (this.#closed) {
      socket.destroy();
      return;
    }
    // Stryker restore all
    if (this.#sockets.size >= MAX_CONNECTIONS) this.#evictIdle();
    this.#sockets.add(socket);
    const activity = { inFlight: 0, lastActive: performance.now() };
    this.#activity.set(socket, activity);
    socket.on('close', () => {
      this.#sockets.delete(socket);
      this.#activity.delete(socket);
    });
    // Stryker disable next-line ArrowFunction: Node destroys a socket as it emits an error; the listener must exist (an error without one ends the daemon), and what it does is done already
    socket.on('error', () => socket.destroy());
    socket.setTimeout(idleMs, () => socket.end());
    const decoder = new LineDecoder(maxBytes, { maxDiscardBytes: this.#maxDiscardBytes });
    const send = (message: unknown): void => {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a write to an ended or destroyed socket sends nothing either, it only fails (and the socket is closing already)
      if (!socket.destroyed && socket.writable) socket.write(encodeLine(message));
    };
    // Requests wait here and start a few at a time, and only while the client reads its replies:
    // a client that pipelines thousands of requests and never reads would otherwise make the daemon
    // buffer every reply in memory. Reading pauses meanwhile, so the kernel pushes back on the client.
    let queue: Request[] = [];
    let head = 0;
    let running = 0;
    /** Set when the client sent a line without end: the connection is closed once answered. */
    let endlessAfter: number | undefined;
    const pump = (): void => {
      while (head < queue.length && running < MAX_IN_FLIGHT_PER_CONNECTION && socket.writableLength < MAX_UNSENT_BYTES && !socket.destroyed) {
        const frame = queue[head++]!;
        running++;
        void this.#handle(frame, handlers, maxBytes, send, log).finally(() => {
          running--;
          activity.lastActive = performance.now();
          pump();
        });
      }
      // Stryker disable next-line BlockStatement,ConditionalExpression: only frees the answered requests' memory; what is queued is the same either way
      if (head === queue.length) {
        queue = [];
        head = 0;
      }
      // Stryker disable next-line ArithmeticOperator: only inFlight === 0 is ever asked, and head is 0 whenever the queue is empty (reset above), so queue.length + head is 0 exactly when queue.length - head is
      activity.inFlight = running + (queue.length - head);
      if (endlessAfter !== undefined) {
        // Hanging up (the decoder ignores the rest): once what came before is answered, say why and
        // close, without waiting for a client that may never stop sending.
        if (running === 0 && head === queue.length && socket.writable) {
          send({ v: PROTOCOL_VERSION, id: null, ok: false, error: { code: 'too-large', message: `no newline after ${endlessAfter} bytes over the message limit of ${maxBytes}; closing the connection` } } satisfies Reply);
          socket.end(() => socket.destroy());
        }
        return;
      }
      const behind = queue.length - head >= MAX_QUEUED_PER_CONNECTION || socket.writableLength >= MAX_UNSENT_BYTES;
      if (behind && !socket.isPaused()) socket.pause();
      else if (!behind && socket.isPaused()) socket.resume();
    };
    socket.on('drain', pump);
    socket.on('data', (chunk: Buffer) => {
      activity.lastActive = performance.now();
      for (const frame of decoder.push(chunk)) {
        if (frame.kind === 'endless') {
          // Not the protocol: answer what came before, say why, then hang up (the daemon goes on
          // serving everyone else).
          endlessAfter = frame.bytes;
          break;
        }
        queue.push(frame);
      }
      pump();
    });
  }

  async #handle(frame: Request, handlers: Readonly<Record<string, Handler>>, maxBytes: number, send: (m: unknown) => void, log: (line: string) => void): Promise<void> {
    const fail = (id: Reply['id'], error: ErrorBody): void => send({ v: PROTOCOL_VERSION, id, ok: false, error } satisfies Reply);
    if (frame.kind === 'too-large') {
      fail(null, { code: 'too-large', message: `message over the limit of ${maxBytes} bytes (${frame.bytes} bytes so far); it is skipped up to its newline` });
      return;
    }
    if (frame.kind === 'bad-json') {
      fail(null, { code: 'bad-json', message: `not JSON: ${frame.message}` });
      return;
    }
    const msg = frame.value;
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      fail(null, { code: 'bad-request', message: 'a request is a JSON object {v, id, method, params}' });
      return;
    }
    const { v, id, method, params } = msg as Record<string, unknown>;
    const replyId = typeof id === 'number' || typeof id === 'string' ? id : null;
    if (replyId === null) {
      fail(null, { code: 'bad-request', message: 'request has no id (a number or a string)' });
      return;
    }
    if (v !== PROTOCOL_VERSION) {
      fail(replyId, {
        code: 'unsupported-version',
        message: `protocol version ${JSON.stringify(v)} is not supported; this daemon speaks version ${PROTOCOL_VERSION}`,
        hint: 'use the svc CLI of the same version as the daemon',
      });
      return;
    }
    if (typeof method !== 'string') {
      fail(replyId, { code: 'bad-request', message: 'request has no method' });
      return;
    }
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
    if (!handler) {
      fail(replyId, { code: 'unknown-method', message: `unknown method "${method.slice(0, 64)}"; known: ${METHODS.join(', ')}` });
      return;
    }
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      fail(replyId, { code: 'bad-params', message: 'params must be a JSON object' });
      return;
    }
    try {
      const result = await handler((params ?? {}) as Record<string, unknown>, {
        progress: (p) => send({ v: PROTOCOL_VERSION, id: replyId, progress: p }),
      });
      send({ v: PROTOCOL_VERSION, id: replyId, ok: true, result: result ?? null } satisfies Reply);
    } catch (error) {
      if (error instanceof SvcError) {
        // Stryker disable next-line ConditionalExpression: a hint of undefined is left out of the JSON reply, the same as no hint
        fail(replyId, { code: error.code, message: error.message, ...(error.hint !== undefined ? { hint: error.hint } : {}) });
      } else {
        log(`ipc: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        fail(replyId, { code: 'internal', message: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** Closes the connection that has been idle longest (no request in flight), to make room. */
  #evictIdle(): void {
    let victim: Socket | undefined;
    let oldest = Infinity;
    for (const [socket, a] of this.#activity) {
      // Stryker disable next-line EqualityOperator: <= differs only between connections last active at the same instant, which are equally idle
      if (a.inFlight === 0 && a.lastActive < oldest) {
        oldest = a.lastActive;
        victim = socket;
      }
    }
    if (victim) {
      victim.destroy();
      // Stryker disable next-line CallExpression: its close handler removes it from both before the next connection is accepted (Node accepts one per event-loop turn and runs close callbacks in between)
      this.#sockets.delete(victim);
      // Stryker disable next-line CallExpression: as above
      this.#activity.delete(victim);
    }
  }

  get connections(): number {
    return this.#sockets.size;
  }

  /** Stops listening, drops open connections and removes the socket file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
    // Stryker disable next-line CallExpression: Node's server.close() already unlinks a Unix socket's file; this covers a platform that does not
    removeSocketFile(this.path);
    OWN_PATHS.delete(this.path);
  }
}
