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

/** `ensureTokenFile(dir)` in a thread of its own, all threads released at once; what each got. */
function raceOnce(dir: string, threads: number): Promise<string[]> {
  const start = new SharedArrayBuffer(4);
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.module).then((m) => {
      const flag = new Int32Array(workerData.start);
      Atomics.wait(flag, 0, 0);
      try { parentPort.postMessage('ok:' + m.ensureTokenFile(workerData.dir).token); }
      catch (e) { parentPort.postMessage('error:' + e.message); }
    });`;
  const workers = Array.from({ length: threads }, () => new Worker(code, { eval: true, workerData: { module: TOKEN_MODULE, dir, start } }));
  const answers = workers.map((w) => new Promise<string>((resolve, reject) => (w.once('message', resolve), w.once('error', reject))));
  // Let every thread load the module and wait, then release them together.
  setTimeout(() => {
    Atomics.store(new Int32Array(start), 0, 1);
    Atomics.notify(new Int32Array(start), 0);
  }, 300);
  return Promise.all(answers).finally(() => Promise.all(workers.map((w) => w.terminate())));
}

it('daemons that create the token file at once all get the same complete token, and no temporary file stays', { skip: process.platform === 'win32' ? 'POSIX files' : false, timeout: 60_000 }, async () => {
  for (let round = 0; round < 15; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-token-race-'));
    dirs.push(dir);
    const got = await raceOnce(join(dir, 'state'), 4);
    assert.ok(got.every((g) => g.startsWith('ok:')), `round ${round}: ${got.join(' | ')}`);
    assert.equal(new Set(got).size, 1, `round ${round}: one token for all`);
    assert.deepEqual(readdirSync(join(dir, 'state')), ['http-token']);
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
