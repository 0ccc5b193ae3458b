// How the daemon's socket fails, over real Unix sockets in this process: a folder the daemon may not
// write to fails the start with the system's error (never "a daemon is already serving"), and the
// name is free for the next try; a client that vanishes while its reply is being written does not
// bring the daemon down; a Windows pipe prefix has no hidden binding names.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, utimesSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { request } from '../../src/ipc/client.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { DaemonRunningError, HIDDEN_LEFTOVER_AGE_MS, hiddenLeftovers } from '../../src/ipc/socket-file.ts';
import { inFolder, socketScratch, until } from './scratch.ts';
import { killedSocketHolder } from './stale-socket.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const skipNotRoot = typeof process.seteuid === 'function' && process.geteuid?.() === 0 ? skip : 'needs root to act as another user';
const HANG_MS = 15_000;
const { temp } = socketScratch('svc-sfail-');
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

describe('the daemon socket failing', { skip, timeout: HANG_MS }, () => {
  it('a folder the daemon may not write to fails the start with the system\'s error, and the name is free for the next try', { skip: skipNotRoot, timeout: HANG_MS }, async () => {
    const base = temp();
    chmodSync(base, 0o755);
    const dir = join(base, 'shared');
    mkdirSync(dir, { mode: 0o755 });
    const target = { kind: 'explicit' as const, path: join(dir, 's.sock'), source: '--socket' };
    // This process acts as another user while it starts: the folder is root's, open to read only.
    process.seteuid!(4242);
    let failure: unknown;
    try {
      await IpcServer.listen({ target, handlers: {} }).then((s) => s.close(), (e: unknown) => (failure = e));
    } finally {
      process.seteuid!(0);
    }
    assert.ok(!(failure instanceof DaemonRunningError), String(failure));
    assert.equal((failure as NodeJS.ErrnoException).code, 'EACCES');
    const server = await IpcServer.listen({ target, handlers: {} });
    assert.equal(server.path, target.path);
    await server.close();
  });

  it('a client gone while its large reply is being written leaves the daemon serving', { timeout: HANG_MS }, async () => {
    let called = false;
    const server = await IpcServer.listen({
      target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' },
      handlers: { big: () => ((called = true), 'x'.repeat(8 * 1024 * 1024)), ping: () => 'pong' },
    });
    try {
      const client = createConnection(server.path);
      client.on('error', () => {});
      await new Promise<void>((r) => client.once('connect', r));
      client.pause();
      client.write(line({ v: 1, id: 1, method: 'big' }));
      await until('the reply started', () => called);
      await new Promise((r) => setImmediate(r));
      client.destroy();
      await until('the connection gone', () => server.connections === 0);
      assert.equal(await request(server.path, 'ping', {}, { timeoutMs: 5000 }), 'pong');
    } finally {
      await server.close();
    }
  });

  it('a Windows pipe prefix has no hidden binding names, whatever a folder of that name holds here', { timeout: HANG_MS }, async () => {
    const dir = temp();
    const pipeDir = '\\\\.\\pipe\\svc-u-0123456789ab-';
    mkdirSync(join(dir, pipeDir));
    const old = join(dir, pipeDir, '.0123abcd');
    await killedSocketHolder(old);
    const past = new Date(Date.now() - 2 * HIDDEN_LEFTOVER_AGE_MS);
    utimesSync(old, past, past);
    assert.deepEqual(hiddenLeftovers(join(dir, pipeDir), Date.now()), [old]);
    assert.deepEqual(await inFolder(dir, () => hiddenLeftovers(pipeDir, Date.now())), []);
  });
});
