// The daemon reads a request that arrives in pieces: a line cut between two writes is read to its
// end and answered (reading is never left paused with nothing queued).
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { request } from '../../src/ipc/client.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { socketScratch, until } from './scratch.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const { temp } = socketScratch('svc-reading-');

test('a request cut between two writes is answered once its end arrives', { skip, timeout: 15_000 }, async () => {
  const server = await IpcServer.listen({ target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' }, handlers: { ping: () => 'pong' } });
  const client = createConnection(server.path);
  try {
    let text = '';
    client.on('data', (d: Buffer) => (text += d.toString()));
    await new Promise<void>((r) => client.once('connect', r));
    client.write('{"v":1,"id":7,');
    // A round trip on another connection, sent after the first piece, shows the daemon has read it.
    assert.equal(await request(server.path, 'ping', {}, { timeoutMs: 5000 }), 'pong');
    client.write('"method":"ping"}\n');
    await until('the reply', () => text.endsWith('\n'));
    assert.deepEqual(JSON.parse(text), { v: 1, id: 7, ok: true, result: 'pong' });
  } finally {
    client.destroy();
    await server.close();
  }
});
