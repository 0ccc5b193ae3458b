// File digests for `svc update`'s "unchanged?" check, computed the way the importer computes
// ImportedSpec.hash (sha256 over the per-file sha256 hex digests, in `files` order), so a spec is
// unchanged exactly when the recomputed hash equals the one its import recorded.
// A file whose size, mtime, ctime, inode and device are as last seen is not read again: a
// no-change update of many megabytes of specs costs a few stat calls. With a memo file (in the
// user's private snapshot folder) that holds across starts too: a start that serves from
// snapshots checks them without hashing every description again (13 MB of GitHub's: tens of ms).
//
// A stat identity proves nothing about a file changed within the same tick of the file system's
// clock as the one it was hashed in: a write right after the read can leave size, mtime and ctime
// as they were (timestamps come from a coarse clock, whole seconds on some file systems). So, as
// git does for its index ("racily clean" entries), a digest taken while the file's ctime was
// that recent is used once and not remembered: the next check hashes the file again, by which time
// a later write would show in its ctime. ctime, not mtime: anyone can set a file's mtime back
// (utimes), nobody its ctime.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isSha256Hex } from '../snapshot/hash.ts';
import { ensurePrivateDir } from '../snapshot/store.ts';

interface Seen {
  readonly key: string;
  readonly digest: string;
}

/**
 * How long before a digest is taken a file's ctime must be for the digest to be remembered (see
 * above). Timestamps with a sub-second part come from the kernel's coarse clock (a tick of 1-10 ms
 * on Linux, about 16 ms on Windows): a tenth of a second covers it. Whole-second timestamps
 * (ext3, HFS+, FAT's two seconds for writes) need whole seconds, with room for a file server's
 * clock a little off this machine's.
 */
export const RACY_MS = { subSecond: 100, wholeSecond: 3_000 } as const;

/** Whether a digest taken at `hashedAtMs` (wall clock, read before the stat) may miss a change with the same stat identity. */
export function racy(ctimeNs: bigint, hashedAtMs: number): boolean {
  const margin = ctimeNs % 1_000_000_000n === 0n ? RACY_MS.wholeSecond : RACY_MS.subSecond;
  return !(Number(ctimeNs / 1_000_000n) < hashedAtMs - margin);
}

/** How much of a file is read and hashed at a time. */
const CHUNK_BYTES = 1 << 20;

/** A memo file larger than this is not read (it is ours, so it is damaged or not ours). */
const MAX_MEMO_BYTES = 4 * 1024 * 1024;
/** At most this many files are remembered across starts. */
const MAX_MEMO_FILES = 10_000;
/** 2: a digest is remembered only once its file has settled; a version 1 memo may hold racy rows, so it is not read. */
const MEMO_VERSION = 2;

/** What a file's stat says about it: the identity a digest is kept under, and whether it has settled (see `racy`). */
export interface FileIdentity {
  readonly key: string;
  readonly settled: boolean;
  readonly size: number;
}

/**
 * The file's identity now (size, mtime, ctime, inode, device), read after the clock: a write after
 * the stat has a ctime no earlier than this tick. Take it before reading the bytes a digest is made
 * of. Rejects when the file cannot be stat'ed.
 */
export async function statIdentity(file: string, now: () => number = Date.now): Promise<FileIdentity> {
  const hashedAt = now();
  const st = await stat(file, { bigint: true });
  return { key: `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`, settled: !racy(st.ctimeNs, hashedAt), size: Number(st.size) };
}

export interface FileDigestsOptions {
  /** JSON file that remembers digests across starts (read on first use, written by `persist`). */
  readonly memo?: string;
  /** The wall clock in ms (default Date.now), which the file system's timestamps are compared with. */
  readonly now?: () => number;
}

export class FileDigests {
  readonly #seen = new Map<string, Seen>();
  readonly #memo: string | undefined;
  readonly #now: () => number;
  #restored: Promise<void> | undefined;
  /** Whether #seen holds anything the memo file does not. */
  #dirty = false;

  constructor(options: FileDigestsOptions = {}) {
    this.#memo = options.memo;
    this.#now = options.now ?? Date.now;
  }

  /** sha256 hex of the file's bytes, or `undefined` when it cannot be read. */
  async digest(file: string): Promise<string | undefined> {
    await (this.#restored ??= this.#restore());
    let key: string;
    let settled: boolean;
    let size: number;
    try {
      ({ key, settled, size } = await statIdentity(file, this.#now));
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
      // A small file's chunk is its size (a stream allocates a whole chunk per read: a megabyte
      // each for a hub's 2,639 files, hashed together, took hundreds of MB).
      const h = createHash('sha256');
      // Stryker disable next-line ObjectLiteral,ArithmeticOperator,MethodExpression: the chunk size decides only memory and how long one step holds the thread
      for await (const chunk of createReadStream(file, { highWaterMark: Math.min(CHUNK_BYTES, Math.max(1, size) + 1) })) h.update(chunk as Buffer);
      const digest = h.digest('hex');
      if (settled) {
        this.#seen.set(file, { key, digest });
        this.#dirty = true;
      } else this.#seen.delete(file);
      return digest;
    } catch {
      this.#seen.delete(file);
      return undefined;
    }
  }

  /**
   * Takes a digest made elsewhere (the import worker, of the bytes it imported) for `file` as it
   * was when `identity` was taken, before those bytes were read: the next check of an unchanged
   * file then only stats it. Kept only when settled, as a digest made here is.
   */
  remember(file: string, identity: FileIdentity, digest: string): void {
    if (!identity.settled || !isSha256Hex(digest)) return;
    this.#seen.set(file, { key: identity.key, digest });
    this.#dirty = true;
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
      if ((parsed as { v?: unknown } | null)?.v !== MEMO_VERSION) return;
      const files = (parsed as { files?: unknown }).files;
      // Stryker disable next-line ConditionalExpression: rows of anything else are never three-item lists (slice throws or gives characters)
      if (!Array.isArray(files)) return;
      for (const row of files.slice(0, MAX_MEMO_FILES) as unknown[]) {
        if (!Array.isArray(row) || row.length !== 3) continue;
        const [file, key, digest] = row as unknown[];
        if (typeof file !== 'string' || typeof key !== 'string' || !isSha256Hex(digest)) continue;
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
        await handle.writeFile(JSON.stringify({ v: MEMO_VERSION, files }));
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
