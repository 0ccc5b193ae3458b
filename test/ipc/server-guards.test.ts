// The daemon's socket at edges the other server tests leave out, over real Unix sockets in this
// process: a stale socket of another user at the daemon's path is refused and left alone (never
// taken over), two daemons racing for a path bound without a hidden name (at the system's limit),
// and requests queued by a client that went away are never started.
import assert from 'node:assert/strict';
import { chownSync, existsSync, lstatSync, mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { maxSocketPathBytes } from '../../src/ipc/paths.ts';
import { IpcServer, type Handler } from '../../src/ipc/server.ts';
import { DaemonRunningError } from '../../src/ipc/socket-file.ts';
import { SvcError } from '../../src/model/errors.ts';
import { socketScratch, until } from './scratch.ts';
import { killedSocketHolder } from './stale-socket.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const skipNotRoot = typeof process.getuid === 'function' && process.getuid() === 0 ? skip : 'needs root to give a socket to another user';
/** Each test takes well under a second; one that hangs fails here instead of stalling the run. */
const HANG_MS = 15_000;
const { temp } = socketScratch('svc-sguard-');
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

describe('claiming the socket path', { skip, timeout: HANG_MS }, () => {
  it('a stale socket of another user at the path is refused and left as it was, never taken over', { skip: skipNotRoot, timeout: HANG_MS }, async () => {
    const path = join(temp(), 'theirs.sock');
    await killedSocketHolder(path);
    chownSync(path, 4242, 4242);
    await assert.rejects(IpcServer.listen({ target: { kind: 'explicit', path, source: '--socket' }, handlers: {} }), (e: unknown) => {
      assert.ok(e instanceof SvcError, String(e));
      assert.deepEqual([e.code, e.message], ['socket-not-owned', `socket ${path} belongs to another user (uid 4242), refused`]);
      return true;
    });
    assert.equal(lstatSync(path).uid, 4242);
  });

  it('two daemons racing for a path at the system limit (bound under its own name): one listens, the other is told a daemon is there', { timeout: HANG_MS }, async () => {
    const dir = temp();
    const folder = join(dir, 'x'.repeat(maxSocketPathBytes() - Buffer.byteLength(join(dir, 'x', 's')) + 1));
    mkdirSync(folder, { mode: 0o700 });
    const path = join(folder, 's');
    const target = { kind: 'explicit' as const, path, source: '--socket' };
    const results = await Promise.allSettled([IpcServer.listen({ target, handlers: {} }), IpcServer.listen({ target, handlers: {} })]);
    const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      assert.equal(started.length, 1);
      const refused = results.find((r) => r.status === 'rejected')!.reason as unknown;
      assert.ok(refused instanceof DaemonRunningError, String(refused));
      assert.deepEqual([refused.code, refused.message, refused.pid], ['daemon-running', `a daemon is already serving on ${path}`, undefined]);
      assert.equal(existsSync(path), true);
    } finally {
      await Promise.all(started.map((s) => s.close()));
    }
  });
});

describe('requests of a client that went away', { skip, timeout: HANG_MS }, () => {
  it('the requests still queued are never started once the client is gone', { timeout: HANG_MS }, async () => {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    let started = 0;
    let finished = 0;
    const hang: Handler = async () => {
      started++;
      await opened;
      finished++;
      return null;
    };
    const server = await IpcServer.listen({ target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' }, handlers: { hang } });
    try {
      const client = createConnection(server.path);
      client.on('error', () => {});
      await new Promise<void>((r) => client.once('connect', r));
      client.write(Array.from({ length: 10 }, (_, id) => line({ v: 1, id, method: 'hang' })).join(''));
      await until('4 started', () => started === 4);
      client.destroy();
      await until('the connection closed', () => server.connections === 0);
      open();
      await until('the 4 started answered', () => finished >= 4);
      // What their completion would start has started by now (it runs before any timer).
      await new Promise((r) => setImmediate(r));
      assert.equal(started, 4);
    } finally {
      open();
      await server.close();
    }
  });
});
