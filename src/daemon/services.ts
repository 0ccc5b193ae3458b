// The daemon's control side, beside MCP: the IPC socket (`svc update`, `svc status` and the
// read-only mirrors), the report-only watcher, updates, metrics and catalogue-change events.
// serve.ts starts this before the MCP transport (so a second daemon on the same socket stops
// with a clear message before touching stdio or a port) and hands over the first import.
// Light to load on purpose: the importer, the tools and zod come in with import() when first
// needed, so claiming the socket costs serve's start-up almost nothing.
import type { Catalog } from '../catalog/index.ts';
import type { Config } from '../config/types.ts';
import type { ImportOutcome } from '../model/index.ts';
import { SvcError } from '../model/errors.ts';
import type { ImportFn } from './update.ts';
import type { ToolContext } from '../tools/types.ts';
import { updateSummary } from '../ipc/format.ts';
import { IpcServer, type Handler } from '../ipc/server.ts';
import { socketTarget } from '../ipc/paths.ts';
import { PROTOCOL_VERSION, type PingResult, type StatusResult, type ToolMirrorResult, type UpdateProgress, type UpdateResult } from '../ipc/protocol.ts';
import { CatalogEvents } from './events.ts';
import { Metrics } from './metrics.ts';
import { buildStatus } from './status.ts';
import { Updater } from './update.ts';
import type { FileDigests } from './digests.ts';
import { SpecWatcher } from './watcher.ts';
import { whileHeavy } from './signals.ts';
import { SVC_VERSION } from './version.ts';

/** The importer, loaded when the first update needs it (serve's first import loads it anyway). */
const lazyImportSpec: ImportFn = async (...args) => (await import('../import/index.ts')).importSpec(...args);

export interface DaemonServicesOptions {
  readonly config: Config;
  readonly catalog: Catalog;
  /** Re-reads the config for `svc update` (svc.yaml, or the FILE arguments serve was given). */
  readonly reload: () => Promise<Config>;
  /** The tool context sessions use now (config and invoker swap when an update changes the config). */
  readonly context: () => Pick<ToolContext, 'catalog' | 'config' | 'invoker'>;
  /** Called after an update changed the config: serve swaps the sessions' config and invoker. */
  readonly onConfigChanged?: (config: Config) => void;
  /** `--socket`; else SVC_SOCKET, `socket:` in svc.yaml, or the per-config folder. */
  readonly socket?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
  /** Imports one spec for updates (serve: in the import worker, writing snapshots); default: on this thread. */
  readonly importSpec?: ImportFn;
  readonly digests?: FileDigests;
  /** Turn the watcher off (tests of updates alone). */
  readonly watch?: boolean;
}

export interface TransportInfo {
  readonly transport: string;
  readonly url?: string;
  /** HTTP: how clients authenticate (describeAuth's line). */
  readonly auth?: string;
  /** Open MCP sessions, when the transport counts them better than the metrics hook. */
  readonly sessions?: () => number;
}

export class DaemonServices {
  readonly metrics = new Metrics();
  readonly events = new CatalogEvents();
  readonly updater: Updater;
  readonly startedAt = Date.now();
  readonly #options: DaemonServicesOptions;
  readonly #watcher: SpecWatcher | undefined;
  #ipc: IpcServer | undefined;
  #transport: TransportInfo = { transport: 'starting' };
  #seeded: Promise<void>;
  #resolveSeeded!: () => void;
  #isSeeded = false;
  #closing: Promise<void> | undefined;

  private constructor(options: DaemonServicesOptions) {
    this.#options = options;
    this.updater = new Updater({
      catalog: options.catalog,
      reload: options.reload,
      importSpec: options.importSpec ?? lazyImportSpec,
      ...(options.digests ? { digests: options.digests } : {}),
      onRunning: (running) => (running ? this.metrics.updateStarted() : this.metrics.updateEnded()),
    });
    this.#seeded = new Promise((resolve) => (this.#resolveSeeded = resolve));
    this.#watcher =
      options.watch === false
        ? undefined
        : new SpecWatcher({
            configFile: options.config.file,
            log: options.log,
            // Before the first import there is nothing served to compare with: every change counts.
            confirm: async (specs) => {
              if (!this.#isSeeded) return specs;
              const real = await Promise.all(specs.map((s) => this.updater.changedOnDisk(s)));
              return specs.filter((_, i) => real[i]);
            },
          });
  }

  /** Claims the IPC socket (throws DaemonRunningError when a live daemon holds it) and starts watching. */
  static async start(options: DaemonServicesOptions): Promise<DaemonServices> {
    const services = new DaemonServices(options);
    const target = socketTarget({
      configFile: options.config.file,
      ...(options.socket !== undefined ? { socket: options.socket } : {}),
      ...(options.config.socket !== undefined ? { configSocket: options.config.socket } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
    try {
      services.#ipc = await IpcServer.listen({ target, handlers: services.#handlers(), log: options.log });
    } catch (error) {
      await services.#watcher?.close();
      throw error;
    }
    // Before the first import reads a file, so no change slips between import and watch.
    services.#watcher?.setFiles(new Map(options.config.specs.map((s) => [s.path, [s.name]])));
    return services;
  }

  get socketPath(): string {
    // Stryker disable next-line OptionalChaining,StringLiteral: start() sets #ipc before it returns the services (the constructor is private)
    return this.#ipc?.path ?? '';
  }

  setTransport(info: TransportInfo): void {
    this.#transport = info;
  }

  /** The first import, done by serve: take it over so updates compare against it. */
  async seed(config: Config, outcomes: readonly ImportOutcome[]): Promise<void> {
    const primed = this.updater.seed(config, outcomes);
    this.#watcher?.setFiles(this.updater.watchedFiles());
    this.#isSeeded = true;
    this.#resolveSeeded();
    await primed;
  }

  /** Runs `svc update`: serialized, never failing a tool call; tells listeners what changed. */
  async update(onProgress?: (p: UpdateProgress) => void): Promise<UpdateResult> {
    await this.#seeded;
    const before = this.updater.config;
    // Re-imports and re-indexing hold the thread: signals meanwhile end the process at once.
    const { result, specsAddedOrRemoved } = await whileHeavy(() =>
      this.updater.update({
        ...(onProgress ? { onProgress } : {}),
        onStart: () => this.#watcher?.clearPending(),
      }),
    );
    this.#watcher?.setFiles(this.updater.watchedFiles());
    const after = this.updater.config;
    // (An update always leaves a config: seeding set the first one.)
    if (JSON.stringify(after) !== JSON.stringify(before)) this.#options.onConfigChanged?.(after!);
    const summary = updateSummary(result);
    this.#options.log(summary);
    const endpointsChanged = result.specs.some((s) => s.added.count + s.removed.count + s.changed.count > 0);
    if (endpointsChanged || specsAddedOrRemoved) {
      this.events.emit({ message: summary, generation: result.generation, endpointsChanged, specsChanged: specsAddedOrRemoved });
    }
    return result;
  }

  /** Answers at once, also while the first import runs (then every spec shows `loading`). */
  async status(): Promise<StatusResult> {
    const loading = !this.#isSeeded;
    // Stryker disable next-line ArrayDeclaration,StringLiteral: status shows neither the files nor the import key of a spec
    const states = loading ? this.#options.config.specs.map((config) => ({ config, files: [], importKey: '' })) : this.updater.states;
    const reported = this.#watcher?.pending() ?? { specs: new Map<string, readonly string[]>(), config: false };
    // Checked again now: a change the watcher saw while an update was reading it has been applied.
    const still = loading
      ? [...reported.specs]
      : (await Promise.all([...reported.specs].map(async (entry) => ((await this.updater.changedOnDisk(entry[0])) ? [entry] : [])))).flat();
    const pending = { specs: new Map(still), config: reported.config };
    return buildStatus({
      pid: process.pid,
      version: SVC_VERSION,
      startedAt: this.startedAt,
      transport: this.#transport.transport,
      ...(this.#transport.url !== undefined ? { url: this.#transport.url } : {}),
      ...(this.#transport.auth !== undefined ? { auth: this.#transport.auth } : {}),
      socket: this.socketPath,
      config: this.#options.config.file,
      states,
      loading,
      pending,
      sessions: this.#transport.sessions?.() ?? this.metrics.sessions,
      metrics: this.metrics,
      ...(this.updater.lastResult ? { lastUpdate: this.updater.lastResult } : {}),
      ...(this.updater.progress ? { updating: this.updater.progress } : {}),
    });
  }

  #handlers(): Record<string, Handler> {
    return {
      ping: (): PingResult => ({ pid: process.pid, version: SVC_VERSION, protocol: PROTOCOL_VERSION, config: this.#options.config.file }),
      status: () => this.status(),
      update: (_params, ctx) => this.update((p) => ctx.progress(p)),
      search: (params) => this.#mirror('search', params),
      inspect: (params) => this.#mirror('inspect', params),
      list: (params) => {
        const { tag, collection, spec, ...rest } = params;
        if (typeof tag === 'string' && tag) return this.#mirror('endpoint_by_tag', { tag, ...(spec !== undefined ? { spec } : {}), ...rest });
        if (typeof collection === 'string' && collection) return this.#mirror('endpoint_by_collection', { collection, ...rest });
        return this.#mirror('endpoint_by_spec', { ...(spec !== undefined ? { spec } : {}), ...rest });
      },
    };
  }

  /** The same handler an MCP client would reach, with the same input checks. */
  async #mirror(toolName: string, params: Record<string, unknown>): Promise<ToolMirrorResult> {
    await this.#seeded;
    const [{ runTool, toolByName }, { z }] = await Promise.all([import('../tools/index.ts'), import('zod')]);
    const tool = toolByName(toolName);
    // Stryker disable next-line ConditionalExpression,StringLiteral,CallExpression: the handlers above name only tools every build has
    if (!tool) throw new SvcError('unknown-tool', `no tool ${toolName} in this build`);
    const parsed = z.strictObject(tool.inputShape).safeParse(params);
    if (!parsed.success) {
      // A failed parse has at least one issue.
      const issue = parsed.error.issues[0]!;
      // Stryker disable next-line StringLiteral: the mirrored tools take flat arguments, so a path has one key at most
      const path = issue.path.join('.');
      throw new SvcError('bad-params', `${toolName}: ${path || 'input'}: ${issue.message}`);
    }
    const result = await runTool(tool, parsed.data as Record<string, unknown>, this.#options.context());
    return { text: result.text, ...(result.structured ? { structured: result.structured } : {}), ...(result.isError ? { isError: true } : {}) };
  }

  /** First step of shutdown: no more change reports. */
  stopWatching(): Promise<void> {
    // Stryker disable next-line LogicalOperator: the watcher stops reporting at once; the promise only waits for its handles to be freed
    return this.#watcher?.close() ?? Promise.resolve();
  }

  /** Stops the watcher, then the IPC server (removing the socket). MCP sessions are serve's to close in between. */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      await this.stopWatching();
      // Stryker disable next-line OptionalChaining: start() sets #ipc before anyone can close the services
      await this.#ipc?.close();
    })());
  }
}
