// Where daemons listen, from the contract of src/ipc/paths.ts: which setting wins, the names of
// sockets and pipes, the OS limit on a socket path to the byte, and the private-folder checks with
// their exact refusals (each names the folder and what to do).
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { SvcError } from '../../src/model/errors.ts';
import {
  checkSocketPath,
  configKey,
  daemonSocketPath,
  ensurePrivateDir,
  listSockets,
  maxSocketPathBytes,
  preparePrivateSocketDir,
  socketTarget,
  verifyPrivateDir,
  verifySocketOwner,
  verifyTargetDir,
  type SocketTarget,
} from '../../src/ipc/paths.ts';

const unix = process.platform === 'win32' ? 'Unix only' : false;
const root = typeof process.getuid === 'function' && process.getuid() === 0 ? false : 'needs root to chown';
const uid = typeof process.getuid === 'function' ? process.getuid() : -1;

const made: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'svc-paths-'));
  made.push(d);
  return d;
};
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function refusal(code: string, message: string | RegExp, hint?: RegExp): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof SvcError, String(e));
    assert.equal(e.code, code);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    if (hint) assert.match(e.hint ?? '', hint);
    return true;
  };
}

describe('socketTarget', () => {
  it('uses XDG_RUNTIME_DIR/svc, else TMPDIR/svc-<uid>, else the system temp folder, with a 12-hex key per config', () => {
    const xdg = socketTarget({ configFile: '/a/svc.yaml', env: { XDG_RUNTIME_DIR: '/run/u' }, platform: 'linux' });
    assert.deepEqual(xdg, { kind: 'dir', dir: join('/run/u', 'svc', configKey('/a/svc.yaml')), source: 'XDG_RUNTIME_DIR' });
    assert.match(configKey('/a/svc.yaml'), /^[0-9a-f]{12}$/);
    const tmp = socketTarget({ configFile: '/a/svc.yaml', env: { TMPDIR: '/t' }, platform: 'linux' });
    assert.deepEqual(tmp, { kind: 'dir', dir: join('/t', `svc-${uid}`, configKey('/a/svc.yaml')), source: 'TMPDIR' });
    const none = socketTarget({ configFile: '/a/svc.yaml', env: { TMPDIR: '' }, platform: 'linux' });
    assert.equal(none.kind === 'dir' && none.dir, join(tmpdir(), `svc-${uid}`, configKey('/a/svc.yaml')));
  });

  it('on Windows, a pipe prefix with the user name in it', () => {
    const t = socketTarget({ configFile: 'C:/a/svc.yaml', env: {}, cwd: '/w', platform: 'win32' });
    const name = userInfo().username.replace(/[^A-Za-z0-9_.-]/g, '_') || 'user';
    assert.deepEqual(t, { kind: 'dir', dir: `\\\\.\\pipe\\svc-${name}-${configKey(resolve('/w', 'C:/a/svc.yaml'))}-`, source: 'default' });
    assert.equal(daemonSocketPath(t, 12), `${t.kind === 'dir' ? t.dir : ''}12`);
    assert.equal(daemonSocketPath(t, 12, 3), `${t.kind === 'dir' ? t.dir : ''}12-3`);
  });

  it('an explicit path resolves against cwd, a Windows pipe name is kept as written, and the first setting given wins', () => {
    assert.deepEqual(socketTarget({ configFile: 'x', socket: 'rel.sock', cwd: '/c', env: {} }), { kind: 'explicit', path: '/c/rel.sock', source: '--socket' });
    assert.deepEqual(socketTarget({ configFile: 'x', env: { SVC_SOCKET: '\\\\.\\pipe\\mine' } }), { kind: 'explicit', path: '\\\\.\\pipe\\mine', source: 'SVC_SOCKET' });
    assert.deepEqual(socketTarget({ configFile: 'x', configSocket: 'c.sock', cwd: '/c', env: { SVC_SOCKET: '' } }), { kind: 'explicit', path: '/c/c.sock', source: 'socket (in svc.yaml)' });
    assert.deepEqual(socketTarget({ configFile: 'x', socket: '', configSocket: 'c.sock', cwd: '/c', env: {} }).kind, 'explicit');
  });

  it('one config file reached by a symbolic link or a relative path has the same key', () => {
    const d = temp();
    writeFileSync(join(d, 'svc.yaml'), 'specs: []\n');
    symlinkSync(join(d, 'svc.yaml'), join(d, 'link.yaml'));
    assert.equal(configKey(join(d, 'link.yaml')), configKey(join(d, 'svc.yaml')));
    assert.equal(socketTarget({ configFile: 'svc.yaml', cwd: d, env: { XDG_RUNTIME_DIR: '/r' } }).source, 'XDG_RUNTIME_DIR');
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
      fc.pre(a !== b);
      assert.notEqual(configKey(`/nope/${a}`), configKey(`/nope/${b}`));
    }));
  });
});

describe('socket names and the path limit', () => {
  it('names the first daemon of a process <pid>.sock and later ones <pid>-<n>.sock; an explicit path is itself', () => {
    const dir: SocketTarget = { kind: 'dir', dir: '/r/k', source: 'x' };
    assert.equal(daemonSocketPath(dir, 5), '/r/k/5.sock');
    assert.equal(daemonSocketPath(dir, 5, 1), '/r/k/5.sock');
    assert.equal(daemonSocketPath(dir, 5, 2), '/r/k/5-2.sock');
    assert.equal(daemonSocketPath(dir), `/r/k/${process.pid}.sock`);
    assert.equal(daemonSocketPath({ kind: 'explicit', path: '/p.sock', source: 's' }, 5, 4), '/p.sock');
  });

  it('accepts a path of exactly the limit in bytes and refuses one byte more, on Linux 107 and elsewhere 103; Windows has none', () => {
    assert.equal(maxSocketPathBytes('linux'), 107);
    assert.equal(maxSocketPathBytes('darwin'), 103);
    assert.equal(maxSocketPathBytes('freebsd'), 103);
    const target: SocketTarget = { kind: 'explicit', path: '', source: '--socket' };
    fc.assert(fc.property(fc.constantFrom<NodeJS.Platform>('linux', 'darwin'), fc.integer({ min: 50, max: 200 }), fc.boolean(), (platform, bytes, wide) => {
      // Multi-byte characters count as their bytes.
      const path = `/${wide ? 'é'.repeat(Math.floor((bytes - 1) / 2)) + 'x'.repeat((bytes - 1) % 2) : 'x'.repeat(bytes - 1)}`;
      assert.equal(Buffer.byteLength(path), bytes);
      const max = maxSocketPathBytes(platform);
      if (bytes <= max) checkSocketPath(path, target, platform);
      else assert.throws(() => checkSocketPath(path, target, platform), refusal('socket-path-too-long', `socket path is ${bytes} bytes, over this system's limit of ${max}: ${path}`, /^choose a shorter path for --socket$/));
    }));
    checkSocketPath(`/${'x'.repeat(500)}`, target, 'win32');
    assert.throws(
      () => checkSocketPath(`/${'x'.repeat(200)}`, { kind: 'dir', dir: '/d', source: 'TMPDIR' }, 'linux'),
      refusal('socket-path-too-long', /over this system's limit of 107/, /^set TMPDIR to a shorter folder, or name a short socket path with --socket or SVC_SOCKET$/),
    );
  });
});

describe('private folders', { skip: unix }, () => {
  it('creates a missing folder 0700 even under a loose umask, and accepts it again', () => {
    const d = join(temp(), 'run');
    const old = process.umask(0o000);
    try {
      ensurePrivateDir(d);
    } finally {
      process.umask(old);
    }
    verifyPrivateDir(d);
    ensurePrivateDir(d);
  });

  it('refuses a folder open to others, naming its mode; never repairs one it did not create', () => {
    const d = join(temp(), 'open');
    mkdirSync(d, { mode: 0o755 });
    chmodSync(d, 0o755);
    assert.throws(() => ensurePrivateDir(d), refusal('socket-dir-not-private', `runtime folder ${d} has mode 0755; it must be 0700 (yours alone), refused`, /svc never changes a folder it did not create/));
    chmodSync(d, 0o701);
    assert.throws(() => verifyPrivateDir(d), refusal('socket-dir-not-private', /mode 0701/));
  });

  it('refuses a symbolic link and a file in place of the folder', () => {
    const base = temp();
    const real = join(base, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(base, 'link'));
    assert.throws(() => ensurePrivateDir(join(base, 'link')), refusal('socket-dir-symlink', `runtime folder ${join(base, 'link')} is a symbolic link, refused`));
    writeFileSync(join(base, 'file'), '');
    assert.throws(() => ensurePrivateDir(join(base, 'file')), refusal('socket-dir-not-folder', `runtime folder ${join(base, 'file')} exists and is not a folder`));
  });

  it('cannot create a folder whose parent is missing, and says so', () => {
    const d = join(temp(), 'no', 'such');
    assert.throws(() => ensurePrivateDir(d), refusal('socket-dir-unusable', new RegExp(`^cannot create the runtime folder ${d}: `), /parent folder exists/));
  });

  it('refuses a folder of another user even at mode 0700', { skip: root }, () => {
    const d = join(temp(), 'theirs');
    mkdirSync(d, { mode: 0o700 });
    chownSync(d, 4242, 4242);
    assert.throws(() => verifyPrivateDir(d), refusal('socket-dir-not-owned', `runtime folder ${d} belongs to another user (uid 4242), refused`));
  });

  it('prepares both levels of a per-config target private, and the parent of an explicit path', () => {
    const base = temp();
    const target: SocketTarget = { kind: 'dir', dir: join(base, 'svc', 'key'), source: 'XDG_RUNTIME_DIR' };
    preparePrivateSocketDir(target, daemonSocketPath(target, 1));
    verifyPrivateDir(join(base, 'svc'));
    verifyPrivateDir(join(base, 'svc', 'key'));
    verifyTargetDir(target);
    const explicit: SocketTarget = { kind: 'explicit', path: join(base, 'a', 'b', 'x.sock'), source: '--socket' };
    preparePrivateSocketDir(explicit, explicit.path);
    verifyPrivateDir(join(base, 'a', 'b'));
    // verifyTargetDir: nothing made yet passes; a loose folder does not.
    verifyTargetDir({ kind: 'dir', dir: join(base, 'none', 'k'), source: 'x' });
    chmodSync(join(base, 'svc'), 0o755);
    assert.throws(() => verifyTargetDir(target), refusal('socket-dir-not-private', /0755/));
    verifyTargetDir(explicit);
  });
});

describe('sockets', { skip: unix }, () => {
  it('lists only <pid>.sock and <pid>-<n>.sock names, in pid order; an explicit target is its path; a missing folder none', async () => {
    const d = temp();
    for (const name of ['10.sock', '9.sock', '100-2.sock', '7-1.sock', 'x.sock', '12.sock.bak', '3.socket', 'a12.sock']) writeFileSync(join(d, name), '');
    assert.deepEqual(listSockets({ kind: 'dir', dir: d, source: 'x' }), ['7-1.sock', '9.sock', '10.sock', '100-2.sock'].map((n) => join(d, n)));
    assert.deepEqual(listSockets({ kind: 'explicit', path: '/p.sock', source: 's' }), ['/p.sock']);
    assert.deepEqual(listSockets({ kind: 'dir', dir: join(d, 'missing'), source: 'x' }), []);
  });

  it('refuses to talk to a file that is not a socket or a socket of another user; a missing path passes', async () => {
    const d = temp();
    writeFileSync(join(d, 'plain'), '');
    assert.throws(() => verifySocketOwner(join(d, 'plain')), refusal('socket-not-socket', `${join(d, 'plain')} is not a socket, refused`));
    verifySocketOwner(join(d, 'missing.sock'));
    const path = join(d, 's.sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(path, r));
    try {
      verifySocketOwner(path);
      assert.throws(() => verifySocketOwner(path, uid + 1), refusal('socket-not-owned', `socket ${path} belongs to another user (uid ${uid}), refused`));
      verifySocketOwner(path, undefined);
      verifySocketOwner('\\\\.\\pipe\\x', uid + 1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
