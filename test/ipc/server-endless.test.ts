// A line without end from a client that is also behind on reading its replies: the daemon answers
// every request that came before it, once the client reads, and only then says why and hangs up.
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { IpcServer } from '../../src/ipc/server.ts';
import { socketScratch, until } from './scratch.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const HANG_MS = 20_000;
const { temp } = socketScratch('svc-endless-');
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

describe('a line without end behind unread replies', { skip, timeout: HANG_MS }, () => {
  it('every request before it is answered once the client reads, then the too-large reply, then the hang-up', { timeout: HANG_MS }, async () => {
    let calls = 0;
    // 12 replies of 256 kB: far more than the daemon keeps unsent (1 MB) for a client that does not read.
    const big = 'x'.repeat(256 * 1024);
    const server = await IpcServer.listen({
      target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' },
      handlers: { big: () => (calls++, big) },
      maxMessageBytes: 100,
      maxDiscardBytes: 1000,
    });
    try {
      const client = createConnection(server.path);
      client.on('error', () => {});
      await new Promise<void>((r) => client.once('connect', r));
      client.pause();
      client.write(Array.from({ length: 12 }, (_, id) => line({ v: 1, id, method: 'big' })).join('') + 'x'.repeat(5000));
      // The daemon starts what it may and then waits for the client to read.
      await until('the first requests', () => calls >= 4);
      await new Promise((r) => setTimeout(r, 100));
      let text = '';
      client.on('data', (d: Buffer) => (text += d.toString()));
      const closed = new Promise<void>((r) => client.once('close', () => r()));
      client.resume();
      await closed;
      const replies = text.trim().split('\n').map((l) => JSON.parse(l) as { id: unknown; ok: boolean; result?: string; error?: { code: string; message: string } });
      assert.deepEqual(replies.slice(0, 12).map((r) => [r.id, r.ok, r.result === big]), Array.from({ length: 12 }, (_, id) => [id, true, true]));
      assert.deepEqual(replies.slice(12).map((r) => [r.id, r.error?.code]), [[null, 'too-large'], [null, 'too-large']]);
      assert.match(replies[13]!.error!.message, /^no newline after \d+ bytes over the message limit of 100; closing the connection$/);
    } finally {
      await server.close();
    }
  });
});
