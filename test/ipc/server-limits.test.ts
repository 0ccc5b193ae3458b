// The daemon's socket under pressure, from its contract, over real Unix sockets in this process:
// at the connection cap the longest-idle connection without a request in flight makes room; a
// client that does not read its replies stops its requests from starting (and resumes them when it
// reads); a client that writes without pause is no longer read from; a client gone before its reply
// does not hurt the daemon; a socket path is claimed once, refused when taken, and released on close.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { request } from '../../src/ipc/client.ts';
import { IpcServer, type Handler } from '../../src/ipc/server.ts';
import { DaemonRunningError, removeSocketFile } from '../../src/ipc/socket-file.ts';
import { SvcError } from '../../src/model/errors.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
/** Tests and suites end here at the latest: a reply that never comes fails instead of stalling the run. */
const HANG_MS = 20_000;
const dirs: string[] = [];
const clients = new Set<Socket>();
after(() => {
  for (const c of clients) c.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'svc-ipcl-'));
  dirs.push(d);
  return d;
};
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;
/** The umask before any server here listened: each listen must put it back. */
const UMASK = process.umask();
const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

function listen(handlers: Record<string, Handler>, extra: { maxMessageBytes?: number; maxDiscardBytes?: number } = {}): Promise<IpcServer> {
  return IpcServer.listen({ target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' }, handlers, ...extra });
}

/** A client connection that records whether it was closed and every reply line it read. */
interface Client {
  socket: Socket;
  closed: boolean;
  replies: Record<string, unknown>[];
}
function connect(path: string, read = true): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    clients.add(socket);
    const c: Client = { socket, closed: false, replies: [] };
    let buf = '';
    socket.on('close', () => (c.closed = true));
    socket.on('error', () => {});
    if (read) {
      socket.on('data', (d) => {
        buf += d.toString();
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          c.replies.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
          buf = buf.slice(nl + 1);
        }
      });
    }
    socket.once('connect', () => resolve(c));
    socket.once('error', reject);
  });
}

/** A handler that waits until `open()` is called (then answers at once). */
function gate(): { handler: Handler; open(): void; calls(): number } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let calls = 0;
  return {
    handler: async (params) => {
      calls++;
      await opened;
      return params['n'] ?? null;
    },
    open: () => open(),
    calls: () => calls,
  };
}

describe('IPC server at the connection cap', { skip, timeout: 60_000 }, () => {
  it('closes the longest-idle connection without requests in flight to make room, and keeps the rest', { timeout: 60_000 }, async () => {
    const hang = gate();
    const server = await listen({ hang: hang.handler, ping: () => 'pong' });
    try {
      // busy: the oldest connection, but 8 requests of it are running or queued: never evicted.
      const busy = await connect(server.path);
      await until('busy accepted', () => server.connections === 1);
      busy.socket.write(Array.from({ length: 8 }, (_, n) => line({ v: 1, id: n, method: 'hang', params: { n } })).join(''));
      await until('4 running', () => hang.calls() === 4);
      const idle = await connect(server.path);
      await until('idle accepted', () => server.connections === 2);
      await tick(20);
      const rest: Client[] = [];
      for (let i = 2; i < 1024; i += 64) {
        rest.push(...(await Promise.all(Array.from({ length: Math.min(64, 1024 - i) }, () => connect(server.path)))));
      }
      await until('1024 connections', () => server.connections === 1024);
      assert.equal(idle.closed, false);
      const late = await connect(server.path);
      late.socket.write(line({ v: 1, id: 'late', method: 'ping' }));
      await until('the reply to the newcomer', () => late.replies.length === 1);
      assert.deepEqual(late.replies, [{ v: 1, id: 'late', ok: true, result: 'pong' }]);
      await until('the idle connection closed', () => idle.closed);
      assert.equal(busy.closed, false);
      assert.equal(rest.filter((c) => c.closed).length, 0);
      assert.equal(server.connections, 1024);
      hang.open();
      await until('all 8 replies of the busy connection', () => busy.replies.length === 8);
      assert.deepEqual(busy.replies.map((r) => r['result']).sort(), [0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      hang.open();
      await server.close();
    }
  });
});

describe('IPC server back-pressure', { skip, timeout: HANG_MS }, () => {
  it('starts no more requests while about 1 MB of replies waits for a client that does not read, and answers them all once it reads', { timeout: HANG_MS }, async () => {
    let calls = 0;
    const big = 'x'.repeat(256 * 1024);
    const server = await listen({ big: () => (calls++, big) });
    try {
      const c = await connect(server.path, false);
      c.socket.write(Array.from({ length: 100 }, (_, n) => line({ v: 1, id: n, method: 'big' })).join(''));
      await until('the first requests', () => calls >= 4);
      await tick(300);
      // Kernel buffers hold a few replies and the daemon about 1 MB more; 100 would be 25 MB.
      assert.ok(calls < 20, `${calls} of 100 requests started for a client that reads nothing`);
      let lines = 0;
      c.socket.on('data', (d: Buffer) => {
        for (const byte of d) if (byte === 0x0a) lines++;
      });
      await until('all 100 replies', () => lines === 100);
      assert.equal(calls, 100);
    } finally {
      await server.close();
    }
  });

  it('stops reading from a client whose requests pile up, and reads on once they are answered', { timeout: HANG_MS }, async () => {
    const hang = gate();
    const server = await listen({ hang: hang.handler });
    try {
      const c = await connect(server.path);
      const count = 16_000;
      const payload = Array.from({ length: count }, (_, n) => line({ v: 1, id: n, method: 'hang' })).join('');
      c.socket.write(payload);
      await until('4 running', () => hang.calls() === 4);
      await tick(300);
      // About 1 MB was written; the daemon queues 64 and leaves the rest in the kernel and here.
      assert.ok(c.socket.writableLength > 0, 'the daemon read everything the client sent');
      assert.equal(hang.calls(), 4);
      hang.open();
      await until(`all ${count} replies`, () => c.replies.length === count);
      assert.equal(c.socket.writableLength, 0);
    } finally {
      hang.open();
      await server.close();
    }
  });

  it('answers what came before a line without end before saying why and hanging up', { timeout: HANG_MS }, async () => {
    const server = await listen({ slow: async () => (await tick(150), 'done') }, { maxMessageBytes: 100, maxDiscardBytes: 1000 });
    try {
      const c = await connect(server.path);
      c.socket.write(line({ v: 1, id: 1, method: 'slow' }));
      await tick(20);
      c.socket.write('x'.repeat(5000));
      await until('closed', () => c.closed);
      // The oversized line's own reply may come first; the request's reply comes before the hang-up.
      assert.deepEqual(c.replies.slice(0, -1).find((r) => r['id'] === 1), { v: 1, id: 1, ok: true, result: 'done' });
      assert.match((c.replies.at(-1)!['error'] as { message: string }).message, /^no newline after \d+ bytes over the message limit of 100; closing the connection$/);
    } finally {
      await server.close();
    }
  });

  it('a client gone before its reply leaves the daemon serving', { timeout: HANG_MS }, async () => {
    const server = await listen({ slow: async () => (await tick(100), 'x'.repeat(300_000)), ping: () => 'pong' });
    try {
      for (let i = 0; i < 3; i++) {
        const c = await connect(server.path);
        c.socket.write(line({ v: 1, id: i, method: 'slow' }));
        await tick(10);
        c.socket.destroy();
      }
      await tick(250);
      assert.equal(await request(server.path, 'ping', {}, { timeoutMs: 5000 }), 'pong');
    } finally {
      await server.close();
    }
  });
});

describe('IPC server replies in detail', { skip, timeout: HANG_MS }, () => {
  it('names bad JSON with the parser\'s words, and an SvcError without hint gets no hint key', { timeout: HANG_MS }, async () => {
    const server = await listen({ fails: () => { throw new SvcError('nope', 'plain'); } });
    try {
      const c = await connect(server.path);
      c.socket.write('{bad\n' + line({ v: 1, id: 1, method: 'fails' }));
      await until('two replies', () => c.replies.length === 2);
      const bad = c.replies.find((r) => r['id'] === null)!;
      assert.equal((bad['error'] as { code: string }).code, 'bad-json');
      assert.match((bad['error'] as { message: string }).message, /^not JSON: .+/);
      assert.deepEqual(c.replies.find((r) => r['id'] === 1), { v: 1, id: 1, ok: false, error: { code: 'nope', message: 'plain' } });
    } finally {
      await server.close();
    }
  });
});

describe('IPC server socket path', { skip, timeout: HANG_MS }, () => {
  it('the socket is 0600 and the process umask is as it was', { timeout: HANG_MS }, async () => {
    const server = await listen({});
    try {
      assert.equal(process.umask(), UMASK);
      assert.equal(statSync(server.path).mode & 0o777, 0o600);
    } finally {
      await server.close();
    }
  });

  it('two servers claiming one path at once: one listens, the other is told a daemon is there, without a pid', { timeout: HANG_MS }, async () => {
    const path = join(temp(), 'race.sock');
    const target = { kind: 'explicit' as const, path, source: 'test' };
    const results = await Promise.allSettled([IpcServer.listen({ target, handlers: {} }), IpcServer.listen({ target, handlers: {} })]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r) => r.status === 'rejected');
    try {
      assert.equal(ok.length, 1);
      assert.equal(failed.length, 1);
      const error = (failed[0] as PromiseRejectedResult).reason as DaemonRunningError;
      assert.ok(error instanceof DaemonRunningError);
      assert.equal(error.message, `a daemon is already serving on ${path}`);
      assert.equal(error.pid, undefined);
    } finally {
      for (const r of ok) await (r as PromiseFulfilledResult<IpcServer>).value.close();
    }
  });

  it('a path held by a file is refused with what to do, and the name is free again for the next try', { timeout: HANG_MS }, async () => {
    const dir = join(temp(), 'svc', 'k');
    const target = { kind: 'dir' as const, dir, source: 'XDG_RUNTIME_DIR' };
    const first = await IpcServer.listen({ target, handlers: {} });
    await first.close();
    writeFileSync(first.path, 'not a socket');
    await assert.rejects(IpcServer.listen({ target, handlers: {} }), (e: SvcError) => {
      assert.equal(e.code, 'socket-path-taken');
      assert.equal(e.message, `${first.path} exists and is not a socket`);
      assert.equal(e.hint, 'remove that file, or name another socket path with --socket or SVC_SOCKET');
      return true;
    });
    rmSync(first.path);
    const again = await IpcServer.listen({ target, handlers: {} });
    assert.equal(again.path, first.path);
    await again.close();
  });

  it('a path too long for the system is refused before anything is created', { timeout: HANG_MS }, async () => {
    const path = join(temp(), `${'p'.repeat(120)}.sock`);
    await assert.rejects(IpcServer.listen({ target: { kind: 'explicit', path, source: 'the test' }, handlers: {} }), (e: SvcError) => e.code === 'socket-path-too-long');
  });

  it('a second close of a closed server leaves a newer server on the same path alone', { timeout: HANG_MS }, async () => {
    const target = { kind: 'dir' as const, dir: join(temp(), 'svc', 'k'), source: 'XDG_RUNTIME_DIR' };
    const ping = () => 'pong';
    const old = await IpcServer.listen({ target, handlers: { ping } });
    await old.close();
    const current = await IpcServer.listen({ target, handlers: { ping } });
    assert.equal(current.path, old.path);
    await old.close();
    try {
      assert.equal(existsSync(current.path), true);
      assert.equal(await request(current.path, 'ping', {}, { timeoutMs: 5000 }), 'pong');
      const next = await IpcServer.listen({ target, handlers: { ping } });
      assert.notEqual(next.path, current.path);
      await next.close();
    } finally {
      await current.close();
    }
  });

  it('removeSocketFile leaves Windows pipe names alone (a file of that name here stays)', { timeout: HANG_MS }, () => {
    const dir = temp();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const name = '\\\\.\\pipe\\svc-test';
      writeFileSync(name, '');
      removeSocketFile(name);
      assert.equal(existsSync(join(dir, name)), true);
      writeFileSync('plain.sock', '');
      removeSocketFile('plain.sock');
      assert.equal(existsSync(join(dir, 'plain.sock')), false);
    } finally {
      process.chdir(cwd);
    }
  });
});
