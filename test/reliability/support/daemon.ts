// A real `svc serve` process for the live-daemon tests: HTTP transport on 127.0.0.1 with a free
// port, an explicit IPC socket, stderr collected. Status and update go through the CLI's own IPC client.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { request } from '../../../src/ipc/client.ts';
import type { StatusResult, UpdateResult } from '../../../src/ipc/protocol.ts';
import { REPO_ROOT } from './scale.ts';

export interface LiveDaemon {
  readonly proc: ChildProcess;
  /** Streamable HTTP endpoint, e.g. http://127.0.0.1:41237/mcp */
  readonly mcpUrl: string;
  /** http://127.0.0.1:41237 */
  readonly baseUrl: string;
  readonly socket: string;
  stderr(): string;
  status(timeoutMs?: number): Promise<StatusResult>;
  update(timeoutMs?: number): Promise<UpdateResult>;
  /** True while the process runs. */
  alive(): boolean;
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
}

export async function startDaemon(options: DaemonOptions): Promise<LiveDaemon> {
  const proc = spawn(process.execPath, [...(options.nodeFlags ?? []), join(REPO_ROOT, 'bin/svc.js'), 'serve', '--config', options.config, '--transport', 'sse', '--port', '0'], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, SVC_SOCKET: options.socket },
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
  const daemon: LiveDaemon = {
    proc,
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    socket: options.socket,
    stderr: () => stderr,
    status: (timeoutMs = 2000) => request(options.socket, 'status', {}, { timeoutMs }),
    update: (timeoutMs = 120_000) => request(options.socket, 'update', {}, { timeoutMs }),
    alive: () => !exited,
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
