// Test support for the daemon: real `svc serve` processes, the real CLI, real files and sockets in
// a temporary folder. Each project gets its own XDG_RUNTIME_DIR, so tests never see each other's
// (or the user's) daemons.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { lifelineArgs } from '../support/lifeline.ts';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SVC_BIN = join(REPO_ROOT, 'bin', 'svc.js');

/** Node 24 runs bin/svc.js directly (type stripping); older Node needs the tsx loader.
 * The lifeline check ends the spawned process when this test process is gone (killed before its
 * `after` hooks ran). */
export function nodeArgs(): string[] {
  return [...lifelineArgs(), ...(process.features?.typescript ? [] : ['--import', 'tsx'])];
}

export interface Op {
  readonly method: string;
  readonly path: string;
  readonly summary?: string;
  readonly deprecated?: boolean;
  readonly tag?: string;
}

/** A small OpenAPI 3.0 document as YAML text, one operation per entry. */
export function openapi(title: string, ops: readonly Op[]): string {
  const byPath = new Map<string, Op[]>();
  for (const op of ops) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const lines = ['openapi: 3.0.3', 'info:', `  title: ${title}`, "  version: '1.0'", 'servers:', '  - url: http://127.0.0.1:9/api', 'paths:'];
  for (const [path, list] of byPath) {
    lines.push(`  ${path}:`);
    for (const op of list) {
      lines.push(`    ${op.method.toLowerCase()}:`);
      if (op.summary !== undefined) lines.push(`      summary: ${JSON.stringify(op.summary)}`);
      if (op.tag !== undefined) lines.push(`      tags: [${op.tag}]`);
      if (op.deprecated) lines.push('      deprecated: true');
      lines.push('      responses:', "        '200':", '          description: OK');
    }
  }
  return `${lines.join('\n')}\n`;
}

export interface Project {
  readonly dir: string;
  readonly configFile: string;
  /** XDG_RUNTIME_DIR for every process of this project. */
  readonly runtime: string;
  readonly env: NodeJS.ProcessEnv;
  write(rel: string, text: string): string;
  /** svc.yaml listing these spec files (relative to the project). */
  config(specs: readonly string[], extra?: string): void;
  cleanup(): void;
}

export function project(): Project {
  const dir = mkdtempSync(join(tmpdir(), 'svc-daemon-'));
  const runtime = mkdtempSync(join(tmpdir(), 'svc-rt-'));
  const configFile = join(dir, 'svc.yaml');
  // Snapshots go to the project's own cache folder, never the user's; Node's compile cache stays
  // where it is (a cold one would slow every start down).
  const userCache = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_RUNTIME_DIR: runtime,
    // The HTTP token svc creates goes to a state folder of this project, never the user's own.
    XDG_STATE_HOME: join(runtime, 'state'),
    XDG_CACHE_HOME: join(runtime, 'cache'),
    NODE_COMPILE_CACHE: process.env['NODE_COMPILE_CACHE'] || join(userCache, 'svc', 'node-compile-cache'),
  };
  delete env['SVC_SOCKET'];
  delete env['SVC_CONFIG'];
  const write = fileWriter(dir);
  return {
    dir,
    configFile,
    runtime,
    env,
    write,
    config(specs, extra = '') {
      write('svc.yaml', `${extra}specs:\n${specs.map((s) => `  - path: ${s}\n`).join('')}`);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
      rmSync(runtime, { recursive: true, force: true });
    },
  };
}

export interface Daemon {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly socket: string;
  /** stderr so far. */
  stderr(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `svc serve` (HTTP on a free port unless args say otherwise) and waits for its control socket. */
export async function startDaemon(p: Project, args: readonly string[] = ['--transport', 'http', '--port', '0'], env: NodeJS.ProcessEnv = {}, loadMs = 20_000): Promise<Daemon> {
  const child = spawn(process.execPath, [...nodeArgs(), SVC_BIN, 'serve', '--config', p.configFile, ...args], {
    cwd: p.dir,
    env: { ...p.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + loadMs;
  let socket: string | undefined;
  while (!socket) {
    const m = /control socket (\S+)/.exec(err);
    if (m) socket = m[1]!;
    else if (child.exitCode !== null) throw new Error(`svc serve exited ${child.exitCode}:\n${err}`);
    else if (Date.now() > deadline) {
      child.kill();
      throw new Error(`svc serve did not start:\n${err}`);
    }
    else await sleep(20);
  }
  // Wait for the first import too, so tests start from a served catalogue.
  while (!/loaded \d+ spec/.test(err)) {
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`svc serve did not load:\n${err}`);
    }
    await sleep(20);
  }
  return {
    child,
    pid: child.pid!,
    socket,
    stderr: () => err,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs the real CLI (`svc ARGS --config <project>`) to completion. */
export function svc(p: Project, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs(), SVC_BIN, ...args, '--config', p.configFile], { cwd: p.dir, env: { ...p.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

export async function svcJson<T>(p: Project, args: readonly string[]): Promise<{ run: Run; json: T }> {
  const run = await svc(p, [...args, '--json']);
  try {
    return { run, json: JSON.parse(run.stdout) as T };
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

export { until, within } from '../support/until.ts';


/** Writes `text` to `rel` under `dir`, making its folders; returns the file's path. */
export function fileWriter(dir: string): (rel: string, text: string) => string {
  return (rel, text) => {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
}

/** Imports spec text written to a new file under `dir` (spec name `s`); the import must succeed. */
export function specImporter(dir: string): (text: string) => Promise<ImportedSpec> {
  let serial = 0;
  return async (text) => {
    const file = join(dir, `s${serial++}.yaml`);
    writeFileSync(file, text);
    const o = await importSpec(file, { name: 's', collection: 'default' });
    if (!o.ok) throw new Error(`import failed: ${JSON.stringify(o.errors)}`);
    return o.spec;
  };
}
