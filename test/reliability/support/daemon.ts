// A real `svc serve` process for the live-daemon tests: HTTP transport on 127.0.0.1 with a free
// port, an explicit IPC socket, stderr collected. Status and update go through the CLI's own IPC client.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from '../../../src/ipc/client.ts';
import type { StatusResult, UpdateResult } from '../../../src/ipc/protocol.ts';
import { REPO_ROOT } from './scale.ts';
import { lifelineArgs } from '../../support/lifeline.ts';

export interface LiveDaemon {
  readonly proc: ChildProcess;
  /** Streamable HTTP endpoint, e.g. http://127.0.0.1:41237/mcp */
  readonly mcpUrl: string;
  /** http://127.0.0.1:41237 */
  readonly baseUrl: string;
  /** `Authorization: Bearer <token>` for the token the daemon created (HTTP requires one by default). */
  readonly headers: Record<string, string>;
  readonly socket: string;
  stderr(): string;
  status(timeoutMs?: number): Promise<StatusResult>;
  update(timeoutMs?: number): Promise<UpdateResult>;
  /** True while the process runs. */
  alive(): boolean;
  /** Heap after a full garbage collection, through the inspector (only with `inspect: true`). */
  heapAfterGc(): Promise<{ heapUsed: number; rss: number }>;
  stop(): Promise<void>;
}

export interface DaemonOptions {
  readonly config: string;
  readonly socket: string;
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly startTimeoutMs?: number;
  /** Extra node flags for the daemon (e.g. --max-old-space-size). */
  readonly nodeFlags?: readonly string[];
  /** Open the inspector on a random loopback port, so `heapAfterGc` can force a collection. */
  readonly inspect?: boolean;
  /** Run the daemon as this user (the suite runs as root: file permissions bind only other users). */
  readonly user?: { readonly uid: number; readonly gid: number; readonly node: string };
}

export async function startDaemon(options: DaemonOptions): Promise<LiveDaemon> {
  // The lifeline ends the daemon with this test process (not for another user, who may not read it).
  const lifeline = options.user ? [] : lifelineArgs();
  const flags = [...lifeline, ...(options.nodeFlags ?? []), ...(options.inspect ? ['--inspect=127.0.0.1:0'] : [])];
  const proc = spawn(options.user?.node ?? process.execPath, [...flags, join(REPO_ROOT, 'bin/svc.js'), 'serve', '--config', options.config, '--transport', 'http', '--port', '0'], {
    cwd: options.cwd,
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
    // The HTTP token svc creates goes to the test's own folder, never the user's state folder.
    env: { ...process.env, XDG_STATE_HOME: join(options.cwd, '.state'), ...options.env, SVC_SOCKET: options.socket },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let exited = false;
  proc.on('exit', () => (exited = true));
  proc.stdout!.on('data', () => {});
  const urlFound = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc serve did not start within ${options.startTimeoutMs ?? 60_000} ms; stderr:\n${stderr}`)), options.startTimeoutMs ?? 60_000);
    proc.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /serving MCP on (http:\/\/[^\s]+)\/mcp/.exec(stderr);
      if (m && /loaded \d+ spec/.test(stderr)) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited with ${code} before serving; stderr:\n${stderr}`));
    });
  });
  const baseUrl = await urlFound;
  const tokenFile = /the token in (\/\S+)/.exec(stderr)?.[1];
  const headers: Record<string, string> = tokenFile ? { authorization: `Bearer ${readFileSync(tokenFile, 'utf8').trim()}` } : {};
  const daemon: LiveDaemon = {
    proc,
    baseUrl,
    headers,
    mcpUrl: `${baseUrl}/mcp`,
    socket: options.socket,
    stderr: () => stderr,
    // A daemon run as another user has that user's socket: name it, or the client refuses to connect.
    status: (timeoutMs = 2000) => request(options.socket, 'status', {}, { timeoutMs, ...(options.user ? { socketOwner: options.user.uid } : {}) }),
    update: (timeoutMs = 120_000) => request(options.socket, 'update', {}, { timeoutMs, ...(options.user ? { socketOwner: options.user.uid } : {}) }),
    alive: () => !exited,
    heapAfterGc: async () => {
      const ws = /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
      if (!ws) throw new Error('the daemon was not started with inspect: true');
      return heapViaInspector(ws);
    },
    async stop() {
      if (exited) return;
      const done = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(timer);
    },
  };
  // The socket comes up before the transport, but make sure it answers.
  await daemon.status(10_000);
  return daemon;
}

/** Forces a full GC in the daemon over the inspector protocol and reads its memory usage. */
async function heapViaInspector(url: string): Promise<{ heapUsed: number; rss: number }> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${url}`)), { once: true });
  });
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      const id = nextId++;
      const onMessage = (event: MessageEvent): void => {
        const msg = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
        if (msg.id !== id) return;
        socket.removeEventListener('message', onMessage);
        resolve(msg.result ?? {});
      };
      socket.addEventListener('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const r = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    const value = JSON.parse(String((r['result'] as { value: string }).value)) as { heapUsed: number; rss: number };
    return { heapUsed: value.heapUsed, rss: value.rss };
  } finally {
    socket.close();
  }
}
