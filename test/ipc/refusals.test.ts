// What the socket helpers refuse and say, from their contract: an unsafe runtime folder or socket
// is refused with a code, a message naming it and the same hint each time (never repaired when svc
// did not create it); the client names why it could not connect and leaves no connection open;
// only daemon socket names count as sockets of a folder.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { IpcConnectError, IpcRemoteError, request } from '../../src/ipc/client.ts';
import { ensurePrivateDir, listSockets, preparePrivateSocketDir, SOCKET_ENV, verifyPrivateDir, verifySocketOwner } from '../../src/ipc/paths.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { SvcError } from '../../src/model/errors.ts';
import { killedSocketHolder } from './stale-socket.ts';

const skip = process.platform === 'win32' || typeof process.getuid !== 'function' ? 'Unix only' : false;
const HANG_MS = 15_000;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'svc-ipcr-'));
  dirs.push(d);
  return d;
};

const dirHint = (dir: string): string =>
  `remove ${dir} (svc never changes a folder it did not create), set XDG_RUNTIME_DIR to a private folder, or name a socket path with --socket or ${SOCKET_ENV}`;

function refused(code: string, message: string, hint: string): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof SvcError, String(e));
    assert.deepEqual([e.code, e.message, e.hint], [code, message, hint]);
    return true;
  };
}

describe('runtime folders', { skip, timeout: HANG_MS }, () => {
  it('a symbolic link, a file, or a folder open to others is refused with its reason and the same hint', { timeout: HANG_MS }, () => {
    const root = temp();
    const real = join(root, 'real');
    mkdirSync(real, { mode: 0o700 });
    const link = join(root, 'link');
    symlinkSync(real, link);
    assert.throws(() => verifyPrivateDir(link), refused('socket-dir-symlink', `runtime folder ${link} is a symbolic link, refused`, dirHint(link)));
    const file = join(root, 'file');
    writeFileSync(file, '');
    assert.throws(() => verifyPrivateDir(file), refused('socket-dir-not-folder', `runtime folder ${file} exists and is not a folder`, dirHint(file)));
    for (const [m, shown] of [[0o755, '0755'], [0o070, '0070'], [0o007, '0007'], [0o500, '0500']] as const) {
      chmodSync(real, m);
      assert.throws(() => verifyPrivateDir(real), refused('socket-dir-not-private', `runtime folder ${real} has mode ${shown}; it must be 0700 (yours alone), refused`, dirHint(real)));
    }
    chmodSync(real, 0o700);
    verifyPrivateDir(real);
  });

  it('an existing folder open to others is refused and left as it was; one svc creates is 0700', { timeout: HANG_MS }, () => {
    const root = temp();
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    assert.throws(() => ensurePrivateDir(open), (e: SvcError) => e.code === 'socket-dir-not-private');
    assert.equal(statSync(open).mode & 0o777, 0o755);
    const made = join(root, 'made');
    ensurePrivateDir(made);
    assert.equal(statSync(made).mode & 0o777, 0o700);
  });

  it('a per-config folder that exists open to others is refused when a daemon prepares it', { timeout: HANG_MS }, () => {
    const root = temp();
    const base = join(root, 'svc');
    mkdirSync(base, { mode: 0o700 });
    const dir = join(base, 'k');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const target = { kind: 'dir' as const, dir, source: 'XDG_RUNTIME_DIR' };
    assert.throws(() => preparePrivateSocketDir(target, join(dir, '1.sock')), (e: SvcError) => e.code === 'socket-dir-not-private');
    assert.equal(statSync(dir).mode & 0o777, 0o755);
  });
});

describe('sockets before connecting', { skip, timeout: HANG_MS }, () => {
  it('a file that is not a socket, and a socket of another user, are refused with what to do', { timeout: HANG_MS }, async () => {
    const root = temp();
    const file = join(root, 'plain');
    writeFileSync(file, '');
    assert.throws(() => verifySocketOwner(file), refused('socket-not-socket', `${file} is not a socket, refused`, `name the daemon's socket with --socket or ${SOCKET_ENV}`));
    const server = await IpcServer.listen({ target: { kind: 'explicit', path: join(root, 's.sock'), source: 't' }, handlers: { ping: () => 1 } });
    try {
      const me = process.getuid!();
      verifySocketOwner(server.path, me);
      assert.throws(
        () => verifySocketOwner(server.path, me + 1),
        refused('socket-not-owned', `socket ${server.path} belongs to another user (uid ${me}), refused`, 'a daemon of yours makes its own socket; remove that one, or name another path with --socket'),
      );
      await assert.rejects(request(server.path, 'ping', {}, { socketOwner: me + 1 }), (e: SvcError) => e.code === 'socket-not-owned');
      verifySocketOwner(join(root, 'missing.sock'));
    } finally {
      await server.close();
    }
  });

  it('only <pid>.sock and <pid>-<n>.sock count as daemon sockets of a folder', { timeout: HANG_MS }, () => {
    const dir = temp();
    for (const name of ['123.sock', '123-2.sock', '123-10.sock', '7.sock', 'x.sock', '123-.sock', '123.sock.bak', '-2.sock', '12a.sock']) writeFileSync(join(dir, name), '');
    const found = listSockets({ kind: 'dir', dir, source: 't' });
    assert.deepEqual(new Set(found), new Set(['7.sock', '123.sock', '123-2.sock', '123-10.sock'].map((n) => join(dir, n))));
    assert.equal(found[0], join(dir, '7.sock'));
    assert.deepEqual(listSockets({ kind: 'dir', dir: join(dir, 'none'), source: 't' }), []);
  });
});

describe('the client', { skip, timeout: HANG_MS }, () => {
  it('says why it could not connect: nothing listening (stale) or no such socket', { timeout: HANG_MS }, async () => {
    const root = temp();
    const stale = join(root, 'stale.sock');
    await killedSocketHolder(stale);
    await assert.rejects(request(stale, 'ping'), (e: unknown) => {
      assert.ok(e instanceof IpcConnectError);
      assert.deepEqual([e.code, e.reason, e.message], ['ipc-unreachable', 'ECONNREFUSED', `${stale}: no daemon listens on this socket (stale)`]);
      return true;
    });
    const missing = join(root, 'missing.sock');
    await assert.rejects(request(missing, 'ping'), (e: unknown) => {
      assert.ok(e instanceof IpcConnectError);
      assert.deepEqual([e.reason, e.message], ['ENOENT', `${missing}: no such socket`]);
      return true;
    });
  });

  it('closes its connection once the reply is in, and an error reply without hint has none', { timeout: HANG_MS }, async () => {
    const server = await IpcServer.listen({
      target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 't' },
      handlers: { ping: () => 'pong', fails: () => { throw new SvcError('nope', 'plain'); } },
    });
    try {
      assert.equal(await request(server.path, 'ping'), 'pong');
      const deadline = Date.now() + 5000;
      while (server.connections > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.equal(server.connections, 0);
      await assert.rejects(request(server.path, 'fails' as 'ping'), (e: unknown) => {
        assert.ok(e instanceof IpcRemoteError);
        assert.deepEqual([e.code, e.message, e.hint, e.socket], ['nope', 'plain', undefined, server.path]);
        return true;
      });
      assert.equal(existsSync(server.path), true);
    } finally {
      await server.close();
    }
  });
});
