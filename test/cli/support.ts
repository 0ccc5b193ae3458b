// Helpers of the in-process CLI tests: running `svc` here (runCli) on a project's config, the
// folder its daemons' sockets are in, and sockets whose daemon is gone or does not answer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { runCli } from '../../src/cli/program.ts';
import { configKey } from '../../src/ipc/paths.ts';
import { captureStream } from '../support/tty.ts';
import { project, type Project } from '../daemon/support.ts';

/** Runs `svc ARGS` in this process with the project's config, and what it wrote. */
export async function cli(p: Project, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = captureStream(false, 80);
  const stderr = captureStream(false, 80);
  const code = await runCli(['node', 'svc', ...args, '--config', p.configFile], { stdout, stderr, env });
  return { code, out: stdout.text, err: stderr.text };
}

/**
 * Sets environment variables (undefined: unset) before the enclosing block's tests, from `values`
 * read then (a project made in an earlier `before` can name its folders), and puts back what was
 * there after them.
 */
function envForBlock(values: () => Readonly<Record<string, string | undefined>>): void {
  const saved = new Map<string, string | undefined>();
  const set = (key: string, value: string | undefined) => {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  };
  before(() => {
    for (const [key, value] of Object.entries(values())) {
      saved.set(key, process.env[key]);
      set(key, value);
    }
  });
  after(() => {
    for (const [key, value] of saved) set(key, value);
  });
}

/**
 * A project whose svc.yaml names a spec that is not there, with a runtime folder of its own (no
 * daemon's socket in it), for the enclosing block's tests: `current()` is it once the block runs.
 */
export function daemonlessProject(): { readonly current: () => Project } {
  let p: Project | undefined;
  before(() => {
    p = project();
    p.config(['specs/none.yaml']);
  });
  after(() => p?.cleanup());
  envForBlock(() => ({ XDG_RUNTIME_DIR: p!.runtime, SVC_SOCKET: undefined }));
  return { current: () => p! };
}

/** The folder a daemon of `p` puts its socket in (the runtime folder is this process's too, below). */
export const socketDir = (p: Project) => join(p.runtime, 'svc', configKey(p.configFile));

/** A socket file nobody listens on: its process was killed before it could remove it. */
export async function staleSocket(path: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
  await new Promise((done) => child.once('exit', done));
  assert.ok(existsSync(path));
}

/** A socket that accepts connections and never answers. */
export async function silentSocket(path: string): Promise<{ server: Server; close: () => Promise<void> }> {
  const held: Socket[] = [];
  const server = createServer((s) => void held.push(s));
  await new Promise<void>((done) => server.listen(path, done));
  return {
    server,
    close: () =>
      new Promise<void>((done) => {
        for (const s of held) s.destroy();
        server.close(() => done());
      }),
  };
}
