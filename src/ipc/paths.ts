// Where daemons listen. Several daemons may serve one config (two MCP clients each spawned a
// stdio daemon), so the default is a folder per config, one socket per daemon (`<pid>.sock`),
// inside a per-user folder nobody else can enter. The CLI talks to every socket in that folder.
// `--socket` / SVC_SOCKET name one explicit path instead: then only one daemon can hold it.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, statSync, chmodSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SvcError } from '../model/errors.ts';

export const SOCKET_ENV = 'SVC_SOCKET';

export type SocketTarget =
  /** One path named by the user (`--socket`, SVC_SOCKET, or `socket:` in svc.yaml). */
  | { readonly kind: 'explicit'; readonly path: string; readonly source: string }
  /** The per-config folder; each daemon adds `<pid>.sock` (on Windows: a pipe-name prefix). */
  | { readonly kind: 'dir'; readonly dir: string; readonly source: string };

export interface TargetOptions {
  /** The config file, as given (relative paths resolve against `cwd`). */
  readonly configFile: string;
  /** `--socket` value. */
  readonly socket?: string;
  /** `socket:` from svc.yaml, when the caller read it. */
  readonly configSocket?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly platform?: NodeJS.Platform;
}

const IS_WINDOWS_PIPE = /^\\\\[.?]\\pipe\\/i;

/** Decides where the daemon for `configFile` listens (and where the CLI looks for it). */
export function socketTarget(options: TargetOptions): SocketTarget {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const platform = options.platform ?? process.platform;
  if (options.socket) return explicit(options.socket, '--socket', cwd);
  const fromEnv = env[SOCKET_ENV];
  if (fromEnv) return explicit(fromEnv, SOCKET_ENV, cwd);
  if (options.configSocket) return explicit(options.configSocket, 'socket (in svc.yaml)', cwd);
  const key = configKey(resolve(cwd, options.configFile));
  // Windows: named pipes live in one flat namespace, so the user's name is part of the prefix.
  if (platform === 'win32') return { kind: 'dir', dir: `\\\\.\\pipe\\svc-${userName()}-${key}-`, source: 'default' };
  const runtime = env['XDG_RUNTIME_DIR'];
  const base = runtime ? join(runtime, 'svc') : join(env['TMPDIR'] || tmpdir(), `svc-${uid()}`);
  return { kind: 'dir', dir: join(base, key), source: runtime ? 'XDG_RUNTIME_DIR' : 'TMPDIR' };
}

function explicit(path: string, source: string, cwd: string): SocketTarget {
  return { kind: 'explicit', path: IS_WINDOWS_PIPE.test(path) ? path : resolve(cwd, path), source };
}

/** A short, stable name for a config file: the same file always maps to the same folder. */
export function configKey(absoluteConfig: string): string {
  let real = absoluteConfig;
  try {
    real = realpathSync(absoluteConfig);
  } catch {
    // Not there (yet): the daemon serving FILE args, or a typo the CLI reports later.
  }
  return createHash('sha256').update(real).digest('hex').slice(0, 12);
}

function userName(): string {
  try {
    return userInfo().username.replace(/[^A-Za-z0-9_.-]/g, '_') || 'user';
  } catch {
    return 'user';
  }
}

function uid(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
}

/**
 * The socket one daemon (this process, by default) listens on. `instance` tells apart several
 * daemons in one process (in-process tests): the first is `<pid>.sock`, then `<pid>-2.sock` ...
 */
export function daemonSocketPath(target: SocketTarget, pid: number = process.pid, instance = 1): string {
  if (target.kind === 'explicit') return target.path;
  const name = instance > 1 ? `${pid}-${instance}` : `${pid}`;
  if (target.dir.startsWith('\\\\')) return `${target.dir}${name}`;
  return join(target.dir, `${name}.sock`);
}

/**
 * Unix socket paths are limited by `sockaddr_un.sun_path`: 108 bytes on Linux, 104 on macOS and
 * the BSDs, including the terminating NUL.
 */
export function maxSocketPathBytes(platform: NodeJS.Platform = process.platform): number {
  return platform === 'linux' ? 107 : 103;
}

export class SocketPathError extends SvcError {}

/** Refuses a path the OS cannot bind, naming the setting that makes it shorter. */
export function checkSocketPath(path: string, target: SocketTarget, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  const bytes = Buffer.byteLength(path);
  const max = maxSocketPathBytes(platform);
  if (bytes <= max) return;
  const hint =
    target.kind === 'explicit'
      ? `choose a shorter path for ${target.source}`
      : `set ${target.source === 'XDG_RUNTIME_DIR' ? 'XDG_RUNTIME_DIR' : 'TMPDIR'} to a shorter folder, or name a short socket path with --socket or ${SOCKET_ENV}`;
  throw new SocketPathError('socket-path-too-long', `socket path is ${bytes} bytes, over this system's limit of ${max}: ${path}`, { hint });
}

/**
 * Creates (or checks) a folder only this user may enter. A folder owned by someone else, or open
 * to others, is refused rather than used: a socket there could be replaced by another user.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  const me = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (me !== undefined && st.uid !== me) {
    throw new SvcError('socket-dir-not-owned', `${dir} belongs to another user (uid ${st.uid})`, {
      hint: `remove it, or name another socket path with --socket or ${SOCKET_ENV}`,
    });
  }
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Creates the folders a daemon's socket goes into, private to the user. */
export function preparePrivateSocketDir(target: SocketTarget, socketPath: string): void {
  if (socketPath.startsWith('\\\\')) return;
  if (target.kind === 'dir') {
    ensurePrivateDir(dirname(target.dir));
    ensurePrivateDir(target.dir);
  } else {
    // An explicit path: its folder is the user's choice; create it private when it is missing.
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
  }
}

/** Every socket a daemon for this target may be listening on (live or stale). */
export function listSockets(target: SocketTarget): string[] {
  if (target.kind === 'explicit') return [target.path];
  if (target.dir.startsWith('\\\\')) {
    const prefix = target.dir.slice('\\\\.\\pipe\\'.length);
    try {
      return readdirSync('\\\\.\\pipe\\')
        .filter((name) => name.startsWith(prefix))
        .map((name) => `\\\\.\\pipe\\${name}`);
    } catch {
      return [];
    }
  }
  try {
    return readdirSync(target.dir)
      .filter((name) => /^\d+(-\d+)?\.sock$/.test(name))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
      .map((name) => join(target.dir, name));
  } catch {
    return [];
  }
}
