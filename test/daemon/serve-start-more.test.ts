// More of `svc serve`'s start sequence in process (startServe), beside serve-start-contract: readiness
// while a large spec loads, the load time the log reports, the snapshot note when SVC_SNAPSHOTS=0,
// and a start without services whose port is taken.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { loadNote } from '../../src/daemon/load-notes.ts';
import { startServe } from '../../src/daemon/serve.ts';
import { openapi } from './support.ts';

const HANG_MS = 60_000;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(yaml: string, ops = 1): { dir: string; configFile: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-serve-more-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'pets.yaml'), openapi('Pets', Array.from({ length: ops }, (_, i) => ({ method: 'GET', path: `/pets/p${i}`, summary: `Read pet list number ${i}` }))));
  writeFileSync(join(dir, 'svc.yaml'), yaml);
  return { dir, configFile: join(dir, 'svc.yaml'), env: { XDG_RUNTIME_DIR: dir, XDG_STATE_HOME: join(dir, 'state'), XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir } };
}

describe('svc serve start sequence in process, continued', { skip: process.platform === 'win32' ? 'Unix sockets only' : false, timeout: HANG_MS }, () => {
  it('HTTP is not ready while a large spec loads, and is once it is served; the log says how long loading took', { timeout: HANG_MS }, async () => {
    const p = project('serve:\n  transport: http\n  port: 0\n  auth: none\nspecs:\n  - pets.yaml\n', 4000);
    const logs: string[] = [];
    const t0 = performance.now();
    const daemon = await startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, services: false, log: (l) => logs.push(l) });
    try {
      let loaded = false;
      void daemon.ready.then(() => (loaded = true));
      // Asked at once: the import of 4,000 operations in the worker takes far longer than the answer.
      const asked = loaded;
      const early = await fetch(`${daemon.url}/readyz`);
      if (!asked) assert.equal(early.status, 503, 'not ready before the catalogue is loaded');
      await daemon.ready;
      const t1 = performance.now();
      assert.equal((await fetch(`${daemon.url}/readyz`)).status, 200);
      const ms = Number(/^loaded 1 spec\(s\), 4000 endpoints in (\d+) ms$/.exec(logs.find((l) => l.startsWith('loaded ')) ?? '')?.[1] ?? NaN);
      assert.ok(ms >= 0 && ms <= Math.ceil(t1 - t0) + 1, `${ms} ms reported, ${Math.round(t1 - t0)} ms measured`);
    } finally {
      await daemon.close();
    }
  });

  it('SVC_SNAPSHOTS=0: every spec is imported, with snapshots off', { timeout: HANG_MS }, async () => {
    const p = project('specs:\n  - pets.yaml\n');
    const daemon = await startServe({ config: await loadConfig(p.configFile), env: { ...p.env, SVC_SNAPSHOTS: '0' }, services: false, stdin: new (await import('node:stream')).PassThrough(), stdout: new (await import('node:stream')).PassThrough(), log: () => {} });
    try {
      await daemon.ready;
      assert.match(loadNote(daemon.catalog.spec('pets')!) ?? '', /^snapshots off/);
    } finally {
      await daemon.close();
    }
  });

  it('without services, a port in use stops the start with the port error', { timeout: HANG_MS }, async () => {
    const p = project('serve:\n  transport: http\n  port: 0\n  auth: none\nspecs:\n  - pets.yaml\n');
    const first = await startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, services: false, log: () => {} });
    try {
      writeFileSync(p.configFile, `serve:\n  transport: http\n  port: ${new URL(first.url!).port}\n  auth: none\nspecs:\n  - pets.yaml\n`);
      await assert.rejects(startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, services: false, log: () => {} }), /EADDRINUSE|in use/);
    } finally {
      await first.close();
    }
  });
});
