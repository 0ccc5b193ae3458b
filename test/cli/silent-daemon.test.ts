// `svc status` and `svc update` in this process (runCli) beside sockets whose daemon is gone (the
// file is removed and the removal said) or does not answer (listed, exit 1; when it is the only one,
// "no daemon answered" rather than "no daemon"). Each look at a silent socket waits out the 2 s probe.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openapi, project, startDaemon, type Daemon, type Project } from '../daemon/support.ts';
import { cli, daemonlessProject, silentSocket, socketDir, staleSocket } from './support.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;

describe('a daemon that is gone or silent beside a live one', { skip, timeout: 120_000 }, () => {
  let p: Project;
  let d: Daemon;
  const saved = process.env['XDG_RUNTIME_DIR'];
  before(async () => {
    p = project();
    p.write('specs/pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }]));
    p.config(['specs/pets.yaml']);
    process.env['XDG_RUNTIME_DIR'] = p.runtime;
    delete process.env['SVC_SOCKET'];
    d = await startDaemon(p, ['--transport', 'stdio']);
  });
  after(async () => {
    await d?.stop();
    p?.cleanup();
    if (saved === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = saved;
  });

  it('a socket whose daemon is gone is removed and said; one that does not answer is listed with exit 1', async () => {
    const dir = socketDir(p);
    const stale = join(dir, '1.sock');
    await staleSocket(stale);
    const first = await cli(p, ['status', '--json']);
    assert.equal(first.code, 0, first.err);
    assert.ok(first.err.includes(`svc: removed stale socket ${stale} (its daemon is gone)\n`), first.err);
    assert.equal(existsSync(stale), false);

    const silent = await silentSocket(join(dir, '2.sock'));
    try {
      const status = await cli(p, ['status']);
      assert.equal(status.code, 1);
      assert.match(status.err, /2\.sock: a daemon is there but did not answer \(/);
      assert.match(status.out, new RegExp(`daemon at ${join(dir, '2.sock').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no status: did not answer: `));
      const statusJson = JSON.parse((await cli(p, ['status', '--json'])).out) as { daemons: { socket: string; error?: string; pid?: number }[] };
      assert.deepEqual(statusJson.daemons.map((x) => x.socket), [d.socket, join(dir, '2.sock')].sort((a, b) => (a === d.socket ? -1 : b === d.socket ? 1 : 0)));
      assert.match(statusJson.daemons[1]!.error ?? '', /^did not answer: /);
      const update = await cli(p, ['update']);
      assert.equal(update.code, 1);
      assert.match(update.out, /: not updated: did not answer: /);
      const updateJson = JSON.parse((await cli(p, ['update', '--json'])).out) as { daemons: { socket: string; error?: { code: string; message: string } }[] };
      assert.deepEqual(updateJson.daemons[1]!.error?.code, 'no-answer');
      assert.match(updateJson.daemons[1]!.error?.message ?? '', /^did not answer: /);
    } finally {
      await silent.close();
    }
  });
});

describe('the only daemon there is silent', { skip, timeout: 60_000 }, () => {
  const block = daemonlessProject();

  it('say when the only daemon there does not answer, instead of "no daemon"', async () => {
    const p = block.current();
    const dir = socketDir(p);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const silent = await silentSocket(join(dir, '3.sock'));
    try {
      const run = await cli(p, ['status']);
      assert.equal(run.code, 2);
      assert.ok(run.err.includes(`svc: no daemon serving ${resolve(p.configFile)} answered; 1 did not (above)\n  hint: a daemon busy for seconds is stuck`), run.err);
    } finally {
      await silent.close();
    }
  });
});
