// The folders a socket is in: a client checks the socket, then connects to it by name, so a user
// who may write to its folder, or to a folder above it, or who owns a symbolic link on the way,
// could put their own socket in its place in between. A client refuses a socket on such a path
// (a folder owned by someone other than this user or root, or open to others' writes without the
// sticky bit; a link owned by another user), over every mode and owner of the folder and the folder
// above it; a daemon refuses to listen on one; a symbolic link is followed and its target judged
// too. Real folders, real sockets.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lchownSync, mkdirSync, symlinkSync } from 'node:fs';
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
const notOwnedHint = `put the socket on a path of folders that are yours or root's, or name another path with --socket or ${SOCKET_ENV}`;
const openHint = (folder: string): string => `take others' write permission away (chmod go-w ${folder}), or name another path with --socket or ${SOCKET_ENV}`;
const shownMode = (mode: number): string => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

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

/** What a folder of this mode and owner is refused for, as `what` names it; undefined when it passes. */
function expectedRefusal(what: string, folder: string, mode: number, owner: number, caller = me): [string, string, string] | undefined {
  if (owner !== caller && owner !== 0) return ['socket-folder-not-owned', `${what} belongs to another user (uid ${owner}), who could replace the socket; refused`, notOwnedHint];
  if ((mode & 0o022) !== 0 && (mode & 0o1000) === 0) return ['socket-folder-open', `${what} has mode ${shownMode(mode)}: other users may replace the socket; refused`, openHint(folder)];
  return undefined;
}

describe("a socket's folders, over every mode and owner", { skip: unix }, () => {
  it("a client passes the socket only when its folder and the folder above are this user's or root's and others may not write to them, or may only under the sticky bit; the nearest fault is named", async () => {
    const up = join(temp(), 'up');
    const dir = join(up, 'sockets');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const sock = join(dir, 'd.sock');
    await listen(sock, () => {});
    const other = 4242;
    // Without root, a folder cannot be given away, and one the owner cannot enter hides its socket.
    const modes = canChown ? fc.integer({ min: 0, max: 0o1777 }) : fc.integer({ min: 0, max: 0o1777 }).map((m) => m | 0o700);
    const owners = canChown ? fc.constantFrom(me, other, 0) : fc.constant(me);
    try {
      fc.assert(
        fc.property(modes, owners, modes, owners, (mode, owner, upMode, upOwner) => {
          chownSync(dir, owner, owner);
          chmodSync(dir, mode);
          chownSync(up, upOwner, upOwner);
          chmodSync(up, upMode);
          const expected = expectedRefusal(`the socket's folder ${dir}`, dir, mode, owner) ?? expectedRefusal(`the folder ${up} above the socket's folder`, up, upMode, upOwner);
          assert.deepEqual(refusalOf(() => verifySocketOwner(sock)), expected);
        }),
        { numRuns: 400 },
      );
    } finally {
      for (const d of [up, dir]) {
        chownSync(d, me, me);
        chmodSync(d, 0o700);
      }
    }
  });

  it('judged for the user a caller names: that user and root are trusted owners, any other is not', { skip: canChown ? false : 'needs root to give a folder away' }, () => {
    const dir = join(temp(), 'owned');
    mkdirSync(dir, { mode: 0o755 });
    try {
      fc.assert(
        fc.property(fc.constantFrom(1000, 4242, 4343), fc.constantFrom(0, 1000, 4242, 4343), (caller, owner) => {
          chownSync(dir, owner, owner);
          assert.deepEqual(refusalOf(() => verifySocketFolder(dir, caller)), expectedRefusal(`the socket's folder ${dir}`, dir, 0o755, owner, caller));
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
    await assert.rejects(request(sock, 'ping'), (e: unknown) => e instanceof SvcError && e.code === 'socket-folder-open' && e.message.includes(dir) && e.hint === openHint(dir));
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
    assert.deepEqual(refusalOf(() => verifySocketFolder(link)), ['socket-folder-open', `the socket's folder ${link} (${real}) has mode 0777: other users may replace the socket; refused`, openHint(real)]);
    chmodSync(real, 0o755);
    verifySocketFolder(link);
    // The folder above the link's target too.
    chmodSync(base, 0o777);
    assert.deepEqual(refusalOf(() => verifySocketFolder(link)), ['socket-folder-open', `the folder ${base} above the socket's folder has mode 0777: other users may replace the socket; refused`, openHint(base)]);
    chmodSync(base, 0o700);
  });

  it('a symbolic link on the way that another user owns is refused, whatever it points at', { skip: canChown ? false : 'needs root to give a link away' }, () => {
    const base = temp();
    const real = join(base, 'real');
    mkdirSync(real, { mode: 0o700 });
    const link = join(base, 'link');
    symlinkSync(real, link);
    lchownSync(link, 4242, 4242);
    const under = join(link, 'sub');
    mkdirSync(join(real, 'sub'), { mode: 0o700 });
    const refusal = ['socket-folder-not-owned', `the symbolic link ${link} on the way to the socket's folder belongs to another user (uid 4242), who could replace the socket; refused`, notOwnedHint];
    assert.deepEqual(refusalOf(() => verifySocketFolder(link)), refusal, 'the link as the folder');
    assert.deepEqual(refusalOf(() => verifySocketFolder(under)), refusal, 'the link above the folder');
    lchownSync(link, 0, 0);
    verifySocketFolder(link);
    verifySocketFolder(under);
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
    assert.deepEqual(refusalOf(() => preparePrivateSocketDir(target, path)), ['socket-folder-open', `the socket's folder ${dir} has mode 0775: other users may replace the socket; refused`, openHint(dir)]);
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
