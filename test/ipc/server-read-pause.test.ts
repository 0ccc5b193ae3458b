// Reading stays paused while a connection is far behind: answering one of its requests does not
// make the daemon read more of what the client keeps sending (only a queue that has run low does).
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { request } from '../../src/ipc/client.ts';
import { IpcServer, type Handler } from '../../src/ipc/server.ts';
import { socketScratch, until } from './scratch.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const { temp } = socketScratch('svc-rpause-');
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

test('answering requests one by one while hundreds wait reads nothing more from the client', { skip, timeout: 15_000 }, async () => {
  const waiting: (() => void)[] = [];
  let calls = 0;
  const one: Handler = () => {
    calls++;
    return new Promise<null>((resolve) => waiting.push(() => resolve(null)));
  };
  const server = await IpcServer.listen({ target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' }, handlers: { one, ping: () => 'pong' } });
  const client = createConnection(server.path);
  client.on('error', () => {});
  /** A round trip on another connection: whatever the daemon was going to read by now, it has. */
  const settle = async (): Promise<void> => void (await request(server.path, 'ping', {}, { timeoutMs: 5000 }));
  try {
    await new Promise<void>((r) => client.once('connect', r));
    client.write(Array.from({ length: 16_000 }, (_, id) => line({ v: 1, id, method: 'one' })).join(''));
    await until('4 started', () => calls === 4);
    await settle();
    const unread = client.writableLength;
    assert.ok(unread > 0, 'the daemon read everything');
    for (let n = 5; n <= 14; n++) {
      waiting.shift()!();
      await until(`request ${n} started`, () => calls === n);
      await settle();
    }
    assert.equal(client.writableLength, unread);
  } finally {
    for (const release of waiting.splice(0)) release();
    client.destroy();
    await server.close();
  }
});
