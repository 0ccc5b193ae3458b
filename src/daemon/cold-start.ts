// The start's first reads and imports, begun before anything else loads. A spec without its
// snapshot file (or any spec, with snapshots off) is sent to the import worker at once, so the
// worker loads its modules and imports while the main thread loads the catalogue, the MCP SDK and
// the IPC server; a spec with a snapshot has it read meanwhile (the reads wait on the disk, not
// on this thread). The loader then takes the job's reply or the read instead of doing it again.
// A warm start (every snapshot there) starts no worker at all. Only light modules here: this runs
// before the loader's own modules are loaded.
import { existsSync } from 'node:fs';
import type { ImportOptions } from '../import/index.ts';
import { readSnapshot, snapshotFile, snapshotKey, type ReadResult } from '../snapshot/store.ts';
import { dropPrestartedWorker, ImportPool, type JobReply } from './import-pool.ts';

/** Imports sent, and snapshots read, ahead at most: each waits in memory until the loader comes to its spec. */
const AHEAD = 2;
/** Specs looked at: the loader takes them in config order, so only the first ones can gain (a hub has thousands). */
const LOOKED_AT = 8;

export interface StartSpec {
  readonly file: string;
  readonly options: ImportOptions;
}

/** Jobs sent and snapshots read ahead, by snapshot key; the loader takes each one once. */
export class ColdStart {
  readonly pool = new ImportPool();
  readonly #jobs = new Map<string, Promise<JobReply>>();
  readonly #reads = new Map<string, Promise<ReadResult>>();

  /** The reply of the import sent ahead for `key`, once; undefined when none was sent. */
  take(key: string): Promise<JobReply> | undefined {
    const job = this.#jobs.get(key);
    this.#jobs.delete(key);
    return job;
  }

  /** The snapshot read ahead for `key`, once; undefined when none was read. */
  takeRead(key: string): Promise<ReadResult> | undefined {
    const read = this.#reads.get(key);
    this.#reads.delete(key);
    return read;
  }

  /**
   * Sends the first specs (in config order) that have no snapshot to the worker, and begins reading
   * the first snapshots that are there.
   */
  begin(dir: string | undefined, svcVersion: string, specs: readonly StartSpec[]): void {
    this.#look(dir, svcVersion, specs);
    // A worker started ahead (bin/svc.js, on a new build's first start) that no job needs goes now.
    if (this.#jobs.size === 0) void dropPrestartedWorker();
  }

  #look(dir: string | undefined, svcVersion: string, specs: readonly StartSpec[]): void {
    for (const s of specs.slice(0, LOOKED_AT)) {
      if (this.#jobs.size >= AHEAD && (dir === undefined || this.#reads.size >= AHEAD)) return;
      const key = snapshotKey({ svcVersion, importKey: JSON.stringify([s.file, s.options]) });
      // Synchronous on purpose (one stat each, a few specs): a callback would wait behind the
      // module loading that fills this thread's first few hundred milliseconds.
      if (dir !== undefined && existsSync(snapshotFile(dir, key))) {
        if (this.#reads.size < AHEAD) {
          const read = readSnapshot(dir, key);
          // A read that fails is the loader's to report, when it takes it; none is left unhandled before.
          read.catch(() => {});
          this.#reads.set(key, read);
        }
      } else if (this.#jobs.size < AHEAD) {
        this.#jobs.set(key, this.pool.run(s.file, s.options, dir !== undefined ? { dir, key } : undefined));
      }
    }
  }
}
