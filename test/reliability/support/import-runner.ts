// Runs imports in a worker thread with a heap cap and a per-job time limit: a hang or a runaway
// allocation in the importer becomes a reported failure instead of a stuck or crashed test process.
import { Worker } from 'node:worker_threads';
import { closeSync, constants, openSync, statSync } from 'node:fs';
import type { ImportJob, ImportReport } from './import-worker.ts';

export type JobResult =
  | (ImportReport & { readonly failure?: undefined })
  | { readonly id: number; readonly failure: 'timeout' | 'crash'; readonly detail: string; readonly ms: number; readonly problems: readonly string[] };

export interface RunnerOptions {
  /** Heap cap of the worker (old generation), MB. */
  readonly maxHeapMb?: number;
}

export class ImportRunner {
  #worker: Worker | undefined;
  #nextId = 1;
  #pending = new Map<number, { resolve: (r: JobResult) => void; started: number }>();
  readonly #maxHeapMb: number;
  /** Worker restarts after a timeout or a crash. */
  restarts = 0;

  constructor(options: RunnerOptions = {}) {
    this.#maxHeapMb = options.maxHeapMb ?? 768;
  }

  #spawn(): Worker {
    const worker = new Worker(new URL('./import-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.#maxHeapMb },
      stdout: false,
      stderr: false,
    });
    worker.on('message', (report: ImportReport) => {
      const entry = this.#pending.get(report.id);
      if (!entry) return;
      this.#pending.delete(report.id);
      entry.resolve(report);
    });
    const fail = (detail: string): void => {
      for (const [id, entry] of this.#pending) {
        entry.resolve({ id, failure: 'crash', detail, ms: performance.now() - entry.started, problems: [`the import worker died: ${detail}`] });
      }
      this.#pending.clear();
      if (this.#worker === worker) this.#worker = undefined;
    };
    worker.on('error', (error) => fail(`${error.name}: ${error.message}`));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    worker.unref();
    return worker;
  }

  /** Imports `job.file` in the worker; resolves with its report or a timeout/crash failure. */
  run(job: Omit<ImportJob, 'id'>, timeoutMs: number): Promise<JobResult> {
    const worker = (this.#worker ??= this.#spawn());
    const id = this.#nextId++;
    const started = performance.now();
    return new Promise<JobResult>((resolve) => {
      const timer = setTimeout(() => {
        if (!this.#pending.delete(id)) return;
        resolve({ id, failure: 'timeout', detail: `no answer within ${timeoutMs} ms`, ms: performance.now() - started, problems: [`the import did not finish within ${timeoutMs} ms`] });
        unblockFifo(job.file);
        this.#worker = undefined;
        this.restarts++;
        void worker.terminate();
      }, timeoutMs);
      this.#pending.set(id, {
        started,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
      worker.postMessage({ ...job, id } satisfies ImportJob);
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }
}

/** A reader stuck opening or reading a named pipe is released by a writer that opens and closes it. */
function unblockFifo(file: string): void {
  try {
    if (!statSync(file).isFIFO()) return;
    closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // Nobody is reading it, or it is gone: nothing to release.
  }
}
