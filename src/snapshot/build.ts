// What build of svc made a snapshot. The package version alone does not say: between releases (and
// in every working copy) the code that builds endpoints and search indexes changes under the same
// version, and a snapshot built by other code would serve another index (other terms, other
// pruning bounds) without anyone noticing. So the key also holds a hash of the code that shapes a
// snapshot's contents, read from the running build's own files (.ts in a checkout, .js installed).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders (beside this one) whose code decides what a snapshot holds. */
export const SHAPING_FOLDERS = ['catalog', 'daemon', 'import', 'model', 'snapshot'] as const;

/**
 * sha256 (hex, 16 characters) over the path and contents of every file in `SHAPING_FOLDERS` under
 * `root` (default: the folder of this build's modules, or the fingerprint a bundle was built with),
 * in sorted order. A folder that is missing counts as empty.
 */
export async function buildFingerprint(root?: string): Promise<string> {
  // The installed bundle has no source folders: its build wrote the fingerprint into it.
  if (root === undefined && typeof SVC_BUILD_FINGERPRINT === 'string') return SVC_BUILD_FINGERPRINT;
  return fingerprintOf(root ?? fileURLToPath(new URL('..', import.meta.url)));
}

/** Set by the bundler (scripts/build.mjs) to the fingerprint of the sources it bundled. */
declare const SVC_BUILD_FINGERPRINT: string | undefined;

// Synchronous on purpose: a checkout's start computes this first thing (the snapshot keys wait for
// it), while the modules load; read asynchronously, each of the few dozen small files waited behind
// that loading, and a cold start sent its import to the worker over 100 ms later.
function fingerprintOf(root: string): string {
  const files: string[] = [];
  for (const folder of SHAPING_FOLDERS) {
    let entries;
    try {
      entries = readdirSync(join(root, folder), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) if (e.isFile()) files.push(join(e.parentPath, e.name));
  }
  files.sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file)).update('\0');
    hash.update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
