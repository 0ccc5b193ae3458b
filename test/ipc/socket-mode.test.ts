// The daemon's socket is never open to others, not even for an instant while the daemon starts:
// bind() creates the file under a tight umask, before anything sets its mode. A watcher on another
// thread looks at each socket file as it appears in the folder, while this thread starts daemons.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { IpcServer } from '../../src/ipc/server.ts';
import { socketScratch, until } from './scratch.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const HANG_MS = 20_000;
const { temp } = socketScratch('svc-mode-');

/** Posts the mode of every socket file that appears in the folder `workerData`, as soon as it is seen. */
const WATCHER = `
  const { watch, lstatSync } = require('node:fs');
  const { join } = require('node:path');
  const { parentPort, workerData } = require('node:worker_threads');
  const watcher = watch(workerData, (event, name) => {
    try {
      const st = lstatSync(join(workerData, name));
      if (st.isSocket()) parentPort.postMessage(st.mode & 0o777);
    } catch {}
  });
  parentPort.on('message', () => { watcher.close(); parentPort.close(); });
  parentPort.postMessage('ready');
`;

describe('the socket while a daemon starts', { skip, timeout: HANG_MS }, () => {
  it('every socket file another thread sees appear, under its hidden name or its own, is 0600', { timeout: HANG_MS }, async () => {
    const dir = temp();
    const worker = new Worker(WATCHER, { eval: true, workerData: dir });
    const modes: number[] = [];
    try {
      await new Promise((resolve) => worker.once('message', resolve));
      worker.on('message', (mode: number) => modes.push(mode));
      for (let i = 0; i < 20; i++) {
        const seen = modes.length;
        const server = await IpcServer.listen({ target: { kind: 'explicit', path: join(dir, 's.sock'), source: 'test' }, handlers: {} });
        try {
          await until('the watcher to see the socket', () => modes.length > seen);
        } finally {
          await server.close();
        }
      }
      assert.deepEqual(modes.filter((m) => m !== 0o600).map((m) => m.toString(8)), []);
    } finally {
      worker.postMessage('stop');
      await worker.terminate();
    }
  });
});
