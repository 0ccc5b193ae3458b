// Counters for `svc status`: connected MCP sessions and tool calls with latency percentiles.
// The MCP adapter reports into this; it knows nothing of MCP itself.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LatencySummary } from '../ipc/protocol.ts';

/** How often the CPU probe looks while updates run (ms). */
const CPU_PROBE_MS = 5;

/** This thread's CPU time in ms (the process's, on a Node without `threadCpuUsage`). */
function threadCpuMs(): number {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Latencies kept per series: enough for stable p99s, bounded memory however long the daemon runs. */
const WINDOW = 4096;

class Series {
  count = 0;
  errors = 0;
  readonly #samples = new Float64Array(WINDOW);
  #next = 0;

  add(ms: number, ok: boolean): void {
    this.count++;
    if (!ok) this.errors++;
    this.#samples[this.#next % WINDOW] = ms;
    this.#next++;
  }

  summary(): LatencySummary {
    const n = Math.min(this.#next, WINDOW);
    const sorted = this.#samples.slice(0, n).sort();
    // Nearest rank: ceil(q * n) - 1 lies in 0..n-1 for 0 < q <= 1 and n >= 1.
    const at = (q: number): number => (n === 0 ? 0 : Math.round(sorted[Math.ceil(q * n) - 1]! * 100) / 100);
    return { count: this.count, errors: this.errors, p50Ms: at(0.5), p99Ms: at(0.99) };
  }
}

export class Metrics {
  #sessions = 0;
  /** How long the event loop was held (what every caller waits on top of its own work), since start. */
  readonly #loop = (() => {
    // Stryker disable next-line ObjectLiteral: 10 ms is Node's default resolution; said here so it stays so
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    return h;
  })();

  /**
   * The same over the time updates ran (enabled only then): what `svc update` cost everyone
   * else. The import runs in the worker; what is left on this thread (decoding the result,
   * preparing it in steps, the swap) must never hold it long.
   */
  // Stryker disable next-line ObjectLiteral: 10 ms is Node's default resolution; said here so it stays so
  readonly #updateLoop = monitorEventLoopDelay({ resolution: 10 });
  #updatesRunning = 0;
  /**
   * While updates run, this thread's CPU time between two turns of its event loop, at most: the
   * same holds measured so, whatever else runs on the machine (a wait for a core is not counted).
   */
  #cpuProbe: NodeJS.Timeout | undefined;
  #maxCpuMs = 0;

  /** Event-loop delay since start: p99 and the worst, in ms; `updates`: the same while updates ran, once one has. */
  eventLoop(): { p99Ms: number; maxMs: number; updates?: { p99Ms: number; maxMs: number; maxCpuMs: number } } {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const u = this.#updateLoop;
    return {
      p99Ms: ms(this.#loop.percentile(99)),
      maxMs: ms(this.#loop.max),
      ...(u.count > 0 ? { updates: { p99Ms: ms(u.percentile(99)), maxMs: ms(u.max), maxCpuMs: Math.round(this.#maxCpuMs * 10) / 10 } } : {}),
    };
  }

  updateStarted(): void {
    if (this.#updatesRunning++ > 0) return;
    this.#updateLoop.enable();
    let last = threadCpuMs();
    this.#cpuProbe = setInterval(() => {
      const now = threadCpuMs();
      this.#maxCpuMs = Math.max(this.#maxCpuMs, now - last);
      last = now;
    }, CPU_PROBE_MS);
    this.#cpuProbe.unref();
  }

  updateEnded(): void {
    this.#updatesRunning = Math.max(0, this.#updatesRunning - 1);
    if (this.#updatesRunning > 0) return;
    this.#updateLoop.disable();
    clearInterval(this.#cpuProbe);
    this.#cpuProbe = undefined;
  }
  readonly #all = new Series();
  readonly #byTool = new Map<string, Series>();

  sessionOpened(): void {
    this.#sessions++;
  }

  sessionClosed(): void {
    this.#sessions = Math.max(0, this.#sessions - 1);
  }

  get sessions(): number {
    return this.#sessions;
  }

  /** One tool call finished (`ok` false when it returned isError or threw). */
  toolCall(tool: string, ms: number, ok: boolean): void {
    this.#all.add(ms, ok);
    let s = this.#byTool.get(tool);
    if (!s) this.#byTool.set(tool, (s = new Series()));
    s.add(ms, ok);
  }

  /** Times `run` as a call of `tool`. */
  async time<T extends { isError?: boolean }>(tool: string, run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    let ok = false;
    try {
      const result = await run();
      ok = !result.isError;
      return result;
    } finally {
      this.toolCall(tool, performance.now() - t0, ok);
    }
  }

  toolCalls(): LatencySummary & { byTool: Record<string, LatencySummary> } {
    const byTool: Record<string, LatencySummary> = {};
    for (const [name, s] of [...this.#byTool].sort(([a], [b]) => a.localeCompare(b))) byTool[name] = s.summary();
    return { ...this.#all.summary(), byTool };
  }
}
