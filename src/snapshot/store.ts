// Snapshot files: one per configured spec in the user's private cache folder
// (`$XDG_CACHE_HOME/svc/snapshots`, else `~/.cache/svc/snapshots`; folder 0700, files 0600).
//
// The file name is the key: a hash of the format version, svc's version and the config entry that
// shapes the import. Inside, the core records
// the files the spec read and the hash of their contents; a snapshot serves only while those
// files still hash the same. Layout:
//   "SVCSNAP1" | u32 header length | header JSON | core bytes | prints bytes | detail bytes
// The header holds the key material, the core's and the prints' lengths and sha256 and the
// detail's parts (length and sha256 of each file's), so a truncated or edited file is refused
// before it is deserialized. Written to a temp file and renamed: a reader sees the old file or
// the new one.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, utimes } from 'node:fs/promises';
import { homedir } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isAbsolute, join } from 'node:path';
import type { DetailPart, Late } from './codec.ts';
import { CODEC_VERSION } from './codec-version.ts';
import { sha256, sha256Steps } from './hash.ts';

const MAGIC = Buffer.from('SVCSNAP1');
/** A header larger than this is not ours (it holds about 100 bytes per file a spec read: a spec of thousands of files has a header of a few hundred KB). */
const MAX_HEADER = 16 * 1024 * 1024;

/** `$XDG_CACHE_HOME/svc/snapshots` (an absolute XDG_CACHE_HOME only, as the XDG spec asks), else `~/.cache/svc/snapshots`. */
export function snapshotDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'svc', 'snapshots');
}

/** Everything a snapshot depends on besides the files' contents. */
export interface KeyMaterial {
  readonly svcVersion: string;
  /** The config entry's import settings (path, name, collection, ref rules, size limit), as text. */
  readonly importKey: string;
}

export function snapshotKey(material: KeyMaterial): string {
  return sha256(JSON.stringify([CODEC_VERSION, material.svcVersion, material.importKey])).slice(0, 40);
}

interface Header {
  readonly key: string;
  readonly coreBytes: number;
  readonly coreSha256: string;
  readonly printsBytes: number;
  readonly printsSha256: string;
  readonly detailBytes: number;
  readonly parts: readonly DetailPart[];
  /** sha256 of `parts` as JSON: a part's checksum that was edited would only make its detail unused, not the snapshot refused. */
  readonly partsSha256: string;
}

/** Where a snapshot file's parts start, and the detail's parts. */
export interface Written {
  readonly file: string;
  readonly coreOffset: number;
  readonly detailOffset: number;
  readonly parts: readonly DetailPart[];
}

export type ReadResult =
  | ({ readonly ok: true; readonly core: Buffer; readonly prints: Buffer } & Written)
  | { readonly ok: false; readonly reason: 'missing' | 'corrupt'; readonly detail: string };

/** Makes the folder (0700) if needed and checks it is a real folder of this user that no one else can write. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
  if ((st.mode & 0o022) !== 0) throw new Error(`${dir} can be written by other users`);
}

/** Reads the header and core of the snapshot for `key`; the detail stays on disk. */
export async function readSnapshot(dir: string, key: string): Promise<ReadResult> {
  const file = join(dir, `${key}.snap`);
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { ok: false, reason: 'missing', detail: 'no snapshot yet' } : { ok: false, reason: 'corrupt', detail: `cannot open: ${code ?? String(error)}` };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { ok: false, reason: 'corrupt', detail: 'not a regular file' };
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return { ok: false, reason: 'corrupt', detail: 'owned by another user' };
    const lead = Buffer.alloc(MAGIC.length + 4);
    if ((await handle.read(lead, 0, lead.length, 0)).bytesRead !== lead.length || !lead.subarray(0, MAGIC.length).equals(MAGIC)) {
      return { ok: false, reason: 'corrupt', detail: 'not a snapshot file (bad magic)' };
    }
    const headerBytes = lead.readUInt32LE(MAGIC.length);
    if (headerBytes > MAX_HEADER) return { ok: false, reason: 'corrupt', detail: 'header too large' };
    const headerBuf = Buffer.alloc(headerBytes);
    if ((await handle.read(headerBuf, 0, headerBytes, lead.length)).bytesRead !== headerBytes) return { ok: false, reason: 'corrupt', detail: 'truncated header' };
    let header: Header | null;
    try {
      header = JSON.parse(headerBuf.toString('utf8')) as Header | null;
    } catch {
      return { ok: false, reason: 'corrupt', detail: 'unreadable header' };
    }
    // A header of `null` is JSON too: refused like any header that is not this key's.
    if (header?.key !== key) return { ok: false, reason: 'corrupt', detail: 'header names another key' };
    const coreAt = lead.length + headerBytes;
    const sizes = [header.coreBytes, header.printsBytes, header.detailBytes];
    if (!sizes.every((n) => Number.isSafeInteger(n) && n >= 0) || st.size !== coreAt + sizes.reduce((a, b) => a + b, 0)) {
      return { ok: false, reason: 'corrupt', detail: `size ${st.size} does not match the header (truncated?)` };
    }
    if (!partsAgree(header.parts, header.detailBytes) || sha256(JSON.stringify(header.parts)) !== header.partsSha256) return { ok: false, reason: 'corrupt', detail: 'header parts do not agree' };
    // Core and prints are next to each other: one read.
    const both = Buffer.allocUnsafe(header.coreBytes + header.printsBytes);
    // Stryker disable next-line ConditionalExpression,ObjectLiteral,BooleanLiteral,StringLiteral: unreachable: the size check above saw the file hold these bytes, and the handle reads the file it opened (a snapshot written since is another file)
    if ((await handle.read(both, 0, both.length, coreAt)).bytesRead !== both.length) return { ok: false, reason: 'corrupt', detail: 'truncated core' };
    const core = both.subarray(0, header.coreBytes);
    if ((await sha256InSteps(core)) !== header.coreSha256) return { ok: false, reason: 'corrupt', detail: 'core checksum mismatch' };
    // A copy of their own: the core's buffer goes once decoded, the prints stay with the spec.
    const prints = Buffer.from(both.subarray(header.coreBytes));
    if ((await sha256InSteps(prints)) !== header.printsSha256) return { ok: false, reason: 'corrupt', detail: 'prints checksum mismatch' };
    return { ok: true, core, prints, file, coreOffset: coreAt, detailOffset: coreAt + header.coreBytes + header.printsBytes, parts: header.parts };
  } finally {
    await handle.close();
  }
}

/**
 * `sha256(bytes)`, a megabyte at a time with the thread let go in between: the core of a spec of
 * 20,000 endpoints is over 20 MB, 50-100 ms of hashing in one piece.
 */
async function sha256InSteps(bytes: Buffer): Promise<string> {
  const steps = sha256Steps(bytes);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}

/** Each part a length and a sha256, the lengths adding up to the detail's. */
function partsAgree(parts: unknown, detailBytes: number): parts is DetailPart[] {
  if (!Array.isArray(parts)) return false;
  let sum = 0;
  for (const p of parts as Partial<DetailPart>[]) {
    if (p === null || typeof p !== 'object' || !Number.isSafeInteger(p.bytes) || p.bytes! < 0 || typeof p.sha256 !== 'string') return false;
    sum += p.bytes!;
  }
  return sum === detailBytes;
}

/** Writes the snapshot for `key` (temp file, then rename). Throws when the folder cannot be written. */
export async function writeSnapshot(dir: string, key: string, core: Uint8Array, late: Late): Promise<Written> {
  await ensurePrivateDir(dir);
  const { prints, detail, parts } = late;
  const header = Buffer.from(
    JSON.stringify({ key, coreBytes: core.length, coreSha256: sha256(core), printsBytes: prints.length, printsSha256: sha256(prints), detailBytes: detail.length, parts, partsSha256: sha256(JSON.stringify(parts)) } satisfies Header),
  );
  const lead = Buffer.alloc(MAGIC.length + 4);
  MAGIC.copy(lead);
  lead.writeUInt32LE(header.length, MAGIC.length);
  const file = join(dir, `${key}.snap`);
  const temp = join(dir, `.${key}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writev([lead, header, core, prints, detail]);
    await handle.close();
    await rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => {});
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the temp file exists (this write made it), so force changes nothing
    await rm(temp, { force: true });
    throw error;
  }
  const coreOffset = lead.length + header.length;
  return { file, coreOffset, detailOffset: coreOffset + core.length + prints.length, parts };
}

/** Where a snapshot for `key` lives (for messages and tests). */
export function snapshotFile(dir: string, key: string): string {
  return join(dir, `${key}.snap`);
}

/** Snapshots not used for this long are removed (a svc version or config entry gone by). */
const UNUSED_MS = 30 * 24 * 3600 * 1000;

/** Marks a snapshot as used now (its age is what `prune` goes by). */
export async function touchSnapshot(file: string): Promise<void> {
  const now = new Date();
  // Stryker disable next-line ArrowFunction: () => undefined is the same empty handler
  await utimes(file, now, now).catch(() => {});
}

/**
 * Removes snapshots unused for 30 days and temp files left by a write that died. Other daemons
 * (other configs) share the folder, so age is the only safe test. Never throws.
 */
export async function pruneSnapshots(dir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^[0-9a-f]{40}\.snap$/.test(name) && !/^\.[0-9a-f]{40}\.\d+\.[0-9a-f]{8}\.tmp$/.test(name)) continue;
    const file = join(dir, name);
    try {
      const st = await lstat(file);
      const limit = name.endsWith('.tmp') ? 24 * 3600 * 1000 : UNUSED_MS;
      if (st.isFile() && now - st.mtimeMs > limit) {
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: force matters only for a file removed by someone else between the lstat above and here
        await rm(file, { force: true });
        removed++;
      }
    } catch {
      // Gone already, or not ours to judge.
    }
  }
  return removed;
}
