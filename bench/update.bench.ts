// `svc update` on a real daemon process serving ten real API descriptions (GitHub's among them):
// with nothing changed, and with one changed spec (small, medium, GitHub). Measures the daemon's
// own time (from its reply), the IPC round trip from this process, and the CLI's wall time
// (a fresh `svc update` process, as a person runs it).
// Targets: no-change update under 20 ms in the daemon; one changed spec costs about its own
// import, not the sum of all specs.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '../src/ipc/client.ts';
import type { UpdateResult } from '../src/ipc/protocol.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(REPO, '../shared/specs');
const SVC_BIN = path.join(REPO, 'bin', 'svc.js');
/** GitHub's description as the import bench caches it (npm pack @octokit/openapi). */
const GITHUB_CACHE = path.join(REPO, '.cache', 'octokit-openapi');

const CORPUS_SPECS: readonly [name: string, rel: string][] = [
  ['kubernetes', 'swagger-2.0/kubernetes/swagger.json'],
  ['jira', 'openapi-3.0/atlassian-jira/platform-swagger.v3.json'],
  ['box', 'openapi-3.0/box/openapi.json'],
  ['slack', 'swagger-2.0/slack/slack_web_openapi_v2.json'],
  ['discord', 'openapi-3.1/discord/openapi.json'],
  ['xero', 'openapi-3.0/xero/xero_accounting.yaml'],
  ['twitter', 'postman/twitter/Twitter API v2.postman_collection.json'],
  ['spotify', 'openapi-3.0/spotify/official-spotify-open-api.yml'],
  ['petstore', 'openapi-3.0/swagger-petstore/openapi.yaml'],
];

const NO_CHANGE_RUNS = 20;
const CLI_RUNS = 5;

function githubFile(): string | undefined {
  if (!existsSync(GITHUB_CACHE)) return undefined;
  for (const v of readdirSync(GITHUB_CACHE).sort().reverse()) {
    const f = path.join(GITHUB_CACHE, v, 'package', 'generated', 'api.github.com.json');
    if (existsSync(f)) return f;
  }
  return undefined;
}

function nodeArgs(): string[] {
  return process.features?.typescript ? [] : ['--import', 'tsx'];
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function max(xs: readonly number[]): number {
  return Math.max(...xs);
}

const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '-');

interface Daemon {
  readonly child: ChildProcess;
  readonly socket: string;
  readonly loadMs: number;
}

async function startDaemon(configFile: string, env: NodeJS.ProcessEnv): Promise<Daemon> {
  const child = spawn(process.execPath, [...nodeArgs(), SVC_BIN, 'serve', '--config', configFile, '--transport', 'sse', '--port', '0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    const sock = /control socket (\S+)/.exec(err);
    const loaded = /loaded \d+ spec\(s\), \d+ endpoints in (\d+) ms/.exec(err);
    if (sock && loaded) return { child, socket: sock[1]!, loadMs: Number(loaded[1]) };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`svc serve did not start:\n${err}`);
    await sleep(50);
  }
}

function cliUpdate(configFile: string, env: NodeJS.ProcessEnv): Promise<{ wallMs: number; result: UpdateResult }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs(), SVC_BIN, 'update', '--json', '--config', configFile], { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const wallMs = performance.now() - started;
      try {
        const json = JSON.parse(out) as { daemons: { result: UpdateResult }[] };
        resolve({ wallMs, result: json.daemons[0]!.result });
      } catch {
        reject(new Error(`svc update printed no JSON: ${out}`));
      }
    });
  });
}

/** Two versions of a spec's text that differ in one endpoint's summary (where it has one). */
function variants(file: string): [string, string] {
  const text = readFileSync(file, 'utf8');
  const json = /"summary"\s*:\s*"/.exec(text);
  const yaml = /\bsummary: /.exec(text);
  const m = json ?? yaml;
  // No summary (Kubernetes, Postman): any byte changes the hash, which is all the full run needs.
  if (!m) return [text, `${text}\n`];
  const at = m.index + m[0].length;
  return [text, `${text.slice(0, at)}Benchmarked ${text.slice(at)}`];
}

export async function run(): Promise<string> {
  const title = '## svc update (daemon with ten real specs)';
  const github = githubFile();
  if (!existsSync(CORPUS) || !github) {
    return `${title}\n\nSkipped: needs the corpus at ../shared/specs and GitHub's description in .cache/octokit-openapi (run the import bench first).\n`;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-update-'));
  const runtime = mkdtempSync(path.join(tmpdir(), 'svc-bench-rt-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
  delete env['SVC_SOCKET'];
  let daemon: Daemon | undefined;
  try {
    // Copies in a temp folder: the benchmark edits them.
    mkdirSync(path.join(dir, 'specs'));
    const files = new Map<string, string>();
    const copy = (name: string, from: string): void => {
      const to = path.join(dir, 'specs', `${name}${path.extname(from)}`);
      copyFileSync(from, to);
      files.set(name, to);
    };
    copy('github', github);
    for (const [name, rel] of CORPUS_SPECS) copy(name, path.join(CORPUS, rel));
    const configFile = path.join(dir, 'svc.yaml');
    writeFileSync(configFile, `specs:\n${[...files].map(([name, f]) => `  - path: ${JSON.stringify(f)}\n    name: ${name}\n`).join('')}`);

    daemon = await startDaemon(configFile, env);
    const socket = daemon.socket;
    // The first update primes nothing new (serve seeded the digests); warm the code paths.
    await request(socket, 'update', {}, { timeoutMs: 120_000 });

    // Nothing changed: daemon time and IPC round trip from here.
    const daemonMs: number[] = [];
    const roundTrip: number[] = [];
    for (let i = 0; i < NO_CHANGE_RUNS; i++) {
      const t0 = performance.now();
      const r = await request(socket, 'update', {}, { timeoutMs: 120_000 });
      roundTrip.push(performance.now() - t0);
      daemonMs.push(r.ms);
      if (r.changed) throw new Error('a no-change update changed something');
    }
    const cliMs: number[] = [];
    for (let i = 0; i < CLI_RUNS; i++) cliMs.push((await cliUpdate(configFile, env)).wallMs);

    // The cost of importing everything, for comparison: every spec re-imported in one update.
    const all = new Map([...files].map(([name, f]) => [name, variants(f)]));
    for (const [name, [, changed]] of all) writeFileSync(files.get(name)!, changed);
    const full = await request(socket, 'update', {}, { timeoutMs: 600_000 });
    for (const [name, [orig]] of all) writeFileSync(files.get(name)!, orig);
    const restored = await request(socket, 'update', {}, { timeoutMs: 600_000 });
    const sumImports = full.specs.reduce((n, s) => n + s.ms, 0);

    // One changed spec among ten.
    const rows: string[] = [];
    for (const [name, runs] of [['petstore', 5], ['xero', 3], ['github', 3]] as const) {
      const [orig, changed] = all.get(name)!;
      const d: number[] = [];
      const own: number[] = [];
      const wall: number[] = [];
      const diffs: number[] = [];
      const index: number[] = [];
      for (let i = 0; i < runs; i++) {
        writeFileSync(files.get(name)!, i % 2 === 0 ? changed : orig);
        const { wallMs, result } = await cliUpdate(configFile, env);
        const spec = result.specs.find((s) => s.name === name)!;
        if (spec.state !== 'changed' || spec.changed.count !== 1) throw new Error(`${name}: expected one changed endpoint, got ${JSON.stringify(spec)}`);
        d.push(result.ms);
        own.push(spec.ms);
        wall.push(wallMs);
        diffs.push(result.phases?.diff ?? NaN);
        index.push(result.phases?.index ?? NaN);
      }
      writeFileSync(files.get(name)!, orig);
      await request(socket, 'update', {}, { timeoutMs: 600_000 });
      const endpoints = full.specs.find((s) => s.name === name);
      rows.push(`| one changed: ${name} | ${runs} | ${f1(median(d))} (max ${f1(max(d))}) | ${f1(median(own))} | ${f1(median(diffs))} | ${f1(median(index))} | ${f1(median(wall))} |`);
    }

    const totalEndpoints = full.specs.length;
    return [
      title,
      '',
      `Ten specs (${[...files.keys()].join(', ')}), ${totalEndpoints} specs served by one \`svc serve\` process (HTTP transport); first load ${daemon.loadMs} ms.`,
      `Daemon ms: the update's own time as the daemon reports it; of that, the changed spec's import, the endpoint diff (with \$ref targets) and the catalogue's re-index. CLI wall: a fresh \`svc update --json\` process, start to exit.`,
      '',
      '| case | runs | daemon ms, median | its import ms | diff ms | re-index ms | CLI wall ms, median |',
      '|---|---:|---:|---:|---:|---:|---:|',
      `| nothing changed | ${NO_CHANGE_RUNS} | ${f1(median(daemonMs))} (max ${f1(max(daemonMs))}) | - | - | - | ${f1(median(cliMs))} (${CLI_RUNS} runs) |`,
      ...rows,
      `| every spec changed (for comparison) | 1 | ${f1(full.ms)} | sum ${f1(sumImports)} | ${f1(full.phases?.diff ?? NaN)} | ${f1(full.phases?.index ?? NaN)} | - |`,
      '',
      `IPC round trip for a no-change update from an already running client: median ${f1(median(roundTrip))} ms. Restoring all ten afterwards took ${f1(restored.ms)} ms.`,
      `Target: no-change update under 20 ms in the daemon: ${median(daemonMs) < 20 ? 'met' : 'NOT met'}.`,
      '',
    ].join('\n');
  } finally {
    if (daemon) {
      daemon.child.kill('SIGTERM');
      await new Promise((r) => daemon!.child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(runtime, { recursive: true, force: true });
  }
}

// Run alone: node --import tsx bench/update.bench.ts
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(await run());
}
