// The CLI's side of the socket from its contract, against raw peers on real Unix sockets (a peer
// that answers late, garbage, too much, or nothing) and real IpcServers: each way a request can
// fail is an IpcConnectError with its reason and a message naming the socket, or an IpcRemoteError
// with the daemon's code and hint; probe tells live, stale and unresponsive apart; requestAll asks
// every live daemon and wraps each failure.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { IpcConnectError, IpcRemoteError, probe, request, requestAll } from '../../src/ipc/client.ts';
import { encodeLine } from '../../src/ipc/codec.ts';
import { daemonSocketPath, type SocketTarget } from '../../src/ipc/paths.ts';
import { PROTOCOL_VERSION } from '../../src/ipc/protocol.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { SvcError } from '../../src/model/errors.ts';
import { socketScratch } from './scratch.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
/**
 * Each test takes well under a second; one that hangs (a reply that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 8000;
const { temp, listen } = socketScratch('svc-ipcc-');

/** A peer that hands each request line (parsed) and the socket to `answer`. */
async function peer(answer: (request: Record<string, unknown>, socket: Socket) => void): Promise<string> {
  const path = join(temp(), 'peer.sock');
  await listen(path, (socket) => {
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) answer(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>, socket);
    });
  });
  return path;
}

function connectError(path: string, reason: string, message: string): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof IpcConnectError, String(e));
    assert.equal(e.code, 'ipc-unreachable');
    assert.equal(e.socket, path);
    assert.equal(e.reason, reason);
    assert.equal(e.message, `${path}: ${message}`);
    return true;
  };
}

describe('request', { skip, timeout: HANG_MS }, () => {
  it('sends one line {v, id, method, params} and resolves to the result of the reply with its id, skipping others', { timeout: HANG_MS }, async () => {
    let sent: Record<string, unknown> | undefined;
    const path = await peer((req, socket) => {
      sent = req;
      socket.write(encodeLine({ v: 1, id: 'other', ok: true, result: 'not mine' }));
      socket.write(encodeLine({ v: 1, id: req['id'], progress: { done: 1, total: 2 } }));
      socket.write(encodeLine({ v: 1, id: req['id'], ok: true, result: { fine: true } }));
    });
    const progress: unknown[] = [];
    assert.deepEqual(await request(path, 'status', { a: 1 }, { onProgress: (p) => progress.push(p) }), { fine: true });
    assert.deepEqual(Object.keys(sent!).sort(), ['id', 'method', 'params', 'v']);
    assert.equal(sent!['v'], PROTOCOL_VERSION);
    assert.equal(sent!['method'], 'status');
    assert.deepEqual(sent!['params'], { a: 1 });
    assert.deepEqual(progress, [{ done: 1, total: 2 }]);
    // Each request has its own id.
    const ids: unknown[] = [];
    const p2 = await peer((req, socket) => {
      ids.push(req['id']);
      socket.write(encodeLine({ v: 1, id: req['id'], ok: true, result: null }));
    });
    await request(p2, 'ping');
    await request(p2, 'ping');
    assert.notEqual(ids[0], ids[1]);
    // Progress without a listener is fine.
    const p3 = await peer((req, socket) => socket.write(encodeLine({ v: 1, id: req['id'], progress: { done: 0, total: 1 } }) + encodeLine({ v: 1, id: req['id'], ok: true, result: 3 })));
    assert.equal(await request(p3, 'update'), 3);
  });

  it('an error reply (its id or null) is an IpcRemoteError with the daemon\'s code, message and hint', { timeout: HANG_MS }, async () => {
    const path = await peer((_req, socket) => socket.write(encodeLine({ v: 1, id: null, ok: false, error: { code: 'bad-json', message: 'not JSON', hint: 'h' } })));
    await assert.rejects(request(path, 'ping'), (e: unknown) => e instanceof IpcRemoteError && e.code === 'bad-json' && e.message === 'not JSON' && e.hint === 'h' && e.socket === path);
    const noHint = await peer((req, socket) => socket.write(encodeLine({ v: 1, id: req['id'], ok: false, error: { code: 'x', message: 'y' } })));
    await assert.rejects(request(noHint, 'ping'), (e: unknown) => e instanceof IpcRemoteError && e.hint === undefined);
    const empty = await peer((req, socket) => socket.write(encodeLine({ v: 1, id: req['id'], ok: false })));
    await assert.rejects(request(empty, 'ping'), (e: unknown) => e instanceof IpcRemoteError && e.code === 'bad-reply' && e.message === 'error reply without an error');
  });

  it('a reply that is not JSON, or over the reply cap, is a bad reply', { timeout: HANG_MS }, async () => {
    const garbage = await peer((_req, socket) => socket.write('{nope\n'));
    await assert.rejects(request(garbage, 'ping'), (e: unknown) => e instanceof IpcConnectError && e.reason === 'bad-reply' && e.message.startsWith(`${garbage}: reply is not JSON: `));
    const big = await peer((req, socket) => socket.write(encodeLine({ v: 1, id: req['id'], ok: true, result: 'x'.repeat(200) })));
    await assert.rejects(request(big, 'ping', {}, { maxReplyBytes: 100 }), connectError(big, 'bad-reply', 'reply over 100 bytes'));
    assert.equal(await request(big, 'ping', {}, { maxReplyBytes: 1000 }), 'x'.repeat(200));
  });

  it('no reply in time is a timeout naming the method and the time; a peer that hangs up is closed', { timeout: HANG_MS }, async () => {
    const silent = await peer(() => {});
    await assert.rejects(request(silent, 'status', {}, { timeoutMs: 150 }), connectError(silent, 'timeout', 'no reply to status within 150 ms'));
    const rude = await peer((_req, socket) => socket.end());
    await assert.rejects(request(rude, 'ping'), connectError(rude, 'closed', 'connection closed before the reply to ping'));
  });

  it('a missing socket is ENOENT, which probe calls stale', { timeout: HANG_MS }, async () => {
    const missing = join(temp(), 'none.sock');
    await assert.rejects(request(missing, 'ping'), connectError(missing, 'ENOENT', 'no such socket'));
    assert.deepEqual(await probe(missing), { kind: 'stale', socket: missing, reason: 'ENOENT' });
  });

  it('refuses a socket owned by someone other than the named owner before connecting', { timeout: HANG_MS }, async () => {
    let connected = false;
    const path = await peer(() => (connected = true));
    const me = typeof process.getuid === 'function' ? process.getuid() : 0;
    await assert.rejects(request(path, 'ping', {}, { socketOwner: me + 1 }), (e: unknown) => e instanceof SvcError && e.code === 'socket-not-owned');
    assert.equal(connected, false);
  });
});

describe('probe and requestAll', { skip, timeout: HANG_MS }, () => {
  it('probe says live with the ping, or unresponsive with why', { timeout: HANG_MS }, async () => {
    const live = await peer((req, socket) => socket.write(encodeLine({ v: 1, id: req['id'], ok: true, result: { pid: 77, version: 'v', protocol: 1, config: '/c' } })));
    assert.deepEqual(await probe(live), { kind: 'live', socket: live, ping: { pid: 77, version: 'v', protocol: 1, config: '/c' } });
    const silent = await peer(() => {});
    assert.deepEqual(await probe(silent, 100), { kind: 'unresponsive', socket: silent, reason: `${silent}: no reply to ping within 100 ms` });
    const failing = await peer((req, socket) => socket.write(encodeLine({ v: 1, id: req['id'], ok: false, error: { code: 'c', message: 'nope' } })));
    assert.deepEqual(await probe(failing), { kind: 'unresponsive', socket: failing, reason: 'nope' });
  });

  it('requestAll asks every live daemon of a target and wraps failures per daemon', { timeout: HANG_MS }, async () => {
    const runtime = temp();
    const target: SocketTarget = { kind: 'dir', dir: join(runtime, 'svc', 'k'), source: 'XDG_RUNTIME_DIR' };
    const ping = () => ({ pid: process.pid, version: 't', protocol: 1, config: '/c' });
    const a = await IpcServer.listen({ target, handlers: { ping, status: () => 'A' } });
    const b = await IpcServer.listen({ target, handlers: { ping, status: () => { throw new SvcError('busy', 'busy now'); } } });
    const c = await IpcServer.listen({ target, handlers: { ping, status: () => { throw new TypeError('bug'); } } });
    try {
      assert.deepEqual([a.path, b.path, c.path], [daemonSocketPath(target, process.pid, 1), daemonSocketPath(target, process.pid, 2), daemonSocketPath(target, process.pid, 3)]);
      const { discovery, answers } = await requestAll(target, 'status');
      assert.equal(discovery.live.length, 3);
      assert.deepEqual(discovery.removed, []);
      const bySocket = new Map(answers.map((x) => [x.socket, x]));
      assert.deepEqual(bySocket.get(a.path), { socket: a.path, pid: process.pid, ok: true, result: 'A' });
      const fb = bySocket.get(b.path)!;
      assert.ok(!fb.ok && fb.error.code === 'busy' && fb.error.message === 'busy now');
      const fc = bySocket.get(c.path)!;
      assert.ok(!fc.ok && fc.error.code === 'internal' && fc.error.message === 'bug');
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
    // Closed servers leave nothing to find.
    const later = await requestAll(target, 'status');
    assert.deepEqual([later.discovery.live, later.answers], [[], []]);
  });
});
