// Loads one configured spec for the daemon: from its snapshot when the snapshot's key and the
// files' contents match, else by importing it in the worker thread (which also writes a new
// snapshot). Either way the main thread only decodes the spec's compact core and prepares its
// catalogue state; the documents stay on disk (see src/snapshot). At start, a spec the worker
// imported is served as soon as its core comes; the snapshot is written after, and its note
// says `saving snapshot` until then (`settled` waits for it).
// Every spec gets a one-line note of where it came from, which `svc status` shows.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { prepareSpecInSteps } from '../catalog/catalog.ts';
import type { ImportOptions } from '../import/index.ts';
import type { ImportedSpec, ImportOutcome } from '../model/index.ts';
import { decodeCore, pruneSnapshots, readSnapshot, settleDetail, snapshotKey, specFromCoreInSteps, touchSnapshot, type DetailSource } from '../snapshot/index.ts';
import { presetFingerprints } from './diff.ts';
import type { FileDigests } from './digests.ts';
import { setLoadNote } from './load-notes.ts';
import type { ColdStart } from './cold-start.ts';
import { ImportPool, type JobReply, type LateReply } from './import-pool.ts';
import { traceStep } from './start-trace.ts';

export interface LoaderOptions {
  /** Snapshot folder; `undefined`: no snapshots (read or written). */
  readonly dir: string | undefined;
  readonly svcVersion: string;
  readonly digests: FileDigests;
  /** Imports a cold start sent ahead (src/daemon/cold-start.ts), and the worker pool they run in. */
  readonly coldStart?: ColdStart;
}

/** How long `close` waits for snapshots still being written. */
const SETTLE_MS = 5_000;

/** Lets timers, sockets and tool calls in between two steps of decoding and preparing a spec. */
const pause = (): Promise<void> => nextTurn();

/** The outcome of a load asked of a closed loader. */
function shuttingDown(file: string, options: ImportOptions): ImportOutcome {
  return { ok: false, name: options.name, collection: options.collection, file, errors: [{ severity: 'error', code: 'shutting-down', message: 'svc is shutting down', file }], warnings: [], files: [file] };
}

export class SpecLoader {
  readonly #options: LoaderOptions;
  readonly #pool: ImportPool;
  #closed = false;
  /** Late parts not yet applied to the specs served before them. */
  readonly #late = new Set<Promise<void>>();

  constructor(options: LoaderOptions) {
    this.#options = options;
    this.#pool = options.coldStart?.pool ?? new ImportPool();
  }

  /**
   * Loads a spec. `snapshot: true` (start-up) tries the snapshot first; an update imports from
   * the files (they changed) and refreshes the snapshot. Never throws for bad specs.
   */
  async load(file: string, options: ImportOptions, snapshot: boolean): Promise<ImportOutcome> {
    // Closed: a start's remaining specs are not decoded or imported (close waits for the start's end).
    if (this.#closed) return shuttingDown(file, options);
    const dir = this.#options.dir;
    const key = snapshotKey({ svcVersion: this.#options.svcVersion, importKey: JSON.stringify([file, options]) });
    let why = 'snapshots off';
    const ahead = snapshot ? this.#options.coldStart?.take(key) : undefined;
    if (ahead) {
      // Sent to the worker at the start because the snapshot file was not there.
      return this.#imported(await ahead, file, options, dir !== undefined ? 'rebuilt: no snapshot yet' : why, true);
    }
    if (dir !== undefined && snapshot) {
      traceStep('snapshot read start');
      const read = await (this.#options.coldStart?.takeRead(key) ?? readSnapshot(dir, key));
      traceStep('snapshot read');
      if (read.ok) {
        const loaded = await this.#fromSnapshot(read.core, read.prints, { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts });
        traceStep('snapshot decoded');
        if (typeof loaded !== 'string') {
          void touchSnapshot(read.file);
          return { ok: true, spec: loaded };
        }
        why = `rebuilt: ${loaded}`;
      } else why = read.reason === 'missing' ? 'rebuilt: no snapshot yet' : `rebuilt: snapshot damaged (${read.detail})`;
    } else if (dir !== undefined) why = 'imported';
    return this.#imported(await this.#pool.run(file, options, dir !== undefined ? { dir, key } : undefined), file, options, why, snapshot);
  }

  #imported(reply: JobReply, file: string, options: ImportOptions, why: string, snapshot: boolean): Promise<ImportOutcome> {
    // At start the last import's worker ends once its late part is made (peak memory); an update
    // keeps it for the idle time, since more imports tend to follow.
    if (snapshot && reply.kind !== 'built') this.#pool.release();
    return this.#fromReply(reply, file, options, why, snapshot);
  }

  /** Resolves once every spec served before its snapshot was written has its late part (saved or not). */
  async settled(): Promise<void> {
    while (this.#late.size > 0) await Promise.all(this.#late);
  }

  /** The spec a snapshot holds, or why it cannot serve (files changed, bytes damaged). */
  async #fromSnapshot(bytes: Buffer, prints: Buffer, source: DetailSource): Promise<ImportedSpec | string> {
    let spec: ImportedSpec;
    let core;
    try {
      core = await decodeCore(bytes, pause);
    } catch (error) {
      return `snapshot damaged (${(error as Error).message})`;
    }
    const now = await this.#options.digests.specHash(core.meta.files);
    if (now !== core.meta.hash) return now === undefined ? 'a file it read is gone' : 'files changed since the snapshot';
    try {
      spec = await specFromCoreInSteps(core, source, pause);
      await prepareSpecInSteps(spec, core.index, pause, false, core.facts);
    } catch (error) {
      return `snapshot damaged (${(error as Error).message})`;
    }
    presetFingerprints(spec, prints);
    setLoadNote(spec, 'loaded from snapshot');
    return spec;
  }

  async #fromReply(reply: JobReply, file: string, options: ImportOptions, why: string, starting: boolean): Promise<ImportOutcome> {
    if (reply.kind === 'failed') return reply.outcome;
    // Shutting down: no point importing on this thread now.
    if (reply.kind === 'inline' && this.#closed) return shuttingDown(file, options);
    if (reply.kind === 'inline') {
      // The worker could not do it (it stopped, or the documents cannot be encoded): import here.
      const { importSpec } = await import('../import/index.ts');
      const outcome = await importSpec(file, options);
      if (outcome.ok) setLoadNote(outcome.spec, `${why}; imported on the main thread (${reply.reason})`);
      return outcome;
    }
    traceStep('reply received');
    const core = await decodeCore(new Uint8Array(reply.core), pause);
    traceStep('core decoded');
    // Served before its detail is made: a schema followed in between is read from the files.
    const spec = await specFromCoreInSteps(core, undefined, pause);
    // Made ready in steps: the daemon answers status, tools/list and other specs' calls meanwhile
    // (a spec of 20,000 endpoints takes several hundred ms). In an update its index is loaded
    // before the swap too (the first search after it must not pay for loading); at start an
    // index loads on the first search that needs it.
    await prepareSpecInSteps(spec, core.index, pause, !starting, core.facts);
    traceStep('spec prepared');
    const applied = reply.late.then((late) => this.#applyLate(spec, late, why, starting));
    if (!starting) {
      // An update diffs the new spec against the old one at once: it needs the fingerprints.
      await applied;
      return { ok: true, spec };
    }
    // With snapshots off there is nothing to wait for: the note is final already.
    setLoadNote(spec, `${why}; ${this.#options.dir !== undefined ? 'saving snapshot' : 'no snapshot'}`);
    this.#late.add(applied);
    void applied.finally(() => this.#late.delete(applied));
    return { ok: true, spec };
  }

  /** What the worker made after the core: the detail (in the snapshot file or in memory) and the fingerprints. */
  #applyLate(spec: ImportedSpec, late: LateReply, why: string, starting: boolean): void {
    if (late.written) settleDetail(spec, { file: late.written.file, coreOffset: late.written.coreOffset, detailOffset: late.written.detailOffset, parts: late.written.parts });
    else if (late.detail) settleDetail(spec, { bytes: Buffer.from(late.detail.bytes), parts: late.detail.parts });
    if (late.prints) presetFingerprints(spec, new Uint8Array(late.prints));
    // Stryker disable next-line ConditionalExpression: a built job's late part always names its root file (the worker takes the file's identity before the import reads it, and a file it cannot stat does not import); the check guards a reply without one
    if (late.seen) this.#options.digests.remember(late.seen.file, late.seen.identity, late.seen.digest);
    const saved = late.written ? 'snapshot saved' : late.writeError ? `snapshot not saved: ${late.writeError}` : 'no snapshot';
    setLoadNote(spec, `${why}; ${saved}`);
    traceStep('late part applied');
    if (starting) this.#pool.release();
  }

  /** Removes snapshots no start has used for 30 days (in the background, after start-up). */
  async prune(): Promise<void> {
    if (this.#options.dir !== undefined) await pruneSnapshots(this.#options.dir);
  }

  /**
   * Stops the worker, after the snapshots of specs served before theirs were written and the
   * imports already under way have written theirs (so the next start finds them: a client that
   * lists the tools and hangs up at once would otherwise leave no snapshot, and every start would
   * import again), waiting for those at most `SETTLE_MS`.
   */
  async close(): Promise<void> {
    this.#closed = true;
    let timer: NodeJS.Timeout | undefined;
    const written = Promise.all([this.#pool.idle(), this.settled()]).then(() => this.settled());
    await Promise.race([written, new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTLE_MS)))]);
    clearTimeout(timer);
    return this.#pool.close();
  }
}
