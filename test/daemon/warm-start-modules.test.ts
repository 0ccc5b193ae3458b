// What loading the daemon costs a start that imports nothing: Node's worker_threads module is loaded
// with the first import worker, not with the daemon's modules (a warm start starts no worker), and
// the trace still names the worker's own lines (src/daemon/start-trace.ts, told by the worker's entry).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const SERVE = pathToFileURL(new URL('../../src/daemon/serve.ts', import.meta.url).pathname).href;
const POOL = pathToFileURL(new URL('../../src/daemon/import-pool.ts', import.meta.url).pathname).href;

/** Runs `code` (an ES module) in a fresh Node that strips types itself; its stdout. */
function fresh(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
}

test('the daemon loads Node\'s worker_threads only once it starts an import worker', { skip: !process.features?.typescript && 'Node strips no types here' }, () => {
  const loaded = "process.moduleLoadList.includes('NativeModule worker_threads')";
  assert.equal(fresh(`await import(${JSON.stringify(SERVE)}); console.log(${loaded});`).trim(), 'false');
  const started = fresh(`const { prestartImportWorker, dropPrestartedWorker } = await import(${JSON.stringify(POOL)}); const before = ${loaded}; prestartImportWorker(); console.log(before, ${loaded}); await dropPrestartedWorker();`);
  assert.equal(started.trim(), 'false true');
});
