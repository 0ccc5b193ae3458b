// The daemon's side of the import worker (import-worker.ts): one worker thread, started on the
// first job and stopped after a while idle (a large import leaves a large heap behind; ending the
// thread gives it back). Jobs run one at a time, in order: imports are CPU-bound and the daemon
// has the main thread to keep free, not cores to fill.
//
// Protocol (structured clone; one message to the worker per job, one or two back):
//   main -> worker  ImportJob  { id, file, options, snapshot?: { dir, key } }
//   worker -> main  built:  { core }  all the spec needs to be served (an ArrayBuffer, transferred,
//                           no copy: see snapshot/codec.ts), sent before the rest is made; then
//                   late:   { late: LateReply }  the change fingerprints, and the snapshot file
//                           written or the detail itself (with why no file was written)
//               or  failed: { outcome }  the importer's own failure, with diagnostics
//               or  inline: { reason }   the worker could not encode this spec: the caller
//                           imports it on the main thread instead
// The caller gets `built` with a promise of its `late` part, so it can serve the spec first.
//   main -> worker  ConfigJob  { id, kind: 'config', file }  read and check svc.yaml (a large one:
//                           its parse would hold the main thread for over 100 ms)
//   worker -> main  config: { config }  or  config-failed: { problems?, message }  (loadConfig's
//                           own error: a ConfigError's problems, else its message)
import module from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { Config } from '../config/index.ts';
import type { ImportOptions } from '../import/index.ts';
import type { ConfigProblem, ImportOutcome } from '../model/index.ts';
import type { DetailPart, Written } from '../snapshot/index.ts';
import type { FileIdentity } from './digests.ts';
import { traceStep } from './start-trace.ts';

export interface ImportJob {
  readonly id: number;
  readonly file: string;
  readonly options: ImportOptions;
  /** Write the snapshot here (the worker writes it, so the main thread never holds the detail). */
  readonly snapshot?: { readonly dir: string; readonly key: string };
}

/** Reads and checks svc.yaml in the worker (see `ImportPool.readConfig`). */
export interface ConfigJob {
  readonly id: number;
  readonly kind: 'config';
  readonly file: string;
}

/** A job for the worker: an import (which has no `kind`) or a config to read. */
export type WorkerJob = ImportJob | ConfigJob;

/** What the worker makes after the core: everything a snapshot file holds besides it. */
export interface LateReply {
  /** The change fingerprints as JSON bytes; absent when the worker stopped before making them. */
  readonly prints?: ArrayBuffer;
  /** The snapshot file written. */
  readonly written?: Written;
  /** The detail, when no snapshot file holds it (not asked for, or the write failed). */
  readonly detail?: { readonly bytes: ArrayBuffer; readonly parts: readonly DetailPart[] };
  /** Why no snapshot file was written when one was asked for, or why nothing came. */
  readonly writeError?: string;
  /** The root file's digest, of the bytes imported, with its identity taken before they were read (FileDigests.remember). */
  readonly seen?: { readonly file: string; readonly identity: FileIdentity; readonly digest: string };
}

/** The answer of a job the worker could not take: the caller does the work on its own thread. */
type Inline = { readonly id: number; readonly kind: 'inline'; readonly reason: string };

/** The worker's messages. */
export type WorkerMessage =
  | { readonly id: number; readonly kind: 'built'; readonly core: ArrayBuffer }
  | { readonly id: number; readonly kind: 'late'; readonly late: LateReply }
  | { readonly id: number; readonly kind: 'failed'; readonly outcome: ImportOutcome }
  | Inline
  | ConfigAnswer;

/** The worker's answer to a config job: the config, or loadConfig's error (a ConfigError's file and problems, else its message). */
export type ConfigAnswer =
  | { readonly id: number; readonly kind: 'config'; readonly config: Config }
  | { readonly id: number; readonly kind: 'config-failed'; readonly message: string; readonly file?: string; readonly problems?: readonly ConfigProblem[] };

/** A config job's outcome: the worker's answer, or `inline` when the worker could not be had (read the file on this thread then). */
export type ConfigReply = ConfigAnswer | Inline;

export type JobReply =
  | { readonly id: number; readonly kind: 'built'; readonly core: ArrayBuffer; readonly late: Promise<LateReply> }
  | { readonly id: number; readonly kind: 'failed'; readonly outcome: ImportOutcome }
  | Inline;

interface Pending {
  readonly job: ImportJob;
  readonly worker: Worker;
  /** Takes the first reply. */
  readonly resolve: (r: JobReply) => void;
  /** Takes the late part, once `built` came. */
  late?: (r: LateReply) => void;
}

/**
 * The process's module loaders (`--import tsx` and the like) without its per-process flags, which a
 * worker refuses (the test runner adds several). Node strips types itself from 22.18; older
 * releases run svc through tsx, which the worker needs too. Exported for its tests.
 */
export function workerArgs(argv: readonly string[] = process.execArgv, stripsTypes: boolean = Boolean(process.features.typescript)): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // A loader given as two arguments first: `--experimental-loader x` is an experimental switch too, and its value must follow it.
    if (/^--(import|require|loader|experimental-loader|conditions)$/.test(a)) {
      if (i + 1 < argv.length) out.push(a, argv[++i]!);
    } else if (/^--(import|require|loader|experimental-loader|conditions)=/.test(a) || /^--(experimental|no-experimental)-/.test(a)) out.push(a);
  }
  if (!stripsTypes && !out.some((a) => a.includes('tsx'))) out.push('--import', 'tsx');
  return out;
}

export interface ImportPoolOptions {
  /** How long an idle worker is kept for the next job (ms). Default 5 s. */
  readonly idleMs?: number;
}

const IDLE_MS = 5_000;

/** A new import worker thread (no job yet: it waits for one). */
function newWorker(): Worker {
  // Stryker disable next-line OptionalChaining: every Node svc runs on (22.22 and later) has getCompileCacheDir
  const compileCache = module.getCompileCacheDir?.();
  // Beside this module: the .ts source in a checkout, the bundled .js in an installed package.
  const boot = import.meta.url.endsWith('.ts') ? './import-worker-boot.ts' : './import-worker-boot.js';
  // Node's worker_threads module is loaded here, with the first worker: a warm start starts none.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  return new Worker(new URL(boot, import.meta.url), {
    execArgv: workerArgs(),
    // A small young generation: an import allocates hundreds of MB of short-lived objects, and
    // with V8's default a worker's peak memory was about a third higher for the same CPU time.
    // Stryker disable next-line ObjectLiteral: a memory setting only; no answer differs
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
    // Stryker disable next-line ObjectLiteral: the compile cache only makes the worker's start faster
    ...(compileCache ? { workerData: { compileCache } } : {}),
  });
}

/** The worker started ahead of the start's first job, and whether it already ended. */
let prestarted: { readonly worker: Worker; ended: boolean } | undefined;

/**
 * Starts the import worker at once, before the daemon's modules and its config are even loaded,
 * for a start that will most likely import (bin/svc.js: the first start of a new build, whose
 * snapshots are all stale): the thread boots and loads its modules meanwhile, instead of after
 * the config is read and the daemon's modules are loaded. The first pool that needs a worker takes
 * it; a start that sends no job ends it (`dropPrestartedWorker`). It holds no job, so it never
 * keeps the process alive. Returns the thread.
 */
export function prestartImportWorker(): Worker {
  if (prestarted && !prestarted.ended) return prestarted.worker;
  traceStep('worker starting ahead');
  const early = { worker: newWorker(), ended: false };
  const ended = () => {
    early.ended = true;
  };
  early.worker.once('exit', ended).once('error', ended).unref();
  prestarted = early;
  return early.worker;
}

/** The worker started ahead, taken once; undefined when there is none or it already ended. */
function takePrestarted(): Worker | undefined {
  const early = prestarted;
  prestarted = undefined;
  if (!early) return undefined;
  if (!early.ended) return early.worker;
  void early.worker.terminate();
  return undefined;
}

/** Ends the worker started ahead when no pool took it (a start that found every snapshot). */
export async function dropPrestartedWorker(): Promise<void> {
  const early = prestarted;
  prestarted = undefined;
  await early?.worker.terminate();
}

export class ImportPool {
  readonly #idleMs: number;
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  /** Config jobs sent and not yet answered. */
  readonly #configs = new Map<number, { readonly resolve: (r: ConfigReply) => void; readonly worker: Worker }>();
  #chain: Promise<unknown> = Promise.resolve();
  #idle: NodeJS.Timeout | undefined;
  #closed = false;
  /** Jobs asked for and not yet answered (queued or running). */
  #open = 0;

  constructor(options: ImportPoolOptions = {}) {
    this.#idleMs = options.idleMs ?? IDLE_MS;
  }

  /**
   * Runs one import in the worker, after the jobs before it (a job is done when its late part
   * is). Never rejects: a dead worker comes back as `inline`, or as a late part that says why.
   */
  run(file: string, options: ImportOptions, snapshot?: ImportJob['snapshot']): Promise<JobReply> {
    const job: ImportJob = { id: this.#nextId++, file, options, ...(snapshot ? { snapshot } : {}) };
    this.#open++;
    // The job stops counting as open before its caller sees it end (its reply, or its late part),
    // so a caller that then calls `release` lets the worker go at once.
    const result = this.#chain.then(() => this.#send(job)).then((r): JobReply => {
      if (r.kind !== 'built') {
        this.#open--;
        return r;
      }
      return { ...r, late: r.late.finally(() => this.#open--) };
    });
    const done = result.then((r) => (r.kind === 'built' ? r.late.then(() => {}) : undefined));
    this.#chain = done.catch(() => {});
    return result;
  }

  /**
   * Reads and checks svc.yaml (loadConfig) in the worker, after the jobs before it: the parse of a
   * large one (thousands of specs) holds a thread for 100-250 ms, too long for the one that answers
   * MCP and status. Never rejects: loadConfig's error comes back as `config-failed`, and a worker
   * that cannot be had as `inline` (the caller reads the file itself).
   */
  readConfig(file: string): Promise<ConfigReply> {
    const id = this.#nextId++;
    this.#open++;
    const result = this.#chain.then(() => this.#sendConfig({ id, kind: 'config', file })).finally(() => this.#open--);
    this.#chain = result;
    return result;
  }

  #sendConfig(job: ConfigJob): Promise<ConfigReply> {
    const reply = this.#post<ConfigReply>(job, (resolve, worker) => this.#configs.set(job.id, { resolve, worker }));
    void reply.finally(() => this.#idleAfterJob());
    return reply;
  }

  /**
   * Sends `job` to the worker (started if need be) once `register` has noted who takes its answer;
   * a closed pool, or a worker that cannot start, answers `inline` at once.
   */
  #post<R>(job: WorkerJob, register: (resolve: (r: R | Inline) => void, worker: Worker) => void): Promise<R | Inline> {
    if (this.#closed) return Promise.resolve({ id: job.id, kind: 'inline', reason: 'the import worker is closed' });
    if (this.#idle) clearTimeout(this.#idle);
    return new Promise<R | Inline>((resolve) => {
      let worker: Worker;
      try {
        worker = this.#start();
      } catch (error) {
        resolve({ id: job.id, kind: 'inline', reason: `cannot start the import worker: ${(error as Error).message}` });
        return;
      }
      register(resolve, worker);
      worker.ref();
      worker.postMessage(job);
    });
  }

  /** Once no job waits for the worker, it no longer keeps the process alive and stops after the idle time. */
  #idleAfterJob(): void {
    if (this.#pending.size > 0 || this.#configs.size > 0 || !this.#worker) return;
    this.#worker.unref();
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.#stop(), this.#idleMs);
    this.#idle.unref();
  }

  /** Resolves once every job asked for so far is done, late parts included. */
  async idle(): Promise<void> {
    await this.#chain;
  }

  /** Whether a worker thread is up (started by a job or `warm`, not yet stopped). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * Ends the worker now when no job is queued or running, rather than after the idle time: at
   * start the daemon then decodes what the worker built while the worker's heap (the parsed
   * documents, the index under construction) is already given back, not on top of it.
   */
  release(): void {
    if (this.#open > 0 || !this.#worker) return;
    if (this.#idle) clearTimeout(this.#idle);
    void this.#stop();
  }

  /**
   * Starts the worker now, before any job: its modules load while the main thread does other
   * start-up work. It stops again after the idle time if no job comes.
   */
  warm(): void {
    if (this.#closed || this.#worker) return;
    try {
      this.#start().unref();
      this.#idle = setTimeout(() => void this.#stop(), this.#idleMs);
      this.#idle.unref();
    } catch {
      // The first job will say why.
    }
  }

  #send(job: ImportJob): Promise<JobReply> {
    const first = this.#post<JobReply>(job, (resolve, worker) => this.#pending.set(job.id, { resolve, job, worker }));
    const done = first.then((r) => (r.kind === 'built' ? r.late.then(() => {}) : undefined));
    void done.finally(() => this.#idleAfterJob());
    return first;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const early = takePrestarted();
    traceStep(early ? 'worker taken (started ahead)' : 'worker starting');
    const worker = early ?? newWorker();
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'config' || message.kind === 'config-failed') {
        const c = this.#configs.get(message.id);
        this.#configs.delete(message.id);
        c?.resolve(message);
        return;
      }
      const p = this.#pending.get(message.id);
      if (!p) return;
      if (message.kind === 'built') {
        // The job stays pending until its late part comes.
        const late = new Promise<LateReply>((resolve) => (p.late = resolve));
        p.resolve({ id: message.id, kind: 'built', core: message.core, late });
        return;
      }
      this.#pending.delete(message.id);
      if (message.kind === 'late') p.late?.(message.late);
      else p.resolve(message);
    });
    const fail = (reason: string) => {
      if (this.#worker === worker) this.#worker = undefined;
      // Only this worker's jobs: a worker that was stopped may exit after the next one took a job.
      for (const [id, c] of this.#configs) {
        if (c.worker !== worker) continue;
        this.#configs.delete(id);
        c.resolve({ id, kind: 'inline', reason });
      }
      for (const [id, p] of this.#pending) {
        if (p.worker !== worker) continue;
        this.#pending.delete(id);
        if (p.late) p.late({ writeError: reason });
        else p.resolve({ id, kind: 'inline', reason });
      }
    };
    worker.on('error', (error) => fail(`the import worker failed: ${error.name}: ${error.message}`));
    worker.on('exit', (code) => fail(`the import worker stopped (exit ${code})`));
    this.#worker = worker;
    return worker;
  }

  async #stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker && ![...this.#pending.values(), ...this.#configs.values()].some((p) => p.worker === worker)) await worker.terminate();
  }

  /** Stops the worker; jobs still queued come back `inline`. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#idle) clearTimeout(this.#idle);
    const worker = this.#worker;
    this.#worker = undefined;
    await Promise.all([worker?.terminate(), dropPrestartedWorker()]);
  }
}
