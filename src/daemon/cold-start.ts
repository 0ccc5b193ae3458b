// Cold start: the imports a start will need, begun before anything else loads. A spec without its
// snapshot file (or any spec, with snapshots off) is sent to the import worker at once, so the
// worker loads its modules and imports while the main thread loads the catalogue, the MCP SDK and
// the IPC server; the loader then takes the job's reply instead of starting the same import again.
// A warm start (every snapshot there) starts no worker at all. Only light modules here: this runs
// before the loader's own modules are loaded.
import { existsSync } from 'node:fs';
import type { ImportOptions } from '../import/index.ts';
import { snapshotFile, snapshotKey } from '../snapshot/store.ts';
import { ImportPool, type JobReply } from './import-pool.ts';

/** Imports sent ahead at most: each reply waits in memory until the loader comes to its spec. */
const AHEAD = 2;

export interface StartSpec {
  readonly file: string;
  readonly options: ImportOptions;
}

/** Jobs sent ahead, by snapshot key; the loader takes each one once (`take`). */
export class ColdStart {
  readonly pool = new ImportPool();
  readonly #jobs = new Map<string, Promise<JobReply>>();

  /** The reply of the import sent ahead for `key`, once; undefined when none was sent. */
  take(key: string): Promise<JobReply> | undefined {
    const job = this.#jobs.get(key);
    this.#jobs.delete(key);
    return job;
  }

  /**
   * Sends the first specs (in config order) that have no snapshot to the worker.
   */
  begin(dir: string | undefined, svcVersion: string, specs: readonly StartSpec[]): void {
    for (const s of specs) {
      if (this.#jobs.size >= AHEAD) return;
      const key = snapshotKey({ svcVersion, importKey: JSON.stringify([s.file, s.options]) });
      // Synchronous on purpose (one stat each, a few specs): a callback would wait behind the
      // module loading that fills this thread's first few hundred milliseconds.
      if (dir !== undefined && existsSync(snapshotFile(dir, key))) continue;
      const job = this.pool.run(s.file, s.options, dir !== undefined ? { dir, key } : undefined);
      this.#jobs.set(key, job);
    }
  }
}
