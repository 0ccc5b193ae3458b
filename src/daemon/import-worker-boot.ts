// The import worker's entry: turns on Node's compile cache in this thread too (the daemon's own
// call covers its main thread only), then loads the worker. Without it a worker compiles the
// importers afresh on every start, about a second of the first import on a busy machine. The
// thread glue is this file's; the job handling (import-worker.ts) runs in-process in its tests.
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { traceStep, traceThread } from './start-trace.ts';

traceThread('worker');
traceStep('boot');
const dir = (workerData as { compileCache?: string } | undefined)?.compileCache;
if (dir) {
  try {
    module.enableCompileCache?.(dir);
  } catch {
    // Runs without it.
  }
}
const { serveJobs } = await import('./import-worker.ts');
if (parentPort) serveJobs(parentPort);
