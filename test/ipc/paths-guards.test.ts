// The runtime folder and socket checks of src/ipc/paths.ts at the edges the contract tests leave
// out: every mode and owner a folder can have (only 0700 and this user pass, and a refused folder is
// left as it was), a system without user ids (as on Windows: nothing to compare an owner with), and
// Windows pipe names, which are never taken for files of this system, and carry the user's name
// (or `user` for a uid the system has no account for).
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SvcError } from '../../src/model/errors.ts';
import {
  configKey,
  daemonSocketPath,
  ensurePrivateDir,
  listSockets,
  pipeUserName,
  preparePrivateSocketDir,
  socketTarget,
  SOCKET_ENV,
  verifyPrivateDir,
  verifySocketOwner,
  verifyTargetDir,
  type SocketTarget,
} from '../../src/ipc/paths.ts';
import { inFolder, socketScratch, withoutUserIds } from './scratch.ts';

const unix = process.platform === 'win32' || typeof process.getuid !== 'function' ? 'Unix only' : false;
const me = typeof process.getuid === 'function' ? process.getuid() : -1;
const canChown = me === 0;
const { temp, listen } = socketScratch('svc-pguard-');

describe('a runtime folder, over every mode and owner', { skip: unix }, () => {
  it('passes only at mode 0700 owned by this user; otherwise the refusal names the folder, why, and what to do, and the folder is left as it was', () => {
    const dir = join(temp(), 'run');
    mkdirSync(dir, { mode: 0o700 });
    const hint = `remove ${dir} (svc never changes a folder it did not create), set XDG_RUNTIME_DIR to a private folder, or name a socket path with --socket or ${SOCKET_ENV}`;
    const other = 4242;
    try {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 0o777 }), fc.boolean(), (mode, theirs) => {
          const owner = theirs && canChown ? other : me;
          chownSync(dir, owner, owner);
          chmodSync(dir, mode);
          let refusal: SvcError | undefined;
          try {
            ensurePrivateDir(dir);
          } catch (error) {
            assert.ok(error instanceof SvcError, String(error));
            refusal = error;
          }
          const st = lstatSync(dir);
          assert.deepEqual([st.mode & 0o777, st.uid], [mode, owner], 'a folder svc did not create is never changed');
          const shown = `0${mode.toString(8).padStart(3, '0')}`;
          const expected =
            owner !== me ? ['socket-dir-not-owned', `runtime folder ${dir} belongs to another user (uid ${other}), refused`, hint]
            : mode !== 0o700 ? ['socket-dir-not-private', `runtime folder ${dir} has mode ${shown}; it must be 0700 (yours alone), refused`, hint]
            : undefined;
          assert.deepEqual(refusal && [refusal.code, refusal.message, refusal.hint], expected);
        }),
        { numRuns: 150 },
      );
    } finally {
      chownSync(dir, me, me);
      chmodSync(dir, 0o700);
    }
  });
});

describe('a system without user ids (Windows)', { skip: unix }, () => {
  it('names the fallback runtime folder svc-user', () => {
    const target = withoutUserIds(() => socketTarget({ configFile: '/a/svc.yaml', env: { TMPDIR: '/t' }, platform: 'linux' }));
    assert.deepEqual(target, { kind: 'dir', dir: join('/t', 'svc-user', configKey('/a/svc.yaml')), source: 'TMPDIR' });
  });

  it('checks no owner or mode, having none to compare with, but still refuses a symbolic link in place of the folder', () => {
    const base = temp();
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    withoutUserIds(() => verifyPrivateDir(open));
    symlinkSync(open, join(base, 'link'));
    assert.throws(() => withoutUserIds(() => ensurePrivateDir(join(base, 'link'))), (e: SvcError) => e.code === 'socket-dir-symlink');
  });

  it('talks to any socket, and the CLI does not judge the runtime folders (even a symbolic link)', async () => {
    const base = temp();
    const sock = join(base, 's.sock');
    await listen(sock, (socket) => socket.end());
    withoutUserIds(() => verifySocketOwner(sock));
    mkdirSync(join(base, 'real', 'k'), { recursive: true, mode: 0o700 });
    symlinkSync(join(base, 'real'), join(base, 'svc'));
    const target: SocketTarget = { kind: 'dir', dir: join(base, 'svc', 'k'), source: 'TMPDIR' };
    assert.throws(() => verifyTargetDir(target), (e: SvcError) => e.code === 'socket-dir-symlink');
    withoutUserIds(() => verifyTargetDir(target));
  });
});

describe('Windows pipe names on this system', { skip: unix }, () => {
  /** A working folder open to others (0755): checking it as a runtime folder would refuse it. */
  function looseFolder(): string {
    const dir = temp();
    chmodSync(dir, 0o755);
    return dir;
  }
  const pipes = { kind: 'dir', dir: '\\\\.\\pipe\\svc-u-0123456789ab-', source: 'default' } as const satisfies SocketTarget;

  it('a user name in a pipe prefix keeps letters, digits, _ . and -, has every other character as _, and is never empty', () => {
    const kept = /^[A-Za-z0-9_.-]$/;
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom(...'aZ09_.-\\/: é'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), (name) => {
        const safe = pipeUserName(name);
        const expected = name === '' ? 'user' : [...name].map((c) => (kept.test(c) ? c : '_'.repeat(c.length))).join('');
        assert.equal(safe, expected);
        assert.match(safe, /^[A-Za-z0-9_.-]+$/);
      }),
    );
  });

  it('a user the system has no entry for (a bare uid, as in a container) is named user in the pipe prefix', { skip: canChown ? false : 'needs root to act as another user' }, () => {
    // A uid no account has: the system cannot name it.
    process.seteuid!(3_999_999);
    let target: SocketTarget;
    try {
      target = socketTarget({ configFile: 'C:/a/svc.yaml', env: {}, cwd: '/w', platform: 'win32' });
    } finally {
      process.seteuid!(0);
    }
    assert.deepEqual(target, { kind: 'dir', dir: `\\\\.\\pipe\\svc-user-${configKey(resolve('/w', 'C:/a/svc.yaml'))}-`, source: 'default' });
  });

  it('only a name that starts with \\\\.\\pipe\\ or \\\\?\\pipe\\ (any case) is a pipe; any other name is a path resolved against cwd', () => {
    for (const pipe of ['\\\\.\\pipe\\svc', '\\\\?\\PIPE\\svc']) {
      assert.deepEqual(socketTarget({ configFile: 'x', socket: pipe, cwd: '/c', env: {} }), { kind: 'explicit', path: pipe, source: '--socket' });
    }
    for (const name of ['x\\\\.\\pipe\\svc', '\\\\x\\pipe\\svc', '\\\\.\\pipes\\svc']) {
      assert.deepEqual(socketTarget({ configFile: 'x', socket: name, cwd: '/c', env: {} }), { kind: 'explicit', path: `/c/${name}`, source: '--socket' });
    }
  });

  it('a pipe name is never checked or prepared as a file here, not even where a file of that name exists', async () => {
    const dir = looseFolder();
    await inFolder(dir, () => {
      writeFileSync('\\\\.\\pipe\\x', 'not a socket');
      verifySocketOwner('\\\\.\\pipe\\x', me + 1);
      preparePrivateSocketDir(pipes, daemonSocketPath(pipes, 7));
      verifyTargetDir(pipes);
    });
    assert.deepEqual(readdirSync(dir), ['\\\\.\\pipe\\x']);
  });

  it('lists the pipes whose names start with the target prefix, as pipe paths; none where pipes cannot be listed', async () => {
    const dir = temp();
    await inFolder(dir, () => {
      // What readdir of \\.\pipe\ gives on Windows is, on this system, a folder of that name.
      mkdirSync('\\\\.\\pipe\\');
      for (const name of ['svc-u-0123456789ab-12', 'svc-u-0123456789ab-3-2', 'svc-u-ffffffffffff-12', 'x-svc-u-0123456789ab-1', 'svc-u-0123456789ab']) {
        writeFileSync(join('\\\\.\\pipe\\', name), '');
      }
      assert.deepEqual(listSockets(pipes).sort(), ['\\\\.\\pipe\\svc-u-0123456789ab-12', '\\\\.\\pipe\\svc-u-0123456789ab-3-2']);
    });
    // Nor is a pipe prefix ever read as a folder, though a folder of that name holds a socket name.
    await inFolder(temp(), () => {
      mkdirSync(pipes.dir);
      writeFileSync(join(pipes.dir, '12.sock'), '');
      assert.deepEqual(listSockets(pipes), []);
    });
  });
});
