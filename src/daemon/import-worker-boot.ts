// The import worker's entry: turns on Node's compile cache in this thread too (the daemon's own
// call covers its main thread only), then loads the worker. Without it a worker compiles the
// importers afresh on every start, about a second of the first import on a busy machine.
import module from 'node:module';
import { workerData } from 'node:worker_threads';
import { traceStep } from './start-trace.ts';

traceStep('boot');
const dir = (workerData as { compileCache?: string } | undefined)?.compileCache;
if (dir) {
  try {
    module.enableCompileCache?.(dir);
  } catch {
    // Runs without it.
  }
}
await import('./import-worker.ts');
