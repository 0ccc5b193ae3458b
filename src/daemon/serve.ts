// `svc serve` as a function: load the config's specs into one Catalog, then serve it over MCP
// (stdio or HTTP). The transport starts at once, so a client gets tools/list immediately;
// tool calls wait until the first import is done. A spec that fails to load is reported on the
// log and left out; the others serve.
//
// Start-up order is tuned for the first answer: only the light modules are loaded statically.
// The IPC socket is claimed first (a second daemon stops before touching stdio or a port), then
// the transport starts (stdio answers initialize and tools/list before the MCP SDK is even loaded),
// and the importer, the HTTP transports and the invoker (ky, ajv) come in with import() when needed.
//
// Kept small on purpose: the daemon's IPC, watching and `svc update` build on `Daemon`
// (`catalog`, `outcomes`, `reload`-style code can call `catalog.replace`) without changing this.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Catalog } from '../catalog/index.ts';
import type { Config } from '../config/types.ts';
import type { Invoker } from '../invoke/index.ts';
import type { ImportOutcome } from '../model/index.ts';
import { SvcError } from '../model/errors.ts';
import { describeAuth, resolveHttpAuth, type HttpAuth } from '../mcp/token.ts';
import type { HttpHandle } from '../mcp/http.ts';
import { serveStdio, type StdioHandle } from '../mcp/stdio.ts';
import type { SessionContext } from '../mcp/server.ts';
import { FileDigests } from './digests.ts';
import { rereadConfig } from './config-read.ts';
import { callContext } from './call-context.ts';
import type { SpecLoader } from './loader.ts';
import { DaemonServices } from './services.ts';
import { loadConfigured, loadedSpecs, reportOutcomes } from './start-load.ts';
import { whileHeavy } from './signals.ts';
import { beginStart, type EarlyStart } from './start-early.ts';
import { traceStep } from './start-trace.ts';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

export interface ServeOptions {
  readonly config: Config;
  /** Human messages (one line each, no trailing newline); default: `svc: ` lines on stderr. */
  readonly log?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  /** stdio mode only: the streams to speak MCP on (default the process's own). */
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** IPC socket path (`--socket`); else SVC_SOCKET, `socket:` in svc.yaml, or the per-config folder. */
  readonly socket?: string;
  /**
   * Re-reads the config for `svc update`, given the daemon's reader of an svc.yaml (loadConfig, a
   * large file in the import worker). Default: that reader on `config.file`.
   */
  readonly reload?: (load: (file: string) => Promise<Config>) => Promise<Config>;
  /** IPC, watching and updates (src/daemon/services.ts); default on. */
  readonly services?: boolean;
  /**
   * Snapshot folder: specs load from their snapshots at start and imports write them (default
   * `$XDG_CACHE_HOME/svc/snapshots`, else `~/.cache/svc/snapshots`); `false`: no snapshots.
   */
  readonly snapshots?: string | false;
  /** The start's first move, made by the caller as soon as it had the config (start-early.ts); default: made here. */
  readonly early?: EarlyStart;
}

export interface Daemon {
  readonly config: Config;
  readonly catalog: Catalog;
  /** Resolves when the first import finished (successful or not). */
  readonly ready: Promise<void>;
  /** The outcome of the last import of every configured spec, in config order. */
  outcomes(): readonly ImportOutcome[];
  /** IPC socket, watcher, updates and metrics; absent when started with `services: false`. */
  readonly services?: DaemonServices;
  /** HTTP mode: the base URL bound (`http://127.0.0.1:41237`). */
  readonly url?: string;
  /** Resolves when serving ended: stdin closed (stdio) or `close()` was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * The invoker, loaded on the first invoke call (ky and ajv are not needed before); one per config,
 * so its OAuth2 token cache lives as long as the config. When this build has none, every call
 * explains invoke is unavailable.
 */
function makeInvoker(config: Config): Invoker {
  let loaded: Promise<Invoker> | undefined;
  const load = (): Promise<Invoker> =>
    (loaded ??= import('../invoke/index.ts').then((mod) => {
      const create = (mod as Partial<typeof mod>).createInvoker;
      if (typeof create === 'function') return create(config);
      return {
        async invoke() {
          return { isError: true, text: 'invoke is not available in this build of svc; use inspect to read the endpoint' };
        },
      };
    }));
  return {
    async invoke(endpoint, spec, args, ctx) {
      return (await load()).invoke(endpoint, spec, args, ctx);
    },
  };
}

export async function startServe(options: ServeOptions): Promise<Daemon> {
  const { config } = options;
  traceStep('startServe');
  const log = options.log ?? ((line: string) => void process.stderr.write(`svc: ${line}\n`));
  const env = options.env ?? process.env;
  // The snapshot folder and the cold start: begun by `svc serve` as soon as it read the config, or here.
  const { snapshots, svcVersion, coldStart, warming } = options.early ?? beginStart(config, { ...(options.snapshots !== undefined ? { snapshots: options.snapshots } : {}), env });
  // Beside the snapshots, the files' digests: a start from snapshots checks them without hashing.
  const digests = new FileDigests(snapshots !== undefined ? { memo: join(snapshots, 'digests.json') } : {});
  // The loader (snapshots, the import worker). A cold start (a spec without its snapshot) sent that
  // spec to the import worker first thing (src/daemon/cold-start.ts), so the worker loads its
  // modules and imports while this thread loads the catalogue, the MCP SDK and the IPC server; a
  // warm start starts no worker.
  const loading: Promise<SpecLoader> = Promise.all([import('./loader.ts'), svcVersion]).then(
    ([{ SpecLoader: Loader }, version]) => new Loader({ dir: snapshots, svcVersion: version, digests, coldStart }),
  );
  const stopLoading = async (): Promise<void> => {
    await (await loading.catch(() => undefined))?.close();
    await coldStart.pool.close();
  };
  // `svc update` reads svc.yaml again; a large one in the import worker (config-read.ts).
  const load = (file: string): Promise<Config> => rereadConfig(file, coldStart.pool);
  const reload = options.reload ? () => options.reload!(load) : () => load(config.file);
  try {
    return await serveWith(options, log, loading, warming, stopLoading, digests, reload);
  } catch (error) {
    // A start that stops (a second daemon, a port in use, a token not set) ends the worker it began.
    await stopLoading();
    throw error;
  }
}

async function serveWith(
  options: ServeOptions,
  log: (line: string) => void,
  loading: Promise<SpecLoader>,
  warming: Promise<void>,
  stopLoading: () => Promise<void>,
  digests: FileDigests,
  reload: () => Promise<Config>,
): Promise<Daemon> {
  const { config } = options;
  const catalogModule = await import('../catalog/index.ts');
  const CatalogClass = (catalogModule as Partial<typeof catalogModule>).Catalog;
  // Stryker disable next-line ConditionalExpression,StringLiteral: only a build without src/catalog reaches this
  if (typeof CatalogClass !== 'function') throw new SvcError('no-catalog', 'the catalogue is not available in this build');
  // Before anything is claimed: a token variable that is not set stops the start with a clear message.
  const auth: HttpAuth | undefined = config.serve.transport === 'http' ? resolveHttpAuth(config.serve, options.env ?? process.env) : undefined;

  const catalog = new CatalogClass();
  const invoker = makeInvoker(config);
  let session: SessionContext = { catalog, config, invoker };
  // Before the transport: a second daemon on the same socket stops here with a clear message (and
  // ends the import a cold start began). The watcher is on before the specs are served.
  const services =
    options.services === false
      ? undefined
      : await DaemonServices.start({
          config,
          catalog,
          reload,
          importSpec: async (file, o) => (await loading).load(file, o, false),
          digests,
          context: () => session,
          onConfigChanged: (next) => {
            // Calls in flight keep the context they started with; the next call sees the new one.
            session = { catalog, config: next, invoker: makeInvoker(next) };
          },
          ...(options.socket !== undefined ? { socket: options.socket } : {}),
          ...(options.env !== undefined ? { env: options.env } : {}),
          log,
        });
  traceStep('services started');
  let outcomes: readonly ImportOutcome[] = [];
  /** What runs after the catalogue is served (seeding, the digests' memo); settled before close() ends. */
  let afterStart: Promise<void> = Promise.resolve();
  let closing: Promise<void> | undefined;
  // The specs load at once, while the MCP SDK loads and the client's first exchange goes on: the
  // first tool call waits for the catalogue, and a cold import runs in the worker thread anyway.
  const started = performance.now();
  let loaded = false;
  // An English vocabulary svc.yaml asks for (search.vocabulary) loads beside the import, without
  // holding the thread (files read asynchronously), and joins search when ready; search works without it.
  // Stryker disable next-line StringLiteral: loadVocabulary gives no vocabulary for any kind but wordnet, as if none were loaded
  const vocabularyKind = config.search?.vocabulary ?? 'none';
  if (vocabularyKind !== 'none') {
    void import('../vocabulary/index.ts')
      .then((v) => v.loadVocabulary(vocabularyKind))
      .then(
        (vocabulary) => catalog.useVocabulary(vocabulary),
        (error: unknown) => log(`search vocabulary ${vocabularyKind} not loaded, searching without it: ${error instanceof Error ? error.message : String(error)}`),
      );
  }
  // Loading may still hold the thread in steps (decoding snapshots, the swap): a signal meanwhile
  // ends the process at once (src/daemon/signals.ts).
  const ready = whileHeavy(() => Promise.all([loading, warming]).then(([l]) => loadConfigured(config, l))).then(
    async (result) => {
      outcomes = result;
      traceStep('specs loaded');
      // In steps: with thousands of specs the word statistics take them in over 100 ms (status answers meanwhile).
      await catalog.replaceInSteps(loadedSpecs(result), () => nextTurn());
      loaded = true;
      traceStep('catalogue served');
      reportOutcomes(result, log, performance.now() - started);
      // Closed while loading: prune nothing and warm nothing for a daemon that is going away.
      // Stryker disable next-line ConditionalExpression: pruning and warming only; what writes files, close() waits for
      if (closing !== undefined) return;
      // Pruning old snapshots waits until the tool calls that waited for the catalogue are answered
      // (they run in this turn's microtasks): it is not theirs to wait for. So does building the
      // tables the next search would otherwise build (10-20 ms each at hub scale).
      void loading.then((l) => setImmediate(() => void l.prune()));
      // Stryker disable next-line all: speed only (the first search builds the same tables itself: test/catalog/warm)
      setImmediate(() => void catalog.warm(() => nextTurn()));
      // Seeding hashes every served file (what the next start's memo needs), then the memo is written.
      // It waits for the snapshots still being written: with them come the change fingerprints
      // seeding warms, which this thread would otherwise compute from the documents.
      // Stryker disable next-line ArrowFunction: order only: seeding after the late parts finds their change fingerprints ready
      const settled = (l: SpecLoader): Promise<void> => l.settled();
      // close() waits for this work: a memo written after it would land in a folder its owner may
      // already be removing. Closing skips the seeding (it warms caches for updates that will not come).
      afterStart = loading
        .then(settled)
        .then(() => (closing === undefined ? services?.seed(config, result) : undefined))
        .then(() => digests.persist())
        .catch(() => {});
    },
    (error: unknown) => {
      log(`import failed: ${error instanceof Error ? error.message : String(error)}`);
      // Updates wait for the first import: let them run (and retry every spec) rather than hang.
      void services?.seed(config, []);
    },
  );
  // Tool calls wait for the catalogue, and inspect and invoke for a fresh spec's documents.
  const context = callContext({ ready, loading, session: () => session });

  let handle: StdioHandle | HttpHandle | undefined;
  let url: string | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      // Shutdown order: stop watching, close MCP sessions, close IPC (removes the socket).
      await services?.stopWatching();
      // Stryker disable next-line OptionalChaining: close() is reachable only once a transport started
      await handle?.close();
      await services?.close();
      await stopLoading();
      // A start closed while loading: its specs come (the loader answers "shutting down") before
      // what follows them is known.
      await ready.catch(() => {});
      await afterStart;
      resolveClosed();
    })());
  const hooks = services
    ? {
        toolCall: (tool: string, ms: number, ok: boolean) => {
          traceStep(`tool call answered: ${tool}`);
          services.metrics.toolCall(tool, ms, ok);
        },
        sessionOpened: () => services.metrics.sessionOpened(),
        sessionClosed: () => services.metrics.sessionClosed(),
        onCatalogChanged: services.events.onCatalogChanged.bind(services.events),
      }
    : undefined;
  try {
    if (config.serve.transport === 'stdio') {
      const stdio = await serveStdio({ context, log, ...(hooks ? { hooks } : {}), ...(options.stdin ? { stdin: options.stdin } : {}), ...(options.stdout ? { stdout: options.stdout } : {}) });
      // The client hung up: shut everything down (watcher, IPC socket), not just MCP.
      void stdio.closed.then(() => close());
      handle = stdio;
      traceStep('stdio serving');
      services?.setTransport({ transport: 'stdio' });
      log('serving MCP on stdio');
    } else {
      const { startHttp, MCP_PATH, SSE_PATH } = await import('../mcp/http.ts');
      // Stryker disable next-line ObjectLiteral: auth is resolved above whenever the transport is HTTP
      const httpAuth = auth ?? { kind: 'none' as const };
      const http = await startHttp({
        context,
        ...(hooks ? { hooks } : {}),
        host: config.serve.host,
        port: config.serve.port,
        auth: httpAuth,
        allowedOrigins: config.serve.allowedOrigins,
        maxBodyBytes: config.serve.maxBodyBytes,
        maxSessions: config.serve.maxSessions,
        sessionIdleMs: config.serve.sessionIdleMs,
        ready: () => loaded,
        log,
      });
      handle = http;
      url = http.url;
      const authLine = describeAuth(httpAuth);
      services?.setTransport({ transport: 'http', url: `${http.url}${MCP_PATH}`, auth: authLine, sessions: () => http.sessionCount() });
      log(`serving MCP on ${http.url}${MCP_PATH} (Streamable HTTP, protocol 2025-11-25 and 2026-07-28) and ${http.url}${SSE_PATH} (legacy SSE, deprecated); ${authLine}`);
      if (httpAuth.kind === 'none') log('warning: serve.auth is none: any program or user on this machine that can reach the port can call your APIs with your credentials');
    }
  } catch (error) {
    // (startServe ends the loader and its worker.)
    await services?.close();
    throw error;
  }
  if (services) log(`control socket ${services.socketPath} (svc update, svc status)`);

  const daemon: Daemon = {
    config,
    catalog,
    ready,
    outcomes: () => outcomes,
    closed,
    close,
    ...(url !== undefined ? { url } : {}),
    ...(services ? { services } : {}),
  };
  return daemon;
}
