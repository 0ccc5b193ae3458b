// Attacks by another local user on the per-user runtime folder and the control socket: a folder
// planted first in the shared temp folder (open to others, owned by someone else, or a symlink to
// a folder of their choosing), and a fake control socket. svc refuses each with a clear error and
// never changes the mode of a path it did not just create.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IpcServer } from '../../src/ipc/server.ts';
import { discover, request } from '../../src/ipc/client.ts';
import { socketTarget, type SocketTarget } from '../../src/ipc/paths.ts';
import type { SvcError } from '../../src/model/errors.ts';
import { PROTOCOL_VERSION } from '../../src/ipc/protocol.ts';

const unix = process.platform !== 'win32' && typeof process.getuid === 'function';
const isRoot = unix && process.getuid!() === 0;
/** Another user's uid: only root can give a file away. */
const OTHER_UID = 54_321;
const skipUnix = unix ? false : 'Unix only';
const skipNotRoot = isRoot ? false : 'needs root to make a folder owned by another user';

const handlers = { ping: () => ({ pid: process.pid, version: 'test', protocol: PROTOCOL_VERSION, config: 'x' }) };

function fallbackTarget(t: { after(fn: () => void): void }): { target: Extract<SocketTarget, { kind: 'dir' }>; base: string; tmp: string } {
  const tmp = mkdtempSync(join(tmpdir(), 'svc-shared-tmp-'));
  chmodSync(tmp, 0o1777); // like /tmp: everybody may create entries
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const target = socketTarget({ configFile: join(tmp, 'svc.yaml'), env: { TMPDIR: tmp } });
  assert.equal(target.kind, 'dir');
  const dir = (target as Extract<SocketTarget, { kind: 'dir' }>).dir;
  return { target: target as Extract<SocketTarget, { kind: 'dir' }>, base: join(dir, '..'), tmp };
}

/** Listening must fail; a server that did start is closed so the test ends either way. */
async function listenError(target: SocketTarget): Promise<SvcError> {
  const error = await IpcServer.listen({ target, handlers }).then(
    async (server) => {
      await server.close();
      return undefined;
    },
    (e: unknown) => e as SvcError,
  );
  assert.ok(error, 'the daemon listened there');
  return error;
}

async function refused(target: SocketTarget, code: RegExp): Promise<void> {
  const e = await listenError(target);
  assert.match(e.code, code);
  assert.ok(e.hint && /remove|XDG_RUNTIME_DIR|--socket/.test(e.hint), `no hint in ${e.message}`);
}

test('without XDG_RUNTIME_DIR the daemon creates the per-user folder itself, mode 0700', { skip: skipUnix }, async (t) => {
  const { target, base } = fallbackTarget(t);
  const old = process.umask(0o002);
  let server: IpcServer | undefined;
  try {
    server = await IpcServer.listen({ target, handlers });
  } finally {
    process.umask(old);
  }
  try {
    assert.equal(lstatSync(base).mode & 0o777, 0o700);
    assert.equal(lstatSync(target.dir).mode & 0o777, 0o700);
    assert.equal((await request(server.path, 'ping')).pid, process.pid);
  } finally {
    await server.close();
  }
});

test('XDG_RUNTIME_DIR is preferred over the shared temp folder', () => {
  const target = socketTarget({ configFile: '/a/svc.yaml', env: { XDG_RUNTIME_DIR: '/run/user/1000', TMPDIR: '/tmp' } });
  assert.ok(target.kind === 'dir' && target.dir.startsWith('/run/user/1000/svc/'));
});

test('a runtime folder planted with mode 0755 is refused and left as it was', { skip: skipUnix }, async (t) => {
  const { target, base } = fallbackTarget(t);
  mkdirSync(base, { mode: 0o755 });
  chmodSync(base, 0o755);
  await refused(target, /socket-dir-not-private/);
  assert.equal(lstatSync(base).mode & 0o777, 0o755, 'svc changed the mode of a folder it did not create');
});

test('a planted per-config folder open to others is refused too', { skip: skipUnix }, async (t) => {
  const { target, base } = fallbackTarget(t);
  mkdirSync(base, { mode: 0o700 });
  mkdirSync(target.dir, { mode: 0o777 });
  chmodSync(target.dir, 0o777);
  await refused(target, /socket-dir-not-private/);
  assert.equal(lstatSync(target.dir).mode & 0o777, 0o777);
});

test('a symlink planted at the runtime folder is refused, and the folder it points at is not touched', { skip: skipUnix }, async (t) => {
  const { target, base, tmp } = fallbackTarget(t);
  const attackers = join(tmp, 'attackers-folder');
  mkdirSync(attackers, { mode: 0o755 });
  chmodSync(attackers, 0o755);
  symlinkSync(attackers, base);
  await refused(target, /socket-dir-symlink/);
  assert.equal(statSync(attackers).mode & 0o777, 0o755, 'svc changed the mode of the symlink target');
  assert.equal(lstatSync(base).isSymbolicLink(), true);
});

test('a runtime folder owned by another user is refused, even with mode 0700', { skip: skipNotRoot }, async (t) => {
  const { target, base } = fallbackTarget(t);
  mkdirSync(base, { mode: 0o700 });
  chownSync(base, OTHER_UID, OTHER_UID);
  await refused(target, /socket-dir-not-owned/);
  assert.equal(lstatSync(base).uid, OTHER_UID);
});

test('the CLI refuses to look for daemons in a runtime folder another user owns', { skip: skipNotRoot }, async (t) => {
  const { target, base } = fallbackTarget(t);
  mkdirSync(target.dir, { recursive: true, mode: 0o700 });
  chownSync(base, OTHER_UID, OTHER_UID);
  await assert.rejects(discover(target), (e: SvcError) => e.code === 'socket-dir-not-owned');
});

test('a fake control socket owned by another user is never connected to', { skip: skipNotRoot }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fake-sock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'fake.sock');
  let connections = 0;
  // The fake daemon answers every line with terminal escapes in a "successful" reply.
  const fake = createServer((socket) => {
    connections++;
    socket.on('data', () => socket.write(`${JSON.stringify({ v: PROTOCOL_VERSION, id: null, ok: true, result: { pid: 1, version: '\u001b]0;pwned\u0007', protocol: 1, config: 'x' } })}\n`));
  });
  await new Promise<void>((resolve) => fake.listen(path, resolve));
  t.after(() => new Promise<void>((resolve) => fake.close(() => resolve())));
  chownSync(path, OTHER_UID, OTHER_UID);
  await assert.rejects(request(path, 'ping', {}, { timeoutMs: 2000 }), (e: SvcError) => e.code === 'socket-not-owned' && e.message.includes(path));
  const d = await discover({ kind: 'explicit', path, source: '--socket' });
  assert.equal(d.live.length, 0);
  assert.equal(connections, 0, 'the client connected to another user\'s socket');
  // And a daemon asked to listen there refuses rather than taking it over or trusting it.
  assert.equal((await listenError({ kind: 'explicit', path, source: '--socket' })).code, 'socket-not-owned');
  assert.equal(connections, 0);
});
