// Attacks on the daemon's control socket by a client that does not follow the protocol: a frame
// that never ends, and requests pipelined without ever reading the replies. Caps hold before
// anything is allocated; the offending connection is closed or held back with a clear error, and
// the daemon keeps serving everyone else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IpcServer } from '../../src/ipc/server.ts';
import { request } from '../../src/ipc/client.ts';
import { PROTOCOL_VERSION } from '../../src/ipc/protocol.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const REPLY = 'r'.repeat(64 * 1024);

async function withServer(t: { after(fn: () => Promise<void>): void }, extra: { maxMessageBytes?: number; maxDiscardBytes?: number } = {}): Promise<{ server: IpcServer; calls: () => number }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ipcsec-'));
  let calls = 0;
  const server = await IpcServer.listen({
    target: { kind: 'explicit', path: join(dir, 'd.sock'), source: 'test' },
    handlers: {
      ping: () => ({ pid: process.pid, version: 'test', protocol: PROTOCOL_VERSION, config: 'x' }),
      big: () => {
        calls++;
        return REPLY;
      },
    },
    ...extra,
  });
  t.after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { server, calls: () => calls };
}

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path, () => resolve(s));
    s.once('error', reject);
  });
}

test('an endless frame gets a too-large error before its end and the connection is closed; the daemon keeps serving', { skip, timeout: 60_000 }, async (t) => {
  const { server } = await withServer(t, { maxMessageBytes: 4096, maxDiscardBytes: 4 * 1024 * 1024 });
  const s = await connect(server.path);
  let received = '';
  let closed = false;
  s.on('data', (d: Buffer) => (received += d.toString()));
  s.on('close', () => (closed = true));
  s.on('error', () => {});
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let sent = 0;
  // Far more than the discard limit, never a newline: the server must hang up long before the end.
  while (!closed && sent < 256 * 1024 * 1024) {
    if (!s.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          s.off('drain', done);
          s.off('close', done);
          resolve();
        };
        s.on('drain', done);
        s.on('close', done);
      });
    }
    sent += chunk.length;
  }
  await new Promise<void>((resolve) => (closed ? resolve() : s.once('close', () => resolve())));
  s.destroy();
  assert.ok(sent < 64 * 1024 * 1024, `the server read ${sent} bytes of one frame before closing`);
  const replies = received.trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; error: { code: string; message: string } });
  assert.deepEqual(replies.map((r) => r.error.code), ['too-large', 'too-large']);
  assert.match(replies[0]!.error.message, /over the limit of 4096 bytes/);
  assert.match(replies[1]!.error.message, /no newline .* closing the connection/);
  assert.equal((await request(server.path, 'ping')).pid, process.pid, 'the daemon stopped serving');
});

test('requests pipelined by a client that never reads its replies are not all answered into memory', { skip, timeout: 60_000 }, async (t) => {
  const { server, calls } = await withServer(t);
  const s = await connect(server.path);
  const n = 500; // 500 replies of 64 KB: 32 MB the daemon would hold for a client that does not read
  s.pause();
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ v: PROTOCOL_VERSION, id: i, method: 'big' })).join('\n');
  s.write(`${lines}\n`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const answeredUnread = calls();
  // Others are still served meanwhile.
  assert.equal((await request(server.path, 'ping', {}, { timeoutMs: 2000 })).pid, process.pid);
  assert.ok(answeredUnread < 64, `${answeredUnread} of ${n} replies were produced for a client that reads none`);
  // Once the client reads, every request is answered, none lost.
  let buffered = '';
  let replies = 0;
  await new Promise<void>((resolve) => {
    s.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        buffered = buffered.slice(nl + 1);
        if (++replies === n) resolve();
      }
    });
    s.resume();
  });
  s.destroy();
  assert.equal(calls(), n);
});

test('an endless frame that arrives in one piece still gets its too-large reply before the connection closes', { skip, timeout: 30_000 }, async (t) => {
  const { server } = await withServer(t, { maxMessageBytes: 100, maxDiscardBytes: 1000 });
  const s = await connect(server.path);
  let received = '';
  s.on('data', (d: Buffer) => (received += d.toString()));
  s.on('error', () => {});
  const closed = new Promise<void>((resolve) => s.once('close', () => resolve()));
  // A ping first, then 4 KB without a newline: within one read, past both limits.
  s.write(`${JSON.stringify({ v: PROTOCOL_VERSION, id: 'first', method: 'ping' })}\n${'a'.repeat(4096)}`);
  await closed;
  const replies = received.trim().split('\n').map((l) => JSON.parse(l) as { id: unknown; ok: boolean; error?: { code: string; message: string } });
  // Replies on one connection come in any order (they carry ids); the closing one comes last.
  assert.deepEqual(replies.map((r) => (r.ok ? r.id : r.error!.code)).slice(0, 2).sort(), ['first', 'too-large']);
  assert.equal(replies.length, 3);
  assert.match(replies[2]!.error!.message, /closing the connection/);
});
