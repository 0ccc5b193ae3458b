// The IPC server and client over a real Unix socket in a temporary folder.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { IpcServer } from '../../src/ipc/server.ts';
import { DaemonRunningError } from '../../src/ipc/socket-file.ts';
import { request, discover, probe, IpcRemoteError } from '../../src/ipc/client.ts';
import { socketTarget, checkSocketPath, daemonSocketPath, listSockets } from '../../src/ipc/paths.ts';
import { SvcError } from '../../src/model/errors.ts';
import { PROTOCOL_VERSION } from '../../src/ipc/protocol.ts';
import { killedSocketHolder } from './stale-socket.ts';

const skipWindows = process.platform === 'win32' ? 'Unix sockets only' : false;

/** Every runtime folder made here, removed once the file's tests end (whatever they left in it). */
const runtimes: string[] = [];
after(() => {
  for (const dir of runtimes) rmSync(dir, { recursive: true, force: true });
});

function tempRuntime(): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ipc-'));
  runtimes.push(dir);
  return { env: { XDG_RUNTIME_DIR: dir }, dir };
}

const handlers = {
  ping: () => ({ pid: process.pid, version: 'test', protocol: PROTOCOL_VERSION, config: '/x/svc.yaml' }),
  echo: (params: Record<string, unknown>) => params,
  fail: () => {
    throw new SvcError('no-such-thing', 'there is no such thing', { hint: 'try another' });
  },
  crash: () => {
    throw new TypeError('boom');
  },
  slow: async (_p: Record<string, unknown>, ctx: { progress: (p: { done: number; total: number }) => void }) => {
    for (let i = 1; i <= 3; i++) {
      await new Promise((r) => setTimeout(r, 5));
      ctx.progress({ done: i, total: 3 });
    }
    return 'done';
  },
};

/** Raw line-level conversation: write lines, collect reply lines. */
async function converse(path: string, payload: string | Buffer, expectReplies: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buf = '';
    const replies: Record<string, unknown>[] = [];
    socket.on('connect', () => socket.write(payload));
    socket.on('error', reject);
    socket.on('data', (d) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        replies.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
      }
      if (replies.length >= expectReplies) {
        socket.destroy();
        resolve(replies);
      }
    });
  });
}

test('the socket is private: folder 0700, socket 0600, named <pid>.sock under a per-config folder', { skip: skipWindows, timeout: 8000 }, async () => {
  const { env, dir } = tempRuntime();
  const target = socketTarget({ configFile: join(dir, 'svc.yaml'), env });
  const server = await IpcServer.listen({ target, handlers });
  try {
    assert.equal(server.path, join(target.kind === 'dir' ? target.dir : '', `${process.pid}.sock`));
    assert.equal(statSync(server.path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'svc')).mode & 0o777, 0o700);
    assert.equal(statSync(join(server.path, '..')).mode & 0o777, 0o700);
    const ping = await request(server.path, 'ping');
    assert.equal(ping.pid, process.pid);
  } finally {
    await server.close();
  }
  assert.equal(existsSync(server.path), false, 'close removes the socket file');
});

test('different config files get different folders, the same file the same one', () => {
  const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
  const a = socketTarget({ configFile: '/a/svc.yaml', env });
  const b = socketTarget({ configFile: '/b/svc.yaml', env });
  const a2 = socketTarget({ configFile: 'svc.yaml', cwd: '/a', env });
  assert.notDeepEqual(a, b);
  assert.deepEqual(a, a2);
});

test('--socket beats SVC_SOCKET, which beats socket: in svc.yaml, which beats the derived folder', () => {
  const env = { XDG_RUNTIME_DIR: '/run/user/1000', SVC_SOCKET: '/tmp/env.sock' };
  assert.deepEqual(socketTarget({ configFile: '/a/svc.yaml', socket: '/tmp/flag.sock', env }), { kind: 'explicit', path: '/tmp/flag.sock', source: '--socket' });
  assert.deepEqual(socketTarget({ configFile: '/a/svc.yaml', configSocket: '/tmp/cfg.sock', env }), { kind: 'explicit', path: '/tmp/env.sock', source: 'SVC_SOCKET' });
  assert.equal(socketTarget({ configFile: '/a/svc.yaml', configSocket: 'cfg.sock', cwd: '/c', env: {} }).kind, 'explicit');
});

test('a socket path over the OS limit is refused with the setting to change', () => {
  const long = `/tmp/${'d'.repeat(120)}`;
  const dirTarget = socketTarget({ configFile: '/a/svc.yaml', env: { XDG_RUNTIME_DIR: long } });
  assert.throws(
    () => checkSocketPath(daemonSocketPath(dirTarget, 123), dirTarget, 'linux'),
    (e: SvcError) => e.code === 'socket-path-too-long' && /XDG_RUNTIME_DIR/.test(e.hint ?? '') && /107/.test(e.message),
  );
  const tmpTarget = socketTarget({ configFile: '/a/svc.yaml', env: { TMPDIR: long } });
  assert.throws(() => checkSocketPath(daemonSocketPath(tmpTarget, 123), tmpTarget, 'darwin'), (e: SvcError) => /TMPDIR/.test(e.hint ?? '') && /103/.test(e.message));
  const explicit = socketTarget({ configFile: '/a/svc.yaml', socket: `${long}/x.sock`, env: {} });
  assert.throws(() => checkSocketPath(daemonSocketPath(explicit), explicit, 'linux'), (e: SvcError) => /--socket/.test(e.hint ?? ''));
  assert.doesNotThrow(() => checkSocketPath('/run/user/1000/svc/abc/1.sock', dirTarget, 'linux'));
});

test('garbage, oversized, unknown and wrong-version messages get error replies; the connection keeps serving', { skip: skipWindows, timeout: 8000 }, async () => {
  const { env, dir } = tempRuntime();
  const server = await IpcServer.listen({ target: socketTarget({ configFile: join(dir, 'svc.yaml'), env }), handlers, maxMessageBytes: 4096 });
  try {
    const lines = [
      'this is not json',
      '[1,2,3]',
      JSON.stringify({ v: 1, method: 'ping' }),
      JSON.stringify({ v: 99, id: 1, method: 'ping' }),
      JSON.stringify({ v: 1, id: 2, method: 'nope' }),
      JSON.stringify({ v: 1, id: 3, method: 'echo', params: 'x' }),
      'y'.repeat(100_000),
      JSON.stringify({ v: 1, id: 4, method: 'fail' }),
      JSON.stringify({ v: 1, id: 5, method: 'crash' }),
      JSON.stringify({ v: 1, id: 6, method: 'echo', params: { a: 1 } }),
    ];
    const replies = await converse(server.path, `${lines.join('\n')}\n`, lines.length);
    const codes = replies.map((r) => (r['ok'] ? 'ok' : (r['error'] as { code: string }).code));
    assert.deepEqual(codes, ['bad-json', 'bad-request', 'bad-request', 'unsupported-version', 'unknown-method', 'bad-params', 'too-large', 'no-such-thing', 'internal', 'ok']);
    assert.deepEqual(replies.at(-1), { v: 1, id: 6, ok: true, result: { a: 1 } });
    assert.match((replies[6]!['error'] as { message: string }).message, /over the limit of 4096/);
    assert.equal((replies[7]!['error'] as { hint: string }).hint, 'try another');
    // And the server still answers new connections.
    assert.equal((await request(server.path, 'ping')).pid, process.pid);
  } finally {
    await server.close();
  }
});

test('a client that closes mid-message does not disturb the server', { skip: skipWindows, timeout: 8000 }, async () => {
  const { env, dir } = tempRuntime();
  const server = await IpcServer.listen({ target: socketTarget({ configFile: join(dir, 'svc.yaml'), env }), handlers });
  try {
    await new Promise<void>((resolve) => {
      const s = createConnection(server.path, () => {
        s.write('{"v":1,"id":1,"meth');
        s.destroy();
        resolve();
      });
    });
    assert.equal((await request(server.path, 'ping')).pid, process.pid);
  } finally {
    await server.close();
  }
});

test('the client surfaces error replies as IpcRemoteError with code and hint, and streams progress', { skip: skipWindows, timeout: 8000 }, async () => {
  const { env, dir } = tempRuntime();
  const server = await IpcServer.listen({ target: socketTarget({ configFile: join(dir, 'svc.yaml'), env }), handlers });
  try {
    await assert.rejects(request(server.path, 'fail' as 'ping'), (e: IpcRemoteError) => e instanceof IpcRemoteError && e.code === 'no-such-thing' && e.hint === 'try another');
    const seen: number[] = [];
    const result = await request(server.path, 'slow' as 'ping', {}, { onProgress: (p) => seen.push(p.done) });
    assert.equal(result as unknown, 'done');
    assert.deepEqual(seen, [1, 2, 3]);
  } finally {
    await server.close();
  }
});

test('a second server on the same explicit socket gets a clear message naming the live one', { skip: skipWindows, timeout: 8000 }, async () => {
  const { dir } = tempRuntime();
  const target = socketTarget({ configFile: join(dir, 'svc.yaml'), socket: join(dir, 'one.sock'), env: {} });
  const first = await IpcServer.listen({ target, handlers });
  try {
    await assert.rejects(IpcServer.listen({ target, handlers }), (e: DaemonRunningError) => {
      assert.ok(e instanceof DaemonRunningError);
      assert.match(e.message, new RegExp(`pid ${process.pid}.*already serving on .*one\\.sock`));
      assert.match(e.hint ?? '', /svc status/);
      return true;
    });
    assert.equal((await request(first.path, 'ping')).pid, process.pid, 'the first keeps serving');
  } finally {
    await first.close();
  }
});

test('a file that is not a socket is never removed to make room', { skip: skipWindows, timeout: 8000 }, async () => {
  const { dir } = tempRuntime();
  const path = join(dir, 'precious.sock');
  writeFileSync(path, 'data');
  const target = socketTarget({ configFile: join(dir, 'svc.yaml'), socket: path, env: {} });
  await assert.rejects(IpcServer.listen({ target, handlers }), /exists and is not a socket/);
  assert.equal(existsSync(path), true);
});

/** A socket file left by a process killed with SIGKILL. */
async function staleSocket(path: string): Promise<void> {
  await killedSocketHolder(path);
  assert.equal(existsSync(path), true, 'a killed process leaves its socket file');
}

test('a stale socket of a dead daemon is taken over on the explicit path', { skip: skipWindows, timeout: 8000 }, async () => {
  const { dir } = tempRuntime();
  const path = join(dir, 'stale.sock');
  await staleSocket(path);
  assert.equal((await probe(path)).kind, 'stale');
  const server = await IpcServer.listen({ target: socketTarget({ configFile: join(dir, 'svc.yaml'), socket: path, env: {} }), handlers });
  try {
    assert.equal((await request(server.path, 'ping')).pid, process.pid);
  } finally {
    await server.close();
  }
});

test('discover finds every live daemon of a config and removes stale sockets', { skip: skipWindows, timeout: 8000 }, async () => {
  const { env, dir } = tempRuntime();
  const target = socketTarget({ configFile: join(dir, 'svc.yaml'), env });
  const server = await IpcServer.listen({ target, handlers });
  try {
    const deadPath = daemonSocketPath(target, 999_999_1);
    await staleSocket(deadPath);
    assert.equal(listSockets(target).length, 2);
    const found = await discover(target);
    assert.deepEqual(found.live.map((l) => l.socket), [server.path]);
    assert.deepEqual(found.removed, [deadPath]);
    assert.equal(existsSync(deadPath), false);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
