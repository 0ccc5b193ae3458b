// Edges of the socket contract the other IPC tests leave out: the path limit at its exact byte,
// a folder made under a narrowing umask, a daemon that holds the socket but does not answer, a
// client that sends a line without end, stale sockets cleaned when a daemon starts, and discovery
// sorting live from unresponsive and refusing a runtime folder open to others.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discover } from '../../src/ipc/client.ts';
import { checkSocketPath, daemonSocketPath, ensurePrivateDir, maxSocketPathBytes, type SocketTarget } from '../../src/ipc/paths.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { DaemonRunningError } from '../../src/ipc/socket-file.ts';
import { SvcError } from '../../src/model/errors.ts';
import { socketScratch } from './scratch.ts';
import { killedSocketHolder } from './stale-socket.ts';

/** Each test takes a second or two; one that hangs fails here instead of stalling the run. */
const HANG_MS = 15_000;
const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const { temp, listen } = socketScratch('svc-ipce-');
const ping = () => ({ pid: process.pid, version: 't', protocol: 1, config: '/c' });

/** Something listening on `path` that never answers. */
async function silent(path: string): Promise<void> {
  await listen(path, () => {});
}

/** A socket file left by a process killed with SIGKILL. */
const staleSocket = killedSocketHolder;

describe('paths at their edges', { timeout: HANG_MS }, () => {
  it('a socket path of exactly the limit passes and one byte more is refused, on Linux and elsewhere', { timeout: HANG_MS }, () => {
    const target: SocketTarget = { kind: 'explicit', path: '', source: '--socket' };
    for (const platform of ['linux', 'darwin'] as const) {
      const max = maxSocketPathBytes(platform);
      checkSocketPath(`/${'x'.repeat(max - 1)}`, target, platform);
      assert.throws(() => checkSocketPath(`/${'x'.repeat(max)}`, target, platform), (e: unknown) => e instanceof SvcError && e.code === 'socket-path-too-long');
    }
  });

  it('a folder it creates is 0700 even when the umask would leave it narrower', { skip, timeout: HANG_MS }, () => {
    const d = join(temp(), 'run');
    const old = process.umask(0o277);
    try {
      ensurePrivateDir(d);
    } finally {
      process.umask(old);
    }
    assert.equal(statSync(d).mode & 0o777, 0o700);
  });
});

describe('daemons on a socket', { skip, timeout: HANG_MS }, () => {
  it('a socket held by something that does not answer is not taken: the start says a daemon is there, without a pid', { timeout: HANG_MS }, async () => {
    const path = join(temp(), 'busy.sock');
    await silent(path);
    await assert.rejects(IpcServer.listen({ target: { kind: 'explicit', path, source: '--socket' }, handlers: { ping } }), (e: unknown) => {
      assert.ok(e instanceof DaemonRunningError);
      assert.equal(e.message, `a daemon is already serving on ${path}`);
      assert.equal(e.pid, undefined);
      assert.equal(e.path, path);
      return true;
    });
    assert.ok(existsSync(path), 'left alone');
  });

  it('a live daemon is named with its pid', { timeout: HANG_MS }, async () => {
    const path = join(temp(), 'live.sock');
    const first = await IpcServer.listen({ target: { kind: 'explicit', path, source: '--socket' }, handlers: { ping } });
    try {
      await assert.rejects(IpcServer.listen({ target: { kind: 'explicit', path, source: '--socket' }, handlers: { ping } }), (e: unknown) => e instanceof DaemonRunningError && e.message === `a daemon (pid ${process.pid}) is already serving on ${path}` && e.pid === process.pid);
    } finally {
      await first.close();
    }
  });

  it('a line without end is answered after what came before, with why, and the connection is closed', { timeout: HANG_MS }, async () => {
    const server = await IpcServer.listen({ target: { kind: 'explicit', path: join(temp(), 'e.sock'), source: 't' }, handlers: { ping }, maxMessageBytes: 100, maxDiscardBytes: 1000 });
    try {
      const replies = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const socket = createConnection(server.path, () => {
          socket.write(`${JSON.stringify({ v: 1, id: 1, method: 'ping' })}\n`);
          socket.write('x'.repeat(5000));
        });
        let buf = '';
        socket.on('data', (d) => (buf += d.toString()));
        socket.on('error', reject);
        socket.on('close', () => resolve(buf.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)));
      });
      assert.equal(replies.length, 3, JSON.stringify(replies));
      // The request and the oversized line are both answered (in either order), the hang-up last.
      assert.deepEqual(replies.slice(0, 2).find((r) => r['id'] === 1), { v: 1, id: 1, ok: true, result: ping() });
      // How many bytes each message counts depends on how the kernel cut the stream.
      const oversized = replies.slice(0, 2).find((r) => r['id'] === null)!;
      assert.deepEqual(Object.keys(oversized), ['v', 'id', 'ok', 'error']);
      assert.equal(oversized['ok'], false);
      assert.match((oversized['error'] as { message: string }).message, /^message over the limit of 100 bytes \(\d+ bytes so far\); it is skipped up to its newline$/);
      const last = replies[2]!;
      assert.deepEqual([last['v'], last['id'], last['ok'], (last['error'] as { code: string }).code], [1, null, false, 'too-large']);
      assert.match((last['error'] as { message: string }).message, /^no newline after \d{4} bytes over the message limit of 100; closing the connection$/);
      // The daemon goes on serving others.
      assert.equal(server.connections, 0);
    } finally {
      await server.close();
    }
  });

  it('a daemon starting in a per-config folder removes the sockets of dead daemons there, and leaves live ones', { timeout: HANG_MS }, async () => {
    const target: SocketTarget = { kind: 'dir', dir: join(temp(), 'svc', 'k'), source: 'XDG_RUNTIME_DIR' };
    const first = await IpcServer.listen({ target, handlers: { ping } });
    const dead = daemonSocketPath(target, 999_999_7);
    await staleSocket(dead);
    assert.ok(existsSync(dead));
    const second = await IpcServer.listen({ target, handlers: { ping } });
    try {
      const deadline = Date.now() + 10_000;
      while (existsSync(dead) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(existsSync(dead), false, 'the dead one is gone');
      assert.ok(existsSync(first.path), 'the live one stays');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('discovery tells live daemons from unresponsive ones, and refuses a runtime folder open to others', { timeout: HANG_MS }, async () => {
    const runtime = temp();
    const target: SocketTarget = { kind: 'dir', dir: join(runtime, 'svc', 'k'), source: 'XDG_RUNTIME_DIR' };
    const live = await IpcServer.listen({ target, handlers: { ping } });
    const mute = daemonSocketPath(target, 999_999_8);
    await silent(mute);
    try {
      const found = await discover(target, 300);
      assert.deepEqual(found.live.map((l) => l.socket), [live.path]);
      assert.deepEqual(found.unresponsive.map((u) => u.socket), [mute]);
      assert.deepEqual(found.removed, []);
      chmodSync(join(runtime, 'svc'), 0o755);
      await assert.rejects(discover(target, 300), (e: unknown) => e instanceof SvcError && e.code === 'socket-dir-not-private');
      chmodSync(join(runtime, 'svc'), 0o700);
    } finally {
      await live.close();
    }
  });
});
