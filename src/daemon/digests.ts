// File digests for `svc update`'s "unchanged?" check, computed the way the importer computes
// ImportedSpec.hash (sha256 over the per-file sha256 hex digests, in `files` order), so a spec is
// unchanged exactly when the recomputed hash equals the one its import recorded.
// A file whose size, mtime, ctime and inode are as last seen is not read again: a no-change
// update of many megabytes of specs costs a few stat calls.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

interface Seen {
  readonly key: string;
  readonly digest: string;
}

export class FileDigests {
  readonly #seen = new Map<string, Seen>();

  /** sha256 hex of the file's bytes, or `undefined` when it cannot be read. */
  async digest(file: string): Promise<string | undefined> {
    let key: string;
    try {
      const st = await stat(file, { bigint: true });
      key = `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
    } catch {
      this.#seen.delete(file);
      return undefined;
    }
    const seen = this.#seen.get(file);
    if (seen && seen.key === key) return seen.digest;
    try {
      // The stat was taken before the read: a write in between leaves a newer mtime, so the next
      // call reads the file again rather than trusting this digest.
      // Hashed as it streams in, a megabyte at a time: a large file never holds the thread for long.
      const h = createHash('sha256');
      for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
      const digest = h.digest('hex');
      this.#seen.set(file, { key, digest });
      return digest;
    } catch {
      this.#seen.delete(file);
      return undefined;
    }
  }

  /** The spec hash over `files`, as ImportedSpec.hash; `undefined` when a file is gone. */
  async specHash(files: readonly string[]): Promise<string | undefined> {
    const digests = await Promise.all(files.map((f) => this.digest(f)));
    if (digests.some((d) => d === undefined)) return undefined;
    const h = createHash('sha256');
    for (const d of digests) h.update(d!);
    return h.digest('hex');
  }

  /** Forget files no spec reads any more. */
  retain(files: ReadonlySet<string>): void {
    for (const f of this.#seen.keys()) if (!files.has(f)) this.#seen.delete(f);
  }
}
