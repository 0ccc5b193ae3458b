// `svc serve` run in this process (runCli) up to its refusals, before any daemon starts: a port in
// use over HTTP, with the config from svc.yaml or from FILE arguments, said with the holder and the
// flag to change it; a stderr that fails later does not throw (svc serve listens for its errors).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../src/cli/program.ts';
import { saveCodeCache } from '../../src/cli/code-cache.ts';
import { captureStream } from '../support/tty.ts';

describe('svc serve refusals, in process', () => {
  let dir: string;
  let holder: Server;
  let port: number;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-serve-refusals-'));
    writeFileSync(join(dir, 'pets.json'), JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} }));
    writeFileSync(join(dir, 'svc.yaml'), `serve:\n  transport: http\n  port: 1\nspecs:\n  - pets.json\n`);
    holder = createServer();
    await new Promise<void>((done) => holder.listen({ host: '127.0.0.1', port: 0 }, done));
    port = (holder.address() as AddressInfo).port;
  });
  after(() => {
    holder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const inUse = (message: string) => assert.match(message, new RegExp(`^svc: port ${port} on 127\\.0\\.0\\.1 is already in use`));

  it('reads FILE arguments instead of svc.yaml, the flags over both, and stops at a port in use', async () => {
    const stderr = captureStream(false, 80);
    // The FILE is found from the working folder; svc.yaml there would say port 1.
    const code = await runCli(['node', 'svc', 'serve', join(dir, 'pets.json'), '--transport', 'http', '--port', String(port), '--config', join(dir, 'nowhere.yaml')], { stdout: captureStream(false, 80), stderr, env: {} });
    assert.equal(code, 1);
    inUse(stderr.text);
    const fromConfig = captureStream(false, 80);
    assert.equal(await runCli(['node', 'svc', 'serve', '--port', String(port), '--config', join(dir, 'svc.yaml')], { stdout: captureStream(false, 80), stderr: fromConfig, env: {} }), 1);
    inUse(fromConfig.text);
    // Its stderr failing afterwards (a closed pipe) is no uncaught error.
    fromConfig.emit('error', new Error('EPIPE'));
  });
});

describe("the installed script's code cache", () => {
  it('is saved through the hook the script runner sets, once per call, and is no error without one', () => {
    const key = Symbol.for('svc.codeCache');
    const global = globalThis as { [key]?: { save(): void } };
    saveCodeCache();
    let saved = 0;
    global[key] = { save: () => void saved++ };
    try {
      saveCodeCache();
      assert.equal(saved, 1);
    } finally {
      delete global[key];
    }
  });
});
