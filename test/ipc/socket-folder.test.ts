// The folder a socket is in: a client checks the socket, then connects to it by name, so a user who
// may write to that folder could put their own socket in its place in between. A client refuses a
// socket in such a folder (owned by someone other than this user or root, or open to others'
// writes without the sticky bit), over every mode and owner; a daemon refuses to listen in one;
// a folder reached through a symbolic link is judged where it is. Real folders, real sockets.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SvcError } from '../../src/model/errors.ts';
import { preparePrivateSocketDir, SOCKET_ENV, socketTarget, verifySocketFolder, verifySocketOwner } from '../../src/ipc/paths.ts';
import { IpcConnectError, request } from '../../src/ipc/client.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { inFolder, socketScratch, withoutUserIds } from './scratch.ts';

const unix = process.platform === 'win32' || typeof process.getuid !== 'function' ? 'Unix only' : false;
const me = typeof process.getuid === 'function' ? process.getuid() : -1;
const canChown = me === 0;
const { temp, listen } = socketScratch('svc-sfold-');
const hint = `put the socket in a folder only you can write to, or name another path with --socket or ${SOCKET_ENV}`;

/** The refusal `fn` throws, as [code, message, hint]; undefined when it passes. */
function refusalOf(fn: () => void): [string, string, string | undefined] | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof SvcError, String(error));
    return [error.code, error.message, error.hint];
  }
}

describe("a socket's folder, over every mode and owner", { skip: unix }, () => {
  it('a client passes the socket only when the folder is this user\'s or root\'s and others may not write to it, or may only under the sticky bit', async () => {
    const dir = join(temp(), 'sockets');
    mkdirSync(dir, { mode: 0o700 });
    const sock = join(dir, 'd.sock');
    await listen(sock, () => {});
    const other = 4242;
    // Without root, a folder cannot be given away, and one the owner cannot enter hides its socket.
    const modes = canChown ? fc.integer({ min: 0, max: 0o1777 }) : fc.integer({ min: 0, max: 0o1777 }).map((m) => m | 0o700);
    const owners = canChown ? fc.constantFrom(me, other, 0) : fc.constant(me);
    try {
      fc.assert(
        fc.property(modes, owners, (mode, owner) => {
          chownSync(dir, owner, owner);
          chmodSync(dir, mode);
          const shown = `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
          const expected: [string, string, string] | undefined =
            owner !== me && owner !== 0
              ? ['socket-folder-not-owned', `the socket's folder ${dir} belongs to another user (uid ${owner}), who could replace the socket; refused`, hint]
              : (mode & 0o022) !== 0 && (mode & 0o1000) === 0
                ? ['socket-folder-open', `the socket's folder ${dir} has mode ${shown}: other users may replace the socket; refused`, hint]
                : undefined;
          assert.deepEqual(refusalOf(() => verifySocketOwner(sock)), expected);
        }),
        { numRuns: 300 },
      );
    } finally {
      chownSync(dir, me, me);
      chmodSync(dir, 0o700);
    }
  });

  it('judged for the user a caller names: that user and root are trusted owners, any other is not', { skip: canChown ? false : 'needs root to give a folder away' }, () => {
    const dir = join(temp(), 'owned');
    mkdirSync(dir, { mode: 0o755 });
    try {
      fc.assert(
        fc.property(fc.constantFrom(1000, 4242, 4343), fc.constantFrom(0, 1000, 4242, 4343), (caller, owner) => {
          chownSync(dir, owner, owner);
          const expected: [string, string, string] | undefined =
            owner !== caller && owner !== 0 ? ['socket-folder-not-owned', `the socket's folder ${dir} belongs to another user (uid ${owner}), who could replace the socket; refused`, hint] : undefined;
          assert.deepEqual(refusalOf(() => verifySocketFolder(dir, caller)), expected);
        }),
        { numRuns: 40 },
      );
    } finally {
      chownSync(dir, me, me);
    }
  });

  it('a request to a socket in a folder open to others is refused before it connects, naming the folder', async () => {
    const dir = join(temp(), 'open');
    mkdirSync(dir);
    const sock = join(dir, 'd.sock');
    let connections = 0;
    await listen(sock, () => connections++);
    chmodSync(dir, 0o777);
    await assert.rejects(request(sock, 'ping'), (e: unknown) => e instanceof SvcError && e.code === 'socket-folder-open' && e.message.includes(dir) && e.hint === hint);
    chmodSync(dir, 0o1777);
    await assert.rejects(request(sock, 'ping', {}, { timeoutMs: 200 }), (e: unknown) => e instanceof IpcConnectError && e.reason === 'timeout');
    assert.equal(connections, 1, 'only the request in the sticky folder connected');
  });

  it('a folder reached through a symbolic link is judged where it is, and the refusal names both', () => {
    const base = temp();
    const real = join(base, 'real');
    mkdirSync(real, { mode: 0o777 });
    chmodSync(real, 0o777);
    const link = join(base, 'link');
    symlinkSync(real, link);
    assert.deepEqual(refusalOf(() => verifySocketFolder(link)), ['socket-folder-open', `the socket's folder ${link} (${real}) has mode 0777: other users may replace the socket; refused`, hint]);
    chmodSync(real, 0o755);
    verifySocketFolder(link);
  });

  it('a folder that is not there, or a system without user ids, passes: connecting reports what is missing', () => {
    verifySocketFolder(join(temp(), 'missing'));
    const open = join(temp(), 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    withoutUserIds(() => verifySocketFolder(open));
  });

  it('a Windows pipe name is never judged as a folder of this system, even where a folder of that name is open to others', async () => {
    const base = temp();
    const pipe = '\\\\.\\pipe\\svc-x';
    await inFolder(base, () => {
      mkdirSync(pipe);
      chmodSync(pipe, 0o777);
      verifySocketFolder(pipe, me);
    });
    // Nor is the folder a daemon would listen in for one: a pipe has no folder.
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    await inFolder(open, () => preparePrivateSocketDir(socketTarget({ configFile: 'svc.yaml', socket: pipe }), pipe));
  });
});

describe('a daemon asked to listen in a folder open to others', { skip: unix }, () => {
  it('on the default per-config folder, an open runtime folder above it is refused as not private, not only judged as a socket folder', () => {
    const runtime = join(temp(), 'xdg');
    mkdirSync(join(runtime, 'svc'), { recursive: true });
    chmodSync(join(runtime, 'svc'), 0o777);
    const target = socketTarget({ configFile: 'svc.yaml', env: { XDG_RUNTIME_DIR: runtime } });
    assert.equal(target.kind, 'dir');
    const refusal = refusalOf(() => preparePrivateSocketDir(target, join(target.kind === 'dir' ? target.dir : '', '1.sock')));
    assert.equal(refusal?.[0], 'socket-dir-not-private');
  });

  it('refuses before it binds, and listens once the folder is closed to others', async () => {
    const dir = join(temp(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o775);
    const path = join(dir, 'svc.sock');
    const target = socketTarget({ configFile: 'svc.yaml', socket: path });
    assert.deepEqual(refusalOf(() => preparePrivateSocketDir(target, path)), ['socket-folder-open', `the socket's folder ${dir} has mode 0775: other users may replace the socket; refused`, hint]);
    await assert.rejects(IpcServer.listen({ target, handlers: {} }), (e: unknown) => e instanceof SvcError && e.code === 'socket-folder-open');
    chmodSync(dir, 0o755);
    const server = await IpcServer.listen({ target, handlers: {} });
    try {
      assert.equal(server.path, path);
    } finally {
      await server.close();
    }
  });
});
