// Content digests of snapshot parts: whole, or a megabyte at a time where the daemon's main thread
// must let other work in between.
import { createHash } from 'node:crypto';

/** Whether `v` reads as a SHA-256 digest as `sha256` writes it (64 lower-case hex digits). */
export function isSha256Hex(v: unknown): v is string {
  return typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `sha256(bytes)`, yielding every megabyte (the caller lets the thread go in between). */
export function* sha256Steps(bytes: Uint8Array): Generator<void, string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += 1024 * 1024) {
    if (at > 0) yield;
    hash.update(bytes.subarray(at, at + 1024 * 1024));
  }
  return hash.digest('hex');
}
