// Where daemons listen. Several daemons may serve one config (two MCP clients each spawned a
// stdio daemon), so the default is a folder per config, one socket per daemon (`<pid>.sock`),
// inside a per-user folder nobody else can enter. The CLI talks to every socket in that folder.
// `--socket` / SVC_SOCKET name one explicit path instead: then only one daemon can hold it.
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
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

/**
 * A user name as it goes into a pipe name: letters, digits, `_`, `.` and `-` are kept, every other
 * character becomes `_` (a backslash among them: the name cannot reach into another pipe path), and
 * an empty name is `user`.
 */
export function pipeUserName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_') || 'user';
}

function userName(): string {
  try {
    return pipeUserName(userInfo().username);
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

/** The runtime folder or a socket is not safe to use: another user could plant or read it. */
export class UnsafeSocketPathError extends SvcError {}

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

function mode(m: number): string {
  return `0${(m & 0o777).toString(8).padStart(3, '0')}`;
}

/**
 * Creates a folder only this user may enter (its parent must exist), or checks the one already
 * there. A folder somebody else made first (in a shared /tmp), a symbolic link, or one open to
 * others is refused, never repaired: changing the mode of a path we did not just create could
 * change a folder of an attacker's choosing.
 */
export function ensurePrivateDir(dir: string): void {
  let created = false;
  try {
    // Stryker disable next-line ObjectLiteral: a folder just created is set to 0700 below whatever mode it got
    mkdirSync(dir, { mode: 0o700 });
    created = true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') {
      throw new UnsafeSocketPathError('socket-dir-unusable', `cannot create the runtime folder ${dir}: ${(error as Error).message}`, {
        hint: `make sure its parent folder exists and is yours, or name a socket path with --socket or ${SOCKET_ENV}`,
      });
    }
  }
  // Just made by us: only the umask can have narrowed the mode (one that takes the owner's own
  // bits), so setting it is safe; a folder that was there is judged as it is, never repaired.
  if (created) chmodSync(dir, 0o700);
  verifyPrivateDir(dir);
}

/** Refuses (throws UnsafeSocketPathError) unless `dir` is a real folder, owned by this user, mode 0700. */
export function verifyPrivateDir(dir: string): void {
  const st = lstatSync(dir);
  const hint = `remove ${dir} (svc never changes a folder it did not create), set XDG_RUNTIME_DIR to a private folder, or name a socket path with --socket or ${SOCKET_ENV}`;
  if (st.isSymbolicLink()) throw new UnsafeSocketPathError('socket-dir-symlink', `runtime folder ${dir} is a symbolic link, refused`, { hint });
  if (!st.isDirectory()) throw new UnsafeSocketPathError('socket-dir-not-folder', `runtime folder ${dir} exists and is not a folder`, { hint });
  const me = currentUid();
  if (me !== undefined && st.uid !== me) {
    throw new UnsafeSocketPathError('socket-dir-not-owned', `runtime folder ${dir} belongs to another user (uid ${st.uid}), refused`, { hint });
  }
  if (me !== undefined && (st.mode & 0o777) !== 0o700) {
    throw new UnsafeSocketPathError('socket-dir-not-private', `runtime folder ${dir} has mode ${mode(st.mode)}; it must be 0700 (yours alone), refused`, { hint });
  }
}

/**
 * Before connecting: a socket must be a socket owned by this user (or by `owner`, when the caller
 * names whose daemon it means to reach), in a folder where no other user can put another file in
 * its place (`verifySocketFolder`). Another user's socket (planted at a `--socket` path, say) could
 * answer with anything. A missing path passes: connecting reports it.
 */
export function verifySocketOwner(socketPath: string, owner: number | undefined = currentUid()): void {
  if (socketPath.startsWith('\\\\')) return;
  const me = owner;
  if (me === undefined) return;
  let st;
  try {
    st = lstatSync(socketPath);
  } catch {
    return;
  }
  if (!st.isSocket()) throw new UnsafeSocketPathError('socket-not-socket', `${socketPath} is not a socket, refused`, { hint: `name the daemon's socket with --socket or ${SOCKET_ENV}` });
  if (st.uid !== me) {
    throw new UnsafeSocketPathError('socket-not-owned', `socket ${socketPath} belongs to another user (uid ${st.uid}), refused`, {
      hint: 'a daemon of yours makes its own socket; remove that one, or name another path with --socket',
    });
  }
  // The socket is checked, then connected to by name: in between, only a user who may change a
  // folder on its path (or a link on the way) could put another socket under that name.
  verifySocketFolder(dirname(socketPath), me);
}

/**
 * Refuses (throws UnsafeSocketPathError) a folder for a socket in which another user could replace
 * the socket between its check and the connection: the folder, or a folder above it, owned by
 * someone other than `owner` (this user) or root, or one others may write to without the sticky bit
 * (which keeps them from renaming or removing what is not theirs, as in /tmp); or a symbolic link
 * on the way owned by another user, who could point it elsewhere. Both the path as written and
 * where it really leads are walked up to the root. A path that cannot be read passes, and
 * connecting reports it.
 */
export function verifySocketFolder(dir: string, owner: number | undefined = currentUid()): void {
  if (owner === undefined || dir.startsWith('\\\\')) return;
  let real: string;
  try {
    real = realpathSync(dir);
  }
  // Stryker disable next-line BlockStatement: without the return, the walk of the path as written meets the same missing folder and returns
  catch {
    return;
  }
  const written = resolve(dir);
  // Where the path holds no link, the two walks are one.
  // Stryker disable next-line ConditionalExpression: speed only (walking the same folders twice judges them alike)
  for (const start of real === written ? [written] : [written, real]) {
    for (let p = start; ; p = dirname(p)) {
      let st;
      try {
        st = lstatSync(p);
      }
      // Stryker disable next-line BlockStatement: reached only when a folder realpath just read goes away, or by a user who may not read a folder above (the tests run as root)
      catch {
        return;
      }
      const link = st.isSymbolicLink();
      const what = link ? `the symbolic link ${p} on the way to the socket's folder` : p === start ? `the socket's folder ${p === dir ? p : `${dir} (${p})`}` : `the folder ${p} above the socket's folder`;
      if (st.uid !== owner && st.uid !== 0) {
        throw new UnsafeSocketPathError('socket-folder-not-owned', `${what} belongs to another user (uid ${st.uid}), who could replace the socket; refused`, {
          hint: `put the socket on a path of folders that are yours or root's, or name another path with --socket or ${SOCKET_ENV}`,
        });
      }
      // A link's own mode is never used; who may change it is the folder holding it, walked next.
      if (!link && (st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) {
        throw new UnsafeSocketPathError('socket-folder-open', `${what} has mode ${mode(st.mode)}: other users may replace the socket; refused`, {
          hint: `take others' write permission away (chmod go-w ${p}), or name another path with --socket or ${SOCKET_ENV}`,
        });
      }
      if (dirname(p) === p) break;
    }
  }
}

/** Creates the folders a daemon's socket goes into, private to the user. */
export function preparePrivateSocketDir(target: SocketTarget, socketPath: string): void {
  if (socketPath.startsWith('\\\\')) return;
  if (target.kind === 'dir') {
    ensurePrivateDir(dirname(target.dir));
    ensurePrivateDir(target.dir);
  } else {
    // An explicit path: its folder is the user's choice; create it private when it is missing, and
    // refuse one where another user could replace the socket (clients would refuse it anyway).
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
    verifySocketFolder(dirname(socketPath));
  }
}

/** The CLI's check before it talks to the sockets of a target: the folders must be private. */
export function verifyTargetDir(target: SocketTarget): void {
  if (target.kind !== 'dir' || target.dir.startsWith('\\\\') || currentUid() === undefined) return;
  for (const dir of [dirname(target.dir), target.dir]) {
    try {
      lstatSync(dir);
    } catch {
      return; // Not made yet: no daemon has run, nothing to trust.
    }
    verifyPrivateDir(dir);
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
