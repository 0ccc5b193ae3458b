// The CLI's side of the socket at edges the contract tests leave out: a connect failure other than
// a missing or refused socket is named in the system's words; discovery removes only sockets that
// refused a connection, never one whose daemon answered (whatever its words) nor a Windows pipe name.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discover, IpcConnectError, probe, request } from '../../src/ipc/client.ts';
import { listSockets, type SocketTarget } from '../../src/ipc/paths.ts';
import { IpcServer } from '../../src/ipc/server.ts';
import { SvcError } from '../../src/model/errors.ts';
import { inFolder, socketScratch } from './scratch.ts';
import { killedSocketHolder } from './stale-socket.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const HANG_MS = 15_000;
const { temp } = socketScratch('svc-cedge-');

describe('the client at its edges', { skip, timeout: HANG_MS }, () => {
  it('a socket path through a file is ENOTDIR, named in the system\'s words, and probe calls it unresponsive, not stale', { timeout: HANG_MS }, async () => {
    const file = join(temp(), 'file');
    writeFileSync(file, '');
    const path = join(file, 'x.sock');
    await assert.rejects(request(path, 'ping'), (e: unknown) => {
      assert.ok(e instanceof IpcConnectError, String(e));
      assert.deepEqual([e.reason, e.message], ['ENOTDIR', `${path}: connect ENOTDIR ${path}`]);
      return true;
    });
    assert.deepEqual(await probe(path), { kind: 'unresponsive', socket: path, reason: `${path}: connect ENOTDIR ${path}` });
  });

  it('a daemon whose answer reads like a refused connection is left alone by discovery', { timeout: HANG_MS }, async () => {
    const target: SocketTarget = { kind: 'dir', dir: join(temp(), 'svc', 'k'), source: 'XDG_RUNTIME_DIR' };
    const odd = await IpcServer.listen({ target, handlers: { ping: () => { throw new SvcError('busy', 'ECONNREFUSED'); } } });
    try {
      const found = await discover(target, 2000);
      assert.deepEqual([found.unresponsive, found.removed], [[{ kind: 'unresponsive', socket: odd.path, reason: 'ECONNREFUSED' }], []]);
      assert.equal(existsSync(odd.path), true);
    } finally {
      await odd.close();
    }
  });

  it('a Windows pipe name that refuses connections is never deleted by discovery (a pipe goes with its process)', { timeout: HANG_MS }, async () => {
    const dir = temp();
    const pipe = '\\\\.\\pipe\\svc-u-0123456789ab-7';
    // The pipe listing finds its name; connecting to it reaches a dead daemon's socket file here.
    mkdirSync(join(dir, '\\\\.\\pipe\\'));
    writeFileSync(join(dir, '\\\\.\\pipe\\', 'svc-u-0123456789ab-7'), '');
    await killedSocketHolder(join(dir, pipe));
    const target: SocketTarget = { kind: 'dir', dir: '\\\\.\\pipe\\svc-u-0123456789ab-', source: 'default' };
    await inFolder(dir, async () => {
      assert.deepEqual(listSockets(target), [pipe]);
      assert.deepEqual(await probe(pipe, 2000), { kind: 'stale', socket: pipe, reason: 'ECONNREFUSED' });
      const found = await discover(target, 2000);
      assert.deepEqual([found.live, found.unresponsive, found.removed], [[], [], []]);
    });
    assert.equal(existsSync(join(dir, pipe)), true);
  });
});
