// `svc update` in this process when the daemon goes away in the middle of the update (killed while
// it imports): the daemon is named with "update failed" and the reason, and the exit code is 1.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../../src/cli/program.ts';
import { captureStream } from '../support/tty.ts';
import { openapi, project, startDaemon, type Op } from '../daemon/support.ts';

function big(title: string, n: number): string {
  const ops: Op[] = Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/r${i}/{id}/items`, summary: `Resource ${i}`, tag: `t${i % 40}` }));
  return openapi(title, ops);
}

it('says which daemon failed to update and why, exit 1, when the daemon dies during the update', { timeout: 120_000, skip: process.platform === 'win32' ? 'Unix sockets' : false }, async () => {
  const p = project();
  p.write('specs/one.yaml', big('One', 5));
  p.write('specs/two.yaml', big('Two', 5));
  p.config(['specs/one.yaml', 'specs/two.yaml']);
  const d = await startDaemon(p);
  try {
    p.write('specs/one.yaml', big('One', 8000));
    p.write('specs/two.yaml', big('Two', 8000));
    const out = captureStream(false, 200);
    const running = runCli(['node', 'svc', 'update', '--socket', d.socket, '--config', p.configFile], { stdout: out, stderr: captureStream(false, 200), env: {} });
    await sleep(150);
    d.child.kill('SIGKILL');
    const code = await running;
    assert.equal(code, 1, out.text);
    const [head, failed, ...rest] = out.text.split('\n');
    assert.equal(head, `daemon pid ${d.pid}:`);
    assert.match(failed!, /^ {2}update failed: \S/);
    assert.doesNotMatch(failed!, /unknown error/);
    assert.deepEqual(rest, ['']);
  } finally {
    await d.stop();
    p.cleanup();
  }
});
