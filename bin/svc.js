#!/usr/bin/env node
// Entry point: only wires. An installed package runs the bundled JavaScript in dist/app (Node strips
// types only outside node_modules; see scripts/build.mjs); a checkout, which has src/ and no need
// to build, runs the TypeScript sources directly (type stripping; tsx when Node has it turned off).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { nodeProblem } from './node-version.js';

if (process.env.SVC_TRACE_START === '1') process.stderr.write(`svc-trace ${(performance.timeOrigin + performance.now()).toFixed(1)} main bin\n`);

const tooOld = nodeProblem(process.versions.node);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}

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

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  if (!process.features?.typescript) {
    const { register } = await import('tsx/esm/api');
    register();
  }
  await import(source.href);
} else {
  await import('../dist/app/main.js');
}
