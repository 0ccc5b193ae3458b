// What Linux says of a running process (/proc), for the start-up benches: memory and CPU time.
// NaN where /proc is not there or the process has gone.
import { readFileSync } from 'node:fs';

/** A memory field of /proc/<pid>/status in bytes: VmHWM is the peak resident set, VmRSS the current one. */
export function procMemory(pid: number | null | undefined, field: 'VmHWM' | 'VmRSS'): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system, every thread) the process has used so far: less sensitive to a busy machine than wall time. */
export function cpuMs(pid: number | null | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks: 100 a second on Linux
  } catch {
    return NaN;
  }
}

/**
 * A full collection that also frees what finalizers release: the memory of an ArrayBuffer no
 * longer referenced goes back after the collection that found it dead, so one gc() can leave it
 * counted in `external` and a later baseline then sees it fall.
 */
export async function fullGc(): Promise<void> {
  if (!globalThis.gc) return;
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc();
}
