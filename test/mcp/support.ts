// Test support for the MCP front end: real fixture files in a temp folder, the real importer and
// catalogue, and real SDK clients (in memory, over a spawned `svc serve` on stdio, SSE and Streamable HTTP).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { SessionContext } from '../../src/mcp/server.ts';
import { importConfigured, loadedSpecs } from '../../src/daemon/start-load.ts';
import { type TestCache, testCache } from '../support/cache.ts';
import { lifelineArgs } from '../support/lifeline.ts';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'mcp');
export const SPECS = join(FIXTURES, 'specs');
export const SVC_BIN = join(REPO_ROOT, 'bin', 'svc.js');

export type SessionContextValue = SessionContext;

export interface Workspace {
  readonly dir: string;
  readonly configFile: string;
  /** For a daemon spawned over this workspace: its cache folder (snapshots) inside the workspace. */
  readonly env: TestCache['env'];
  cleanup(): Promise<void>;
}

/** A temp folder with an svc.yaml over the fixture specs (absolute paths: the files stay where they are). */
export async function workspace(options: { broken?: boolean; serve?: string; zoo?: string } = {}): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-mcp-'));
  const lines = [
    ...(options.serve ? ['serve:', ...options.serve.split('\n').map((l) => `  ${l}`)] : []),
    'specs:',
    `  - path: ${JSON.stringify(join(SPECS, 'zoo', 'zoo.yaml'))}`,
    '    collection: park',
    ...(options.zoo ? options.zoo.split('\n').map((l) => `    ${l}`) : []),
    `  - path: ${JSON.stringify(join(SPECS, 'weather', 'weather.json'))}`,
    '    collection: outdoor',
    ...(options.broken ? [`  - path: ${JSON.stringify(join(SPECS, 'broken.yaml'))}`, '    collection: park'] : []),
  ];
  const configFile = join(dir, 'svc.yaml');
  await writeFile(configFile, `${lines.join('\n')}\n`);
  return { dir, configFile, env: testCache(dir).env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The real catalogue, config and invoker for a config file, as the daemon builds them. */
export async function sessionContext(configFile: string): Promise<SessionContext> {
  const config = await loadConfig(configFile);
  const catalog = new Catalog(loadedSpecs(await importConfigured(config)));
  return { catalog, config, invoker: createInvoker(config) };
}

/** A 1.x SDK Client talking to a fresh server (2025-11-25 era) over the 1.x SDK's in-memory transport. */
export async function inMemoryClient(context: SessionContext, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const server = createMcpServer({ context: () => context }, { connection: true });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport as unknown as Parameters<typeof server.connect>[0]);
  const client = new Client({ name: 'svc-test', version: '1.0.0' }, { capabilities });
  await client.connect(clientTransport);
  return client;
}

export function textOf(result: unknown): string {
  const r = result as CallToolResult;
  return r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Node 24 with type stripping runs bin/svc.js directly; older Node needs the tsx loader.
 * The lifeline check ends the spawned process when this test process is gone (killed before its
 * `after` hooks ran). */
export function nodeArgs(): string[] {
  return [...lifelineArgs(), ...(process.features?.typescript ? [] : ['--import', 'tsx'])];
}

export interface Spawned {
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the first stderr match of `pattern`. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function spawnSvc(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Spawned {
  // Snapshots go to a cache folder of this process's own unless the test names one.
  const cache = options.env?.['XDG_CACHE_HOME'] === undefined ? testCache() : undefined;
  const child = spawn(process.execPath, [...nodeArgs(), SVC_BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...cache?.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  const waiters: (() => void)[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    err += chunk;
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      cache?.cleanup();
      resolve(code);
    }),
  );
  return {
    child,
    stderr: () => err,
    exited,
    waitForStderr(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern} on stderr; got:\n${err}`)), timeoutMs);
        const check = (): void => {
          const m = pattern.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve(m);
          } else waiters.push(check);
        };
        void exited.then(() => {
          const m = pattern.exec(err);
          if (!m) {
            clearTimeout(timer);
            reject(new Error(`svc exited before printing ${pattern}; stderr:\n${err}`));
          }
        });
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The state folder a test's daemon keeps its HTTP token in: beside the test's svc.yaml, never the user's own. */
export function stateHome(configFile: string): string {
  return join(dirname(configFile), 'state');
}

/** Start `svc serve --transport http --port 0` and read the bound base URL from stderr, and the token svc created. */
export async function spawnHttp(
  configFile: string,
  extra: readonly string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<Spawned & { url: string; token: string; headers: Record<string, string> }> {
  const proc = spawnSvc(['serve', '--config', configFile, '--transport', 'http', '--port', '0', ...extra], { env: { XDG_STATE_HOME: stateHome(configFile), ...env } });
  const match = await proc.waitForStderr(/serving MCP on (http:\/\/\S+?)\/mcp/);
  const file = /the token in (\S+)/.exec(proc.stderr())?.[1];
  // A token from serve.tokenEnv is the test's own; one svc created is read from the file it names.
  const token = file !== undefined && file.startsWith('/') ? readFileSync(file, 'utf8').trim() : '';
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return Object.assign(proc, { url: match[1]!, token, headers });
}

/** Every message written to `stdout` as one JSON line, in order; `onMessage` is called after each line arrives. */
export function jsonLines(stdout: Readable, onMessage?: () => void): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let buf = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (d: string) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      out.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
    }
    onMessage?.();
  });
  return out;
}
