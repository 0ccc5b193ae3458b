// Daemons started at once on a fresh state folder (two on one config, or an MCP client that starts
// several) each make sure the HTTP token file exists. Each must get the same complete token: none
// may read the file while another is still writing it.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { ensureTokenFile } from '../../src/mcp/token.ts';

const TOKEN_MODULE = new URL('../../src/mcp/token.ts', import.meta.url).href;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Threads that each call `ensureTokenFile(dir)` when released, all released at once. The threads
 * load the module once and serve every round: starting a thread and loading the module is what
 * costs, and fifteen rounds of four new threads cost more CPU than the rest of the mcp tests.
 */
function racers(threads: number): { race(dir: string): Promise<string[]>; close(): Promise<unknown> } {
  // flag[0] is the round released; each thread waits for it to reach the round it was sent.
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.module).then((m) => {
      const flag = new Int32Array(workerData.start);
      parentPort.on('message', ({ round, dir }) => {
        parentPort.postMessage('ready');
        while (Atomics.load(flag, 0) < round) Atomics.wait(flag, 0, round - 1);
        try { parentPort.postMessage('ok:' + m.ensureTokenFile(dir).token); }
        catch (e) { parentPort.postMessage('error:' + e.message); }
      });
      parentPort.postMessage('loaded');
    });`;
  const workers = Array.from({ length: threads }, () => new Worker(code, { eval: true, workerData: { module: TOKEN_MODULE, start: flag.buffer } }));
  const next = (w: Worker) => new Promise<string>((resolve, reject) => (w.once('message', resolve), w.once('error', reject)));
  const loaded = Promise.all(workers.map(next));
  let round = 0;
  return {
    async race(dir) {
      await loaded;
      round++;
      const ready = workers.map(next);
      for (const w of workers) w.postMessage({ round, dir });
      await Promise.all(ready);
      const answers = workers.map(next);
      // Every thread is waiting (or about to): release them together.
      Atomics.store(flag, 0, round);
      Atomics.notify(flag, 0);
      return Promise.all(answers);
    },
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}

it('daemons that create the token file at once all get the same complete token, and no temporary file stays', { skip: process.platform === 'win32' ? 'POSIX files' : false, timeout: 60_000 }, async () => {
  const threads = racers(4);
  try {
    for (let round = 0; round < 60; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-token-race-'));
      dirs.push(dir);
      const got = await threads.race(join(dir, 'state'));
      assert.ok(got.every((g) => g.startsWith('ok:')), `round ${round}: ${got.join(' | ')}`);
      assert.equal(new Set(got).size, 1, `round ${round}: one token for all`);
      assert.deepEqual(readdirSync(join(dir, 'state')), ['http-token']);
    }
  } finally {
    await threads.close();
  }
});

it('a token file made on this thread leaves only itself in the folder, and a second call reads it back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-token-one-'));
  dirs.push(dir);
  const state = join(dir, 'state');
  const first = ensureTokenFile(state);
  assert.deepEqual(readdirSync(state), ['http-token']);
  assert.deepEqual(ensureTokenFile(state), first);
  assert.deepEqual(readdirSync(state), ['http-token']);
});
