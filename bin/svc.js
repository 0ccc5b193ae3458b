#!/usr/bin/env node
// Entry point: only wires. Node >= 22.18 runs the TypeScript sources directly (type stripping);
// older Node 22 releases load them through tsx.
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Node's compile cache keeps the compiled (and type-stripped) modules between runs: start-up
// drops from about 300 ms of module loading to about 60. It lives in the user's own cache folder,
// not the shared temp folder, so no other user can plant code in it. NODE_DISABLE_COMPILE_CACHE=1
// turns it off; NODE_COMPILE_CACHE=<dir> moves it.
if (!process.env.NODE_COMPILE_CACHE) {
  try {
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    module.enableCompileCache?.(join(base, 'svc', 'node-compile-cache'));
  } catch {
    // No home folder or cache: run without it.
  }
}
if (!process.features?.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('../src/cli/main.ts');
