// A daemon's socket appears under its own name only once it listens: it is bound under a hidden
// name and linked into place. A file that refused connections for a moment (between bind and
// listen) was taken by another daemon starting beside it, or by `svc status`, for a dead daemon's
// leftover and removed, and that daemon could no longer be reached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';
import fc from 'fast-check';
import { request } from '../../src/ipc/client.ts';
import { listSockets, maxSocketPathBytes, socketTarget } from '../../src/ipc/paths.ts';
import { PROTOCOL_VERSION } from '../../src/ipc/protocol.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { DaemonRunningError, HIDDEN_LEFTOVER_AGE_MS, bindingPath, hiddenLeftovers, linkIntoPlace } from '../../src/ipc/socket-file.ts';
import { socketScratch } from './scratch.ts';
import { killedSocketHolder } from './stale-socket.ts';

const skipWindows = process.platform === 'win32' ? 'Unix sockets only' : false;

const scratch = socketScratch('svc-claim-');

const handlers = { ping: () => ({ pid: process.pid, version: 'test', protocol: PROTOCOL_VERSION, config: '/x/svc.yaml' }) };

test('a listening daemon leaves only its own socket in the folder, private, answering', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  const target = socketTarget({ configFile: '/x/svc.yaml', env: { XDG_RUNTIME_DIR: dir } });
  const servers = await Promise.all([IpcServer.listen({ target, handlers }), IpcServer.listen({ target, handlers })]);
  try {
    const folder = dirname(servers[0]!.path);
    // No hidden name is left behind, and each socket is one a listing finds.
    assert.deepEqual(readdirSync(folder).sort(), servers.map((s) => basename(s.path)).sort());
    assert.deepEqual(listSockets(target).sort(), servers.map((s) => s.path).sort());
    for (const s of servers) {
      assert.equal(statSync(s.path).mode & 0o777, 0o600);
      assert.equal((await request(s.path, 'ping', {}, { timeoutMs: 5000 })).pid, process.pid);
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});

test('closed, a daemon removes its socket and nothing else is left', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  const target = socketTarget({ configFile: '/x/svc.yaml', env: { XDG_RUNTIME_DIR: dir } });
  const server = await IpcServer.listen({ target, handlers });
  const folder = dirname(server.path);
  await server.close();
  assert.deepEqual(readdirSync(folder), []);
});

test('the name bound first is hidden, in the same folder, never a daemon socket name; the path itself when that would be too long, and for pipes', () => {
  fc.assert(
    // The limit is drawn around the hidden name's length, so that both sides of it come up.
    fc.property(fc.stringMatching(/^\/[a-z0-9/]{0,80}$/), fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: -4, max: 4 }), (folder, pid, slack) => {
      const path = join(folder, `${pid}.sock`);
      const max = Buffer.byteLength(join(folder, '.00000000')) + slack;
      const bound = bindingPath(path, max);
      if (bound === path) {
        assert.ok(Buffer.byteLength(join(folder, '.00000000')) > max, 'the path itself only when the hidden name does not fit');
        return;
      }
      assert.equal(dirname(bound), dirname(path));
      assert.match(basename(bound), /^\.[0-9a-f]{8}$/);
      assert.doesNotMatch(basename(bound), /^\d+(-\d+)?\.sock$/);
      assert.ok(Buffer.byteLength(bound) <= max);
    }),
  );
  assert.equal(bindingPath('\\\\.\\pipe\\svc-1234', 200), '\\\\.\\pipe\\svc-1234');
});

test('a name taken meanwhile stops the start as a second daemon would: the server closes, its hidden name goes', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  const bound = join(dir, '.0badc0de');
  const path = join(dir, '4242.sock');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(bound, resolve));
  // Another daemon's socket got the name first (here a file standing in for it).
  writeFileSync(path, '');
  await assert.rejects(linkIntoPlace(server, bound, path), DaemonRunningError);
  assert.equal(server.listening, false);
  assert.deepEqual(readdirSync(dir), ['4242.sock']);
});

test('a failure other than a taken name is that failure, and the server is closed', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  const bound = join(dir, '.0badc0de');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(bound, resolve));
  // A folder that does not exist: neither a link nor a rename can put the socket there.
  await assert.rejects(linkIntoPlace(server, bound, join(dir, 'gone', '4242.sock')), (error: NodeJS.ErrnoException) => error.code === 'ENOENT' && !(error instanceof DaemonRunningError));
  assert.equal(server.listening, false);
  assert.deepEqual(readdirSync(dir), []);
});

test('on a file system without hard links the socket is renamed into place, answers there, and the hidden name goes', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  const bound = join(dir, '.0badc0de');
  const path = join(dir, '4242.sock');
  const server = createServer((socket) => socket.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(bound, resolve));
  try {
    const noLinks = {
      link: () => {
        throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
      },
      rename: renameSync,
    };
    await linkIntoPlace(server, bound, path, noLinks);
    assert.equal(server.listening, true);
    assert.deepEqual(readdirSync(dir), ['4242.sock']);
    const reply = await new Promise<string>((resolve, reject) => {
      const c = connect(path);
      let text = '';
      c.on('data', (d) => (text += d));
      c.on('end', () => resolve(text));
      c.on('error', reject);
    });
    assert.equal(reply, 'hello\n');
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('a socket path at the system limit, where the hidden name does not fit, is bound directly', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  // A one-letter socket name whose path is exactly as long as the system allows.
  const pad = maxSocketPathBytes() - Buffer.byteLength(join(dir, 'x', 's')) + 1;
  const folder = join(dir, 'x'.repeat(pad));
  const path = join(folder, 's');
  assert.equal(Buffer.byteLength(path), maxSocketPathBytes());
  mkdirSync(folder, { mode: 0o700 });
  const server = await IpcServer.listen({ target: socketTarget({ configFile: '/x/svc.yaml', socket: path }), handlers });
  try {
    assert.equal(server.path, path);
    assert.equal((await request(path, 'ping', {}, { timeoutMs: 5000 })).pid, process.pid);
    assert.deepEqual(readdirSync(folder), ['s']);
  } finally {
    await server.close();
  }
});

test('a starting daemon removes hidden binding names left by a daemon that died before linking, once they are old, and nothing else', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  const target = socketTarget({ configFile: '/x/svc.yaml', env: { XDG_RUNTIME_DIR: dir } });
  assert.equal(target.kind, 'dir');
  const folder = target.kind === 'dir' ? target.dir : '';
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // Two leftovers of killed daemons: one older than a start can take, one that may be a daemon starting now.
  const old = join(folder, '.0123abcd');
  const young = join(folder, '.89abcdef');
  await killedSocketHolder(old);
  await killedSocketHolder(young);
  const past = new Date(Date.now() - HIDDEN_LEFTOVER_AGE_MS - 5_000);
  utimesSync(old, past, past);
  // Hidden files that are not binding names: another name shape, or not a socket.
  writeFileSync(join(folder, '.fedcba98'), 'not a socket');
  utimesSync(join(folder, '.fedcba98'), past, past);
  writeFileSync(join(folder, '.notes'), '');
  const server = await IpcServer.listen({ target, handlers });
  try {
    const deadline = Date.now() + 5_000;
    while (existsSync(old) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(existsSync(old), false, 'the old leftover is removed');
    assert.deepEqual(readdirSync(folder).sort(), ['.89abcdef', '.fedcba98', '.notes', basename(server.path)].sort());
  } finally {
    await server.close();
  }
});

test('hidden leftovers: exactly the hidden binding names that are sockets older than the age, whatever else the folder holds', { skip: skipWindows }, async () => {
  const dir = scratch.temp();
  const names = ['.00000000', '.ffffffff', '.1234567', '.123456789', '.ABCDEF12', '00000000', '.0000000g'];
  for (const name of names) await killedSocketHolder(join(dir, name));
  // A file of the right name that is not a socket, however old: never a leftover of a daemon.
  writeFileSync(join(dir, '.abcdef01'), '');
  const long = new Date(Date.now() - 100 * HIDDEN_LEFTOVER_AGE_MS);
  utimesSync(join(dir, '.abcdef01'), long, long);
  const now = Date.now();
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: -1_000, max: 10 * HIDDEN_LEFTOVER_AGE_MS }), { minLength: names.length, maxLength: names.length }), async (ages) => {
      names.forEach((name, i) => {
        const at = new Date(now - ages[i]!);
        utimesSync(join(dir, name), at, at);
      });
      const expected = names.filter((name, i) => /^\.[0-9a-f]{8}$/.test(name) && ages[i]! > HIDDEN_LEFTOVER_AGE_MS + 1_000).map((n) => join(dir, n));
      const ambiguous = names.filter((_, i) => Math.abs(ages[i]! - HIDDEN_LEFTOVER_AGE_MS) <= 1_000).map((n) => join(dir, n));
      const found = hiddenLeftovers(dir, now).filter((p) => !ambiguous.includes(p));
      assert.deepEqual(found.sort(), expected.filter((p) => !ambiguous.includes(p)).sort());
    }),
    { numRuns: 50 },
  );
  assert.deepEqual(hiddenLeftovers(join(dir, 'absent'), now), []);
});
