// The socket file's life on disk: the daemon binds under a hidden name, links it to its own name
// once listening, takes over a dead daemon's leftover (never a live one's, nor another user's), and
// clears stale sockets and hidden names that crashed daemons left in its folder.
import { randomBytes } from 'node:crypto';
import { linkSync, lstatSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import type { Server } from 'node:net';
import { dirname, join } from 'node:path';
import { SvcError } from '../model/errors.ts';
import { probe } from './client.ts';
import { listSockets, verifySocketOwner, type SocketTarget } from './paths.ts';

/** Another daemon already listens on the socket path this one wanted. */
export class DaemonRunningError extends SvcError {
  readonly path: string;
  readonly pid?: number;
  constructor(path: string, pid?: number) {
    super('daemon-running', `a daemon${pid !== undefined ? ` (pid ${pid})` : ''} is already serving on ${path}`, {
      hint: 'use `svc status` to see it and `svc update` to reload it; stop it first, or give this one another --socket',
    });
    this.path = path;
    // Stryker disable next-line ConditionalExpression: the class field already holds undefined, so assigning it changes nothing
    if (pid !== undefined) this.pid = pid;
  }
}

/** The two ways `linkIntoPlace` names a socket (a test passes a file system without hard links). */
export interface NameOps {
  link(existing: string, name: string): void;
  rename(existing: string, name: string): void;
}

const NODE_NAME_OPS: NameOps = { link: linkSync, rename: renameSync };

/**
 * Gives the socket bound at `bound` its own name `path` and removes `bound`. A link fails where the
 * name is taken (EEXIST), as bind() would have: another daemon has it. A file system without hard
 * links gets a rename instead (the name was free a moment ago). On failure the server is closed.
 */
export async function linkIntoPlace(server: Server, bound: string, path: string, files: NameOps = NODE_NAME_OPS): Promise<void> {
  // Closing the server removes the name it is bound to.
  const fail = async (error: unknown): Promise<never> => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  };
  try {
    files.link(bound, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fail(new DaemonRunningError(path));
    try {
      files.rename(bound, path);
    } catch (moveError) {
      return fail(moveError);
    }
  }
  removeSocketFile(bound);
}

/** Takes over a socket path left by a dead daemon; refuses one a live daemon answers on. */
export async function claimPath(path: string): Promise<void> {
  if (path.startsWith('\\\\')) return; // Windows pipes vanish with their process.
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return; // Nothing there.
  }
  if (isSocket) verifySocketOwner(path);
  if (!isSocket) {
    throw new SvcError('socket-path-taken', `${path} exists and is not a socket`, {
      hint: 'remove that file, or name another socket path with --socket or SVC_SOCKET',
    });
  }
  const state = await probe(path, 2000);
  if (state.kind === 'live') throw new DaemonRunningError(path, state.ping.pid);
  if (state.kind === 'unresponsive') throw new DaemonRunningError(path);
  removeSocketFile(path);
}

/** Removes the sockets of daemons that died without cleaning up (crash, SIGKILL), and their hidden binding names. */
export async function cleanStaleSockets(target: SocketTarget, own: string): Promise<void> {
  await Promise.all(
    [...listSockets(target), ...hiddenLeftovers(dirname(own), Date.now())]
      .filter((p) => p !== own)
      .map(async (p) => {
        const state = await probe(p, 2000);
        if (state.kind === 'stale') removeSocketFile(p);
      }),
  );
}

/**
 * Where a server for `path` binds before it is linked to `path`: a hidden name in the same folder
 * (`.<random>`), which no listing of sockets takes for a daemon's. `path` itself for a Windows pipe
 * (it has no file), or where the hidden name would be longer than the system allows (`max` bytes).
 */
export function bindingPath(path: string, max: number): string {
  if (path.startsWith('\\\\')) return path;
  const hidden = join(dirname(path), `.${randomBytes(4).toString('hex')}`);
  return Buffer.byteLength(hidden) <= max ? hidden : path;
}

/**
 * How long a hidden binding name lives while its daemon starts: bind, listen, link and unlink take
 * milliseconds. An older one is the leftover of a daemon that died in between (SIGKILL, a crash).
 * Younger ones are left alone even when they refuse connections: between bind() and listen() a
 * starting daemon's does, and removing it would stop that daemon from linking it into place.
 */
export const HIDDEN_LEFTOVER_AGE_MS = 60_000;

/** Hidden binding names (`bindingPath`) in `dir` older than `ageMs` at `now`: sockets only. */
export function hiddenLeftovers(dir: string, now: number, ageMs: number = HIDDEN_LEFTOVER_AGE_MS): string[] {
  if (dir.startsWith('\\\\')) return [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^\.[0-9a-f]{8}$/.test(name));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (st.isSocket() && now - st.mtimeMs > ageMs) out.push(path);
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

export function removeSocketFile(path: string): void {
  if (path.startsWith('\\\\')) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
