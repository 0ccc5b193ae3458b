// Faults around a live daemon: the spec folder vanishing, a spec losing its read permission,
// and a full disk under everything the daemon writes (its only writes are log lines on stderr
// and the socket file): stderr on /dev/full. The daemon keeps serving its last good catalogue.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from '../../src/ipc/client.ts';
import type { StatusResult } from '../../src/ipc/protocol.ts';
import { startDaemon } from './support/daemon.ts';
import { recordFigures } from './support/figures.ts';
import { REPO_ROOT } from './support/scale.ts';

const dirs: string[] = [];
const figures: Record<string, string | number> = {};

function project(): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-faults-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'specs'));
  cpSync(join(REPO_ROOT, 'specs/bookshelf.yaml'), join(dir, 'specs/bookshelf.yaml'));
  writeFileSync(join(dir, 'specs/second.json'), JSON.stringify({ openapi: '3.0.3', info: { title: 'second', version: '1' }, paths: { '/second': { get: { summary: 'second', responses: { '200': { description: 'OK' } } } } } }));
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'specs:\n  - path: specs/bookshelf.yaml\n  - path: specs/second.json\n');
  return { dir, config };
}

after(() => {
  for (const d of dirs) {
    try {
      chmodSync(join(d, 'specs/bookshelf.yaml'), 0o644);
    } catch {
      // Already gone.
    }
    rmSync(d, { recursive: true, force: true });
  }
  recordFigures('faults (live daemon)', figures);
});

describe('faults around a live daemon', () => {
  test('the spec folder vanishing: update reports it, the last good catalogue keeps serving, and it recovers', { timeout: 120_000 }, async () => {
    const { dir, config } = project();
    const d = await startDaemon({ config, cwd: dir, socket: join(dir, 'd.sock') });
    try {
      const before = await d.status();
      renameSync(join(dir, 'specs'), join(dir, 'specs-gone'));
      const result = await d.update(30_000);
      const reported = result.configErrors.length + result.specs.filter((s) => s.state === 'failed').length;
      assert.ok(!result.ok && reported > 0, `the update did not report the vanished folder: ${JSON.stringify(result).slice(0, 400)}`);
      const during = await d.status(1000);
      assert.equal(during.totals.endpoints, before.totals.endpoints, 'endpoints were dropped although no good version replaced them');
      renameSync(join(dir, 'specs-gone'), join(dir, 'specs'));
      const back = await d.update(30_000);
      assert.ok(back.ok, `the update after the folder came back failed: ${JSON.stringify(back).slice(0, 400)}`);
      figures['spec folder vanished: update reported'] = `${reported} problem(s), ${during.totals.endpoints} endpoints kept`;
    } finally {
      await d.stop();
    }
  });

  test('a spec that loses its read permission: reported, previous version kept', { timeout: 120_000 }, async (t) => {
    const { dir, config } = project();
    // Root reads any file: as root, run the daemon as `nobody` (with a hard link to this node, since
    // root's home is closed to other users); skip when that cannot be arranged.
    let user: { uid: number; gid: number; node: string } | undefined;
    if (process.getuid?.() === 0) {
      try {
        const node = join(dir, 'node');
        linkSync(process.execPath, node);
        user = { uid: 65534, gid: 65534, node };
        chmodSync(dir, 0o755);
        for (const p of [dir, join(dir, 'specs'), join(dir, 'specs/bookshelf.yaml'), join(dir, 'specs/second.json'), config]) chownSync(p, user.uid, user.gid);
      } catch (error) {
        t.skip(`running as root and cannot run the daemon as another user: ${(error as Error).message}`);
        return;
      }
    }
    const d = await startDaemon({ config, cwd: dir, socket: join(dir, 'd.sock'), ...(user ? { user } : {}) });
    try {
      const file = join(dir, 'specs/bookshelf.yaml');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n# touched\n`);
      chmodSync(file, 0o000);
      const result = await d.update(30_000);
      const spec = result.specs.find((s) => s.name === 'bookshelf');
      assert.equal(spec?.state, 'failed', JSON.stringify(result).slice(0, 400));
      assert.ok(spec?.keptPrevious);
      assert.match(spec!.errors.map((e) => `${e.code} ${e.message}`).join(' '), /EACCES|permission/i);
      const st = await d.status(1000);
      assert.equal(st.totals.endpoints, 13, 'the kept version is not serving');
      chmodSync(file, 0o644);
      const back = await d.update(30_000);
      assert.ok(back.ok, 'the update after the permission came back failed');
      figures['permission denied: update reported'] = `${spec!.errors[0]!.code}${user ? ' (daemon run as nobody)' : ''}`;
    } finally {
      await d.stop();
    }
  });

  test('a full disk under stderr (/dev/full): logging fails, the daemon keeps serving', { timeout: 120_000, skip: existsSync('/dev/full') ? false : 'no /dev/full on this system' }, async () => {
    const { dir, config } = project();
    const socket = join(dir, 'd.sock');
    const full = openSync('/dev/full', 'w');
    const proc = spawn(process.execPath, [join(REPO_ROOT, 'bin/svc.js'), 'serve', '--config', config, '--transport', 'http', '--port', '0'], { cwd: dir, env: { ...process.env, SVC_SOCKET: socket, XDG_STATE_HOME: join(dir, '.state') }, stdio: ['ignore', 'ignore', full] });
    closeSync(full);
    let exited: number | null | undefined;
    proc.on('exit', (code) => (exited = code));
    try {
      let status: StatusResult | undefined;
      const deadline = Date.now() + 60_000;
      // Status answers during the first import too: wait until both specs serve.
      while ((status?.totals.endpoints ?? 0) < 13 && Date.now() < deadline && exited === undefined) {
        status = await request(socket, 'status', {}, { timeoutMs: 1000 }).catch(() => undefined);
        if ((status?.totals.endpoints ?? 0) < 13) await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(status, `the daemon never answered status (exit ${exited})`);
      // Make it log: a failing spec on update writes diagnostics to stderr.
      writeFileSync(join(dir, 'specs/second.json'), '{ broken');
      let updates = 0;
      for (let i = 0; i < 20; i++) {
        await request(socket, 'update', {}, { timeoutMs: 10_000 });
        updates++;
      }
      const after = await request(socket, 'status', {}, { timeoutMs: 1000 });
      assert.equal(exited, undefined, `the daemon exited with ${exited} when its log writes failed`);
      assert.equal(after.totals.endpoints, status.totals.endpoints);
      figures['stderr on /dev/full: updates that logged, daemon alive'] = `${updates}, ${exited === undefined ? 'yes' : 'no'}`;
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => (exited !== undefined ? r(undefined) : proc.once('exit', r)));
    }
  });
});
