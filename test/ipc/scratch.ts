// Temp folders and raw socket peers for one IPC test file, all removed when the file's tests end,
// a bounded wait, work done in another working folder, and a stretch without user ids.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

export interface SocketScratch {
  /** A new private temp folder. */
  temp(): string;
  /** A raw server listening on `path`; each connection goes to `onConnection` and is dropped at the end. */
  listen(path: string, onConnection: (socket: Socket) => void): Promise<void>;
}

export function socketScratch(prefix: string): SocketScratch {
  const dirs: string[] = [];
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  after(async () => {
    // Connections a faulty client left open would keep close() waiting: drop them first.
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    temp() {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    async listen(path, onConnection) {
      const server = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
        onConnection(socket);
      });
      servers.push(server);
      await new Promise<void>((r) => server.listen(path, r));
    },
  };
}

/** Waits until `ok()` holds, checking every 5 ms; fails naming `what` after `ms`. */
export async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Runs `fn` with `dir` as the working folder and goes back when it is done. A Windows pipe name
 * (`\\.\pipe\...`) is a relative file name on this system, so this is where tests put what such
 * names would find. Nothing else of the test file may run meanwhile (node:test runs a file's tests
 * one after the other).
 */
export async function inFolder<T>(dir: string, fn: () => T | Promise<T>): Promise<T> {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    return await fn();
  } finally {
    process.chdir(cwd);
  }
}

/** Runs `fn` as on a system without user ids (Windows: no process.getuid), then puts it back. */
export function withoutUserIds<T>(fn: () => T): T {
  const own = Object.getOwnPropertyDescriptor(process, 'getuid')!;
  Object.defineProperty(process, 'getuid', { ...own, value: undefined });
  try {
    return fn();
  } finally {
    Object.defineProperty(process, 'getuid', own);
  }
}
