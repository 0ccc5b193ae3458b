// Which connection makes room at the connection cap (1024), over real Unix sockets in this process:
// the one that sent nothing for longest, where a line still arriving counts as activity and a
// connection its client closed is no candidate; when every connection has a request in flight none
// is closed and the newcomer is served all the same.
import assert from 'node:assert/strict';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { IpcServer, type Handler } from '../../src/ipc/server.ts';
import { socketScratch, until } from './scratch.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const CAP = 1024;
/** Each test takes under a second; one that hangs fails here instead of stalling the run. */
const HANG_MS = 20_000;
const { temp } = socketScratch('svc-evict-');
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

/** A client connection; `closed` turns true when the daemon closes it, `lines` counts reply lines. */
interface Peer {
  readonly socket: Socket;
  closed: boolean;
  lines: number;
}
const peers = new Set<Peer>();

function peer(path: string): Peer {
  const p: Peer = { socket: createConnection(path), closed: false, lines: 0 };
  peers.add(p);
  p.socket.on('error', () => {});
  p.socket.on('close', () => (p.closed = true));
  p.socket.on('data', (d: Buffer) => {
    for (const byte of d) if (byte === 0x0a) p.lines++;
  });
  return p;
}

/** Connections up to `total` held by the server, opened 64 at a time. */
async function fill(server: IpcServer, total: number): Promise<Peer[]> {
  const out: Peer[] = [];
  while (server.connections < total) {
    const batch = Array.from({ length: Math.min(64, total - server.connections) }, () => peer(server.path));
    out.push(...batch);
    const want = server.connections + batch.length;
    await until(`${want} connections`, () => server.connections === want);
  }
  return out;
}

async function withServer(handlers: Record<string, Handler>, body: (server: IpcServer) => Promise<void>): Promise<void> {
  const server = await IpcServer.listen({ target: { kind: 'explicit', path: join(temp(), 's.sock'), source: 'test' }, handlers });
  try {
    await body(server);
  } finally {
    for (const p of peers) p.socket.destroy();
    peers.clear();
    await server.close();
  }
}

describe('IPC server making room at the connection cap', { skip, timeout: HANG_MS }, () => {
  it('a connection in the middle of sending a line is not the idle one: the connection silent longest is closed instead', { timeout: HANG_MS }, async () => {
    await withServer({ ping: () => 'pong' }, async (server) => {
      const [sending] = await fill(server, 1);
      const [silent] = await fill(server, 2);
      const rest = await fill(server, CAP);
      // The oldest connection sends the start of a request; a round trip on another connection
      // sent after it shows that the daemon has read it.
      sending!.socket.write('{"v":1,"id":"slow",');
      rest[0]!.socket.write(line({ v: 1, id: 1, method: 'ping' }));
      await until('the ping answered', () => rest[0]!.lines === 1);
      peer(server.path);
      await until('a connection closed', () => sending!.closed || silent!.closed);
      assert.deepEqual([sending!.closed, silent!.closed], [false, true]);
    });
  });

  it('a connection its client closed is no candidate: at the cap the next newcomer closes the one silent longest of those still open', { timeout: HANG_MS }, async () => {
    await withServer({ ping: () => 'pong' }, async (server) => {
      const held = await fill(server, CAP);
      held[0]!.socket.destroy();
      await until('the first gone', () => server.connections === CAP - 1);
      await fill(server, CAP);
      peer(server.path);
      await until('a connection closed by the daemon', () => held.slice(1).some((p) => p.closed));
      assert.deepEqual(held.flatMap((p, i) => (p.closed ? [i] : [])), [0, 1]);
      await until('the count back at the cap', () => server.connections === CAP);
    });
  });

  it('when every connection has a request in flight, none is closed and the newcomer is served over the cap', { timeout: HANG_MS }, async () => {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    let calls = 0;
    const hang: Handler = async () => {
      calls++;
      await opened;
      return null;
    };
    await withServer({ hang, ping: () => 'pong' }, async (server) => {
      try {
        const held = await fill(server, CAP);
        for (const p of held) p.socket.write(line({ v: 1, id: 1, method: 'hang' }));
        await until(`${CAP} requests in flight`, () => calls === CAP);
        const late = peer(server.path);
        late.socket.write(line({ v: 1, id: 1, method: 'ping' }));
        await until('the newcomer answered', () => late.lines === 1);
        assert.equal(server.connections, CAP + 1);
        assert.equal(held.filter((p) => p.closed).length, 0);
        open();
        await until('every held request answered', () => held.every((p) => p.lines === 1));
      } finally {
        open();
      }
    });
  });
});
