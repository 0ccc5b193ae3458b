// Counters for `svc status`: connected MCP sessions and tool calls with latency percentiles.
// The MCP adapter reports into this; it knows nothing of MCP itself.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LatencySummary } from '../ipc/protocol.ts';

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
    const at = (q: number): number => (n === 0 ? 0 : Math.round(sorted[Math.min(n - 1, Math.ceil(q * n) - 1)]! * 100) / 100);
    return { count: this.count, errors: this.errors, p50Ms: at(0.5), p99Ms: at(0.99) };
  }
}

export class Metrics {
  #sessions = 0;
  /** How long the event loop was held (what every caller waits on top of its own work), since start. */
  readonly #loop = (() => {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    return h;
  })();

  /** Event-loop delay since start: p99 and the worst, in ms. */
  eventLoop(): { p99Ms: number; maxMs: number } {
    return { p99Ms: Math.round(this.#loop.percentile(99) / 1e5) / 10, maxMs: Math.round(this.#loop.max / 1e5) / 10 };
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
