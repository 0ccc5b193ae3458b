// The cache folder of a spawned `svc serve` in tests: its own temp folder (snapshots never go to
// the user's cache, and no test serves another's), while Node's compile cache stays the user's
// shared one (a cold one would slow every start down).
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCache {
  /** XDG_CACHE_HOME and NODE_COMPILE_CACHE for the child. */
  readonly env: { readonly XDG_CACHE_HOME: string; readonly NODE_COMPILE_CACHE: string };
  cleanup(): void;
}

export function testCache(parent: string = tmpdir()): TestCache {
  const dir = mkdtempSync(join(parent, 'svc-cache-'));
  const userCache = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return {
    env: { XDG_CACHE_HOME: dir, NODE_COMPILE_CACHE: process.env['NODE_COMPILE_CACHE'] || join(userCache, 'svc', 'node-compile-cache') },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
