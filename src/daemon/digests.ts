// File digests for `svc update`'s "unchanged?" check, computed the way the importer computes
// ImportedSpec.hash (sha256 over the per-file sha256 hex digests, in `files` order), so a spec is
// unchanged exactly when the recomputed hash equals the one its import recorded.
// A file whose size, mtime, ctime, inode and device are as last seen is not read again: a
// no-change update of many megabytes of specs costs a few stat calls. With a memo file (in the
// user's private snapshot folder) that holds across starts too: a start that serves from
// snapshots checks them without hashing every description again (13 MB of GitHub's: tens of ms).
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ensurePrivateDir } from '../snapshot/store.ts';

interface Seen {
  readonly key: string;
  readonly digest: string;
}

/** A memo file larger than this is not read (it is ours, so it is damaged or not ours). */
const MAX_MEMO_BYTES = 4 * 1024 * 1024;
/** At most this many files are remembered across starts. */
const MAX_MEMO_FILES = 10_000;
const HEX64 = /^[0-9a-f]{64}$/;

export interface FileDigestsOptions {
  /** JSON file that remembers digests across starts (read on first use, written by `persist`). */
  readonly memo?: string;
}

export class FileDigests {
  readonly #seen = new Map<string, Seen>();
  readonly #memo: string | undefined;
  #restored: Promise<void> | undefined;
  /** Whether #seen holds anything the memo file does not. */
  #dirty = false;

  constructor(options: FileDigestsOptions = {}) {
    this.#memo = options.memo;
  }

  /** sha256 hex of the file's bytes, or `undefined` when it cannot be read. */
  async digest(file: string): Promise<string | undefined> {
    await (this.#restored ??= this.#restore());
    let key: string;
    try {
      const st = await stat(file, { bigint: true });
      key = `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;
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
      // Stryker disable next-line ObjectLiteral: the chunk size decides only how long one step holds the thread
      for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
      const digest = h.digest('hex');
      this.#seen.set(file, { key, digest });
      this.#dirty = true;
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

  /** Fills what the memo file remembers; a missing, damaged or foreign memo is ignored. */
  async #restore(): Promise<void> {
    // Stryker disable next-line ConditionalExpression: opening no file throws, which the catch below takes as no memo
    if (this.#memo === undefined) return;
    try {
      const handle = await open(this.#memo, 'r');
      let text: string;
      try {
        const st = await handle.stat();
        if (!st.isFile() || st.size > MAX_MEMO_BYTES || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return;
        // Stryker disable next-line StringLiteral: JSON.parse reads the bytes as UTF-8 text either way
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
      const parsed = JSON.parse(text) as unknown;
      // null and other values than objects have no `v` either.
      // Stryker disable next-line OptionalChaining: null.v throws, which the catch below takes as no memo, as this return does
      if ((parsed as { v?: unknown } | null)?.v !== 1) return;
      const files = (parsed as { files?: unknown }).files;
      // Stryker disable next-line ConditionalExpression: rows of anything else are never three-item lists (slice throws or gives characters)
      if (!Array.isArray(files)) return;
      for (const row of files.slice(0, MAX_MEMO_FILES) as unknown[]) {
        if (!Array.isArray(row) || row.length !== 3) continue;
        const [file, key, digest] = row as unknown[];
        if (typeof file !== 'string' || typeof key !== 'string' || typeof digest !== 'string' || !HEX64.test(digest)) continue;
        if (!this.#seen.has(file)) this.#seen.set(file, { key, digest });
      }
    } catch {
      // No memo yet, or one that cannot be read: every file is hashed.
    }
  }

  /**
   * Writes what is known to the memo file (temp file, then rename), when anything is new. Other
   * daemons may share the file: the last writer wins, and a file it lacks is hashed again. Never throws.
   */
  async persist(): Promise<void> {
    const memo = this.#memo;
    if (memo === undefined || !this.#dirty) return;
    this.#dirty = false;
    const files = [...this.#seen].slice(0, MAX_MEMO_FILES).map(([file, seen]) => [file, seen.key, seen.digest]);
    const temp = join(dirname(memo), `.digests.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await ensurePrivateDir(dirname(memo));
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify({ v: 1, files }));
      } finally {
        await handle.close();
      }
      await rename(temp, memo);
    } catch {
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: a temp file that is not there makes rm throw, which the catch takes alike
      await rm(temp, { force: true }).catch(() => {});
    }
  }
}
