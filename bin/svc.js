#!/usr/bin/env node
// Entry point: only wires. An installed package runs the bundled JavaScript in dist/app (Node strips
// types only outside node_modules; see scripts/build.mjs); a checkout, which has src/ and no need
// to build, runs the TypeScript sources directly (type stripping; tsx when Node has it turned off).
// Node's modules through require, not ES module imports (see node-version.js).
import module, { createRequire } from 'node:module';
import { nodeProblem } from './node-version.js';

const require = createRequire(import.meta.url);
const { existsSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');
const { fileURLToPath } = require('node:url');

// SVC_TRACE_START=1: the start's steps on stderr (src/daemon/start-trace.ts writes the same lines).
const traceStep =
  process.env.SVC_TRACE_START === '1'
    ? (step) => {
        const used = process.threadCpuUsage?.();
        const cpu = used ? ` (cpu ${((used.user + used.system) / 1000).toFixed(0)})` : '';
        process.stderr.write(`svc-trace ${(performance.timeOrigin + performance.now()).toFixed(1)} main ${step}${cpu}\n`);
      }
    : undefined;
traceStep?.('bin');

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
} else if (process.argv.includes('serve') && existsSync(new URL('../dist/app/script.json', import.meta.url))) {
  // The installed package's daemon: one script with a code cache of its own (see script-cache.js).
  // The short commands (status, update, check) load less from the ES modules, which cost them less
  // than deserializing the daemon's whole code cache.
  const { codeCacheDir, runScript } = await import('./script-cache.js');
  let home;
  try {
    home = homedir();
  } catch {
    // No home folder: no cache unless XDG_CACHE_HOME names one.
  }
  const cacheDir = codeCacheDir(process.env, home);
  const program = runScript(fileURLToPath(new URL('../dist/app/', import.meta.url)), cacheDir, traceStep);
  if (program) process.exitCode = await program.runCli(process.argv);
  else {
    if (cacheDir !== undefined) {
      // No code cache: the first start of this build, whose snapshots are all stale (the build is
      // in their key), so this start imports. Its import worker starts now, in parallel with the
      // rest of the start; a start that finds its snapshots after all ends it unused.
      const { prestartImportWorker } = await import('../dist/app/import-pool.js');
      prestartImportWorker();
    }
    await import('../dist/app/main.js');
  }
} else {
  await import('../dist/app/main.js');
}
