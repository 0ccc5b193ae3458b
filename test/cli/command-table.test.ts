// Every command of the table (src/cli/commands.ts) loads its own module and runs it: with no
// daemon to talk to, each daemon command answers exit 2, and check and serve read the config they
// are given (here, one that does not exist: exit 1 with the file named).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { runCli } from '../../src/cli/program.ts';
import { captureStream } from '../support/tty.ts';

let dir: string;
const saved = process.env['XDG_RUNTIME_DIR'];
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-cli-table-'));
  process.env['XDG_RUNTIME_DIR'] = dir;
  delete process.env['SVC_SOCKET'];
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
  if (saved === undefined) delete process.env['XDG_RUNTIME_DIR'];
  else process.env['XDG_RUNTIME_DIR'] = saved;
});

it('runs each command of the table through its own module', async () => {
  const config = join(dir, 'missing', 'svc.yaml');
  const run = async (args: readonly string[]) => {
    const stderr = captureStream(false, 80);
    const code = await runCli(['node', 'svc', ...args, '--config', config], { stdout: captureStream(false, 80), stderr, env: {} });
    return { code, err: stderr.text };
  };
  for (const args of [['status'], ['update'], ['search', 'pets'], ['inspect', 'pets:GET:/pets'], ['list']]) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args[0]}: ${r.err}`);
    assert.ok(r.err.startsWith(`svc: no daemon is serving ${config}`), r.err);
  }
  for (const args of [['check'], ['serve', '--transport', 'http']]) {
    const r = await run(args);
    assert.equal(r.code, 1, `${args[0]}: ${r.err}`);
    assert.ok(r.err.startsWith(`svc: ${config}: 1 problem in the config:`), r.err);
  }
});
