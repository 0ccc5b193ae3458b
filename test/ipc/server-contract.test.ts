// The daemon's side of the socket from its contract, over real Unix sockets: the exact error reply
// for each kind of bad request, what a handler's result and failures become, how many requests of
// one connection run at once, idle connections, several servers in one process, and close.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { request } from '../../src/ipc/client.ts';
import { PROTOCOL_VERSION, METHODS } from '../../src/ipc/protocol.ts';
import { IpcServer, type Handler } from '../../src/ipc/server.ts';
import { SvcError } from '../../src/model/errors.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
/**
 * Each test takes well under a second; one that hangs (a reply that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 8000;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'svc-ipcs-'));
  dirs.push(d);
  return d;
};

async function listen(handlers: Record<string, Handler>, extra: { idleMs?: number; log?: (l: string) => void } = {}): Promise<IpcServer> {
  return IpcServer.listen({ target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' }, handlers, ...extra });
}

/** Writes `payload`, collects `n` reply lines. */
function converse(path: string, payload: string, n: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path, () => socket.write(payload));
    let buf = '';
    const out: Record<string, unknown>[] = [];
    socket.on('error', reject);
    socket.on('data', (d) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        out.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
      }
      if (out.length >= n) {
        socket.destroy();
        resolve(out);
      }
    });
  });
}

const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

describe('IPC server replies', { skip, timeout: HANG_MS }, () => {
  it('answers each kind of bad request with its exact error reply', { timeout: HANG_MS }, async () => {
    const server = await listen({ ping: () => 'pong' });
    try {
      const longName = 'm'.repeat(100);
      const replies = await converse(server.path, [
        '"just a string"',
        'null',
        line({ v: 1, id: { no: 1 }, method: 'ping' }).trim(),
        line({ v: 2, id: 'a', method: 'ping' }).trim(),
        line({ id: 'b', method: 'ping' }).trim(),
        line({ v: 1, id: 3, method: 7 }).trim(),
        line({ v: 1, id: 4, method: longName }).trim(),
        line({ v: 1, id: 5, method: 'toString' }).trim(),
        line({ v: 1, id: 6, method: 'ping', params: null }).trim(),
        line({ v: 1, id: 7, method: 'ping', params: [1] }).trim(),
        line({ v: 1, id: 8, method: 'ping', params: 5 }).trim(),
        line({ v: 1, id: 9, method: 'ping' }).trim(),
      ].join('\n') + '\n', 12);
      const error = (id: unknown, code: string, message: string, hint?: string) => ({ v: PROTOCOL_VERSION, id, ok: false, error: { code, message, ...(hint ? { hint } : {}) } });
      assert.deepEqual(replies, [
        error(null, 'bad-request', 'a request is a JSON object {v, id, method, params}'),
        error(null, 'bad-request', 'a request is a JSON object {v, id, method, params}'),
        error(null, 'bad-request', 'request has no id (a number or a string)'),
        error('a', 'unsupported-version', 'protocol version 2 is not supported; this daemon speaks version 1', 'use the svc CLI of the same version as the daemon'),
        error('b', 'unsupported-version', 'protocol version undefined is not supported; this daemon speaks version 1', 'use the svc CLI of the same version as the daemon'),
        error(3, 'bad-request', 'request has no method'),
        error(4, 'unknown-method', `unknown method "${'m'.repeat(64)}"; known: ${METHODS.join(', ')}`),
        error(5, 'unknown-method', `unknown method "toString"; known: ${METHODS.join(', ')}`),
        error(6, 'bad-params', 'params must be a JSON object'),
        error(7, 'bad-params', 'params must be a JSON object'),
        error(8, 'bad-params', 'params must be a JSON object'),
        { v: PROTOCOL_VERSION, id: 9, ok: true, result: 'pong' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('a handler\'s undefined is null, its params default to {}, an SvcError keeps code and hint, anything else is internal and logged', { timeout: HANG_MS }, async () => {
    const logs: string[] = [];
    const seen: unknown[] = [];
    const server = await listen({
      nothing: (params) => void seen.push(params),
      known: () => { throw new SvcError('nope', 'no such spec'); },
      hinted: () => { throw new SvcError('nope', 'no such spec', { hint: 'try svc status' }); },
      bug: () => { throw new RangeError('off by one'); },
      odd: () => { throw 'a string'; },
    }, { log: (l) => logs.push(l) });
    try {
      const replies = await converse(server.path, ['nothing', 'known', 'hinted', 'bug', 'odd'].map((method, i) => line({ v: 1, id: i, method })).join(''), 5);
      const byId = new Map(replies.map((r) => [r['id'], r]));
      assert.deepEqual(byId.get(0), { v: 1, id: 0, ok: true, result: null });
      assert.deepEqual(seen, [{}]);
      assert.deepEqual(byId.get(1), { v: 1, id: 1, ok: false, error: { code: 'nope', message: 'no such spec' } });
      assert.deepEqual(byId.get(2), { v: 1, id: 2, ok: false, error: { code: 'nope', message: 'no such spec', hint: 'try svc status' } });
      assert.deepEqual(byId.get(3), { v: 1, id: 3, ok: false, error: { code: 'internal', message: 'off by one' } });
      assert.deepEqual(byId.get(4), { v: 1, id: 4, ok: false, error: { code: 'internal', message: 'a string' } });
      assert.equal(logs.length, 2);
      assert.match(logs[0]!, /^ipc: bug failed: RangeError: off by one\n\s+at /);
      assert.equal(logs[1], 'ipc: odd failed: a string');
    } finally {
      await server.close();
    }
  });

  it('runs at most four requests of one connection at once, and answers them all', { timeout: HANG_MS }, async () => {
    let running = 0;
    let most = 0;
    const server = await listen({
      slow: async (params) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 15));
        running--;
        return params['n'];
      },
    });
    try {
      const replies = await converse(server.path, Array.from({ length: 12 }, (_, n) => line({ v: 1, id: n, method: 'slow', params: { n } })).join(''), 12);
      assert.deepEqual(replies.map((r) => r['result']).sort((a, b) => Number(a) - Number(b)), Array.from({ length: 12 }, (_, n) => n));
      assert.equal(most, 4);
    } finally {
      await server.close();
    }
  });

  it('ends a connection idle past idleMs', { timeout: HANG_MS }, async () => {
    const server = await listen({ ping: () => 1 }, { idleMs: 100 });
    try {
      const started = Date.now();
      await new Promise<void>((resolve, reject) => {
        const socket = createConnection(server.path);
        socket.on('error', reject);
        socket.on('end', () => {
          socket.destroy();
          resolve();
        });
        socket.resume();
      });
      assert.ok(Date.now() - started < 10_000);
      while (server.connections > 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 5));
      assert.equal(server.connections, 0);
    } finally {
      await server.close();
    }
  });
});

describe('IPC server lifetime', { skip, timeout: HANG_MS }, () => {
  it('several servers in one process get <pid>.sock, <pid>-2.sock ..., and a closed one\'s name is free again', { timeout: HANG_MS }, async () => {
    const runtime = temp();
    const target = { kind: 'dir' as const, dir: join(runtime, 'svc', 'k'), source: 'XDG_RUNTIME_DIR' };
    const ping = () => ({ pid: process.pid, version: 't', protocol: 1, config: '/c' });
    const one = await IpcServer.listen({ target, handlers: { ping } });
    const two = await IpcServer.listen({ target, handlers: { ping } });
    assert.equal(one.path, join(target.dir, `${process.pid}.sock`));
    assert.equal(two.path, join(target.dir, `${process.pid}-2.sock`));
    assert.equal(statSync(two.path).mode & 0o777, 0o600);
    await one.close();
    assert.equal(existsSync(one.path), false);
    const again = await IpcServer.listen({ target, handlers: { ping } });
    assert.equal(again.path, one.path);
    await Promise.all([two.close(), again.close()]);
  });

  it('close stops answering, drops open connections, removes the socket, and may be called twice', { timeout: HANG_MS }, async () => {
    const server = await listen({ ping: () => 1 });
    const dropped = new Promise<void>((resolve) => {
      const socket = createConnection(server.path);
      socket.on('close', () => resolve());
      socket.on('error', () => {});
    });
    while (server.connections === 0) await new Promise((r) => setTimeout(r, 5));
    await server.close();
    await dropped;
    assert.equal(existsSync(server.path), false);
    await server.close();
    await assert.rejects(request(server.path, 'ping'), (e: { reason?: string }) => e.reason === 'ENOENT');
  });
});
