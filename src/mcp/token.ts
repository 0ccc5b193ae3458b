// The bearer token HTTP clients must send. As Jupyter does, a token is required by default, on
// loopback too (any local account can reach 127.0.0.1): from the variable `serve.tokenEnv` names
// when set, else a random token svc creates at first start and keeps in a file only the user can
// read, `$XDG_STATE_HOME/svc/http-token` (else `~/.local/state/svc/http-token`). The token is never
// logged; the file's path is. `serve.auth: none` turns the requirement off (loopback only).
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { SvcError } from '../model/errors.ts';

export const TOKEN_FILE_NAME = 'http-token';

/** How HTTP clients authenticate, as the daemon resolved it at start. */
export type HttpAuth =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly token: string; readonly source: { readonly env: string } | { readonly file: string } };

/** `$XDG_STATE_HOME/svc` when absolute, else `~/.local/state/svc`. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_STATE_HOME'];
  const base = xdg && isAbsolute(xdg) ? xdg : join(env['HOME'] || homedir(), '.local', 'state');
  return join(base, 'svc');
}

// Stryker disable next-line OptionalChaining: getuid is missing only on Windows, where these checks do not apply
const uid = (): number | undefined => process.getuid?.();

/** The folder, created 0700 when missing; an existing one must be a real folder of this user, not open to others. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const me = uid();
  // Stryker disable next-line ConditionalExpression: me is undefined only on Windows (no uids), where these checks do not apply
  if (!st.isDirectory() || (me !== undefined && st.uid !== me) || (st.mode & 0o022) !== 0) {
    throw new SvcError('token-folder-unsafe', `${dir} is not a private folder of this user (it must be a real folder, owned by you, not writable by others)`, {
      hint: `remove it or fix its owner and mode (chmod 700 ${dir}), or set serve.tokenEnv in svc.yaml`,
    });
  }
}

/** Reads the token file, refusing one that others could read or replace. */
function readTokenFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SvcError('token-file-unsafe', `cannot read the HTTP token file ${file}: ${(error as Error).message}`, {
      hint: 'it must be a regular file (not a symlink) owned by you; delete it and svc creates a new one',
    });
  }
  try {
    const st = fstatSync(fd);
    const me = uid();
    // Stryker disable next-line ConditionalExpression: me is undefined only on Windows (no uids), where these checks do not apply
    if (!st.isFile() || (me !== undefined && st.uid !== me) || (st.mode & 0o077) !== 0) {
      throw new SvcError('token-file-unsafe', `the HTTP token file ${file} can be read or changed by others`, {
        hint: `delete it (svc creates a new one) or chmod 600 ${file}`,
      });
    }
    const token = readFileSync(fd, 'utf8').trim();
    if (token.length < 16) {
      throw new SvcError('token-file-bad', `the HTTP token file ${file} holds no usable token`, { hint: 'delete it and svc creates a new one' });
    }
    return token;
  } finally {
    closeSync(fd);
  }
}

/** The token kept in `dir` (default stateDir()), created on first use: 32 random bytes, file mode 0600. */
export function ensureTokenFile(dir: string = stateDir()): { token: string; file: string } {
  privateDir(dir);
  const file = join(dir, TOKEN_FILE_NAME);
  const existing = readTokenFile(file);
  // Stryker disable next-line ConditionalExpression: without this shortcut the exclusive create below fails with EEXIST and reads the same file
  if (existing !== undefined) return { token: existing, file };
  const token = randomBytes(32).toString('base64url');
  // Written whole under a name of this process's own, then linked into place: the token file is
  // complete whenever it exists. Created in place and written after, a daemon started at the same
  // moment read it empty ("holds no usable token") and stopped.
  const draft = join(dir, `${TOKEN_FILE_NAME}.${process.pid}.${randomBytes(6).toString('hex')}`);
  const fd = openSync(draft, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, file);
  } catch (error) {
    // Another daemon created it meanwhile: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readTokenFile(file);
      if (raced !== undefined) return { token: raced, file };
    }
    throw error;
  } finally {
    unlinkSync(draft);
  }
  return { token, file };
}

export interface AuthSettings {
  readonly auth: 'token' | 'none';
  readonly tokenEnv?: string;
}

/** Resolves how HTTP clients authenticate; throws a clear SvcError for an unset variable. */
export function resolveHttpAuth(serve: AuthSettings, env: NodeJS.ProcessEnv = process.env): HttpAuth {
  if (serve.auth === 'none') return { kind: 'none' };
  const name = serve.tokenEnv;
  if (name !== undefined) {
    const value = env[name];
    if (!value) {
      throw new SvcError('token-missing', `environment variable ${name} (serve.tokenEnv) is not set or empty`, {
        hint: `export ${name}=<a long random token> before starting svc serve, or remove serve.tokenEnv to use a token svc creates`,
      });
    }
    return { kind: 'token', token: value, source: { env: name } };
  }
  const { token, file } = ensureTokenFile(stateDir(env));
  return { kind: 'token', token, source: { file } };
}

/** One line for people: where the token is and how a client passes it. Never the token itself. */
export function describeAuth(auth: HttpAuth): string {
  if (auth.kind === 'none') return 'no authentication (serve.auth: none)';
  const where = 'env' in auth.source ? `the environment variable ${auth.source.env}` : auth.source.file;
  return `clients send "Authorization: Bearer <token>", the token in ${where}`;
}
