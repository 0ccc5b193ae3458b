// Start-up trace: with SVC_TRACE_START=1, each step of `svc serve`'s start writes one line to stderr
// (`svc-trace <epoch ms> <thread> <step> (cpu <this thread's CPU ms>)`), so where the milliseconds from spawn to the first
// answer go can be read off one run, the import worker's steps included. Off, it costs one check.
import { writeSync } from 'node:fs';

const ON = process.env['SVC_TRACE_START'] === '1';
/**
 * The thread the lines name: the import worker's entry says it is the worker (traceThread), so
 * that this module need not load Node's worker_threads to ask (a warm start starts no worker).
 */
let thread: 'main' | 'worker' = 'main';

/** Called first thing by the import worker's entry: its lines name the worker. */
export function traceThread(name: 'main' | 'worker'): void {
  thread = name;
}

/** Writes `step` with the time now, when tracing is on. */
export function traceStep(step: string): void {
  if (!ON) return;
  // CPU time tells the work apart from waiting on a busy machine (Node 23.9+ has the call).
  const used = process.threadCpuUsage?.();
  const cpu = used ? ` (cpu ${((used.user + used.system) / 1000).toFixed(0)})` : '';
  const line = `svc-trace ${(performance.timeOrigin + performance.now()).toFixed(1)} ${thread} ${step}${cpu}\n`;
  // Straight to the file descriptor: a worker's process.stderr goes through the main thread, and
  // what it still holds is lost when the worker is ended right after its job (as at start).
  try {
    writeSync(2, line);
  } catch {
    // stderr closed: nothing to trace to.
  }
}
