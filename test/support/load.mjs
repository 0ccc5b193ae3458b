// Preloaded into every test process by `npm test` (`node --import ./test/support/load.mjs --test`):
// Node strips the TypeScript types itself, and its compile cache keeps the stripped and compiled
// modules between the test processes, so each of the ~150 test files stops paying for loading the
// same sources again (the same cache `svc` itself uses). A Node with type stripping turned off
// loads the sources through tsx instead.
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

if (process.features?.typescript) {
  if (!process.env.NODE_COMPILE_CACHE && !process.env.NODE_DISABLE_COMPILE_CACHE) {
    try {
      module.enableCompileCache?.(join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc', 'node-compile-cache'));
    } catch {
      // No home folder or cache: load without it.
    }
  }
} else {
  const { register } = await import('tsx/esm/api');
  register();
}
