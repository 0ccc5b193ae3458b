// `svc update` on a terminal, in this process against a real daemon: the progress line follows the
// daemon's import, spec by spec: `0/2 <first file>`, then the count of specs done (`1/2 <second
// file>`), never a file it was not told, and the line cleared before the report. (test/daemon/progress
// checks that piped output and --json stay free of it.)
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runCli } from '../../src/cli/program.ts';
import { captureStream } from '../support/tty.ts';
import { openapi, project, startDaemon, type Op } from '../daemon/support.ts';

/** Enough operations that importing one spec takes well over the progress line's quiet period. */
function big(title: string, n: number, variant: string): string {
  const ops: Op[] = Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/r${i}/{id}/items`, summary: `${variant} resource ${i}`, tag: `t${i % 40}` }));
  return openapi(title, ops);
}

it('shows each spec as the daemon imports it and the count of specs done, then clears the line', { timeout: 120_000, skip: process.platform === 'win32' ? 'Unix sockets' : false }, async () => {
  const p = project();
  p.write('specs/one.yaml', big('One', 5, 'Read'));
  p.write('specs/two.yaml', big('Two', 5, 'Read'));
  p.config(['specs/one.yaml', 'specs/two.yaml']);
  const d = await startDaemon(p);
  try {
    p.write('specs/one.yaml', big('One', 5000, 'Fetch'));
    p.write('specs/two.yaml', big('Two', 5000, 'Fetch'));
    const out = captureStream(false, 200);
    const err = captureStream(true, 200);
    const code = await runCli(['node', 'svc', 'update', '--socket', d.socket, '--config', p.configFile], { stdout: out, stderr: err, env: {} });
    assert.equal(code, 0, err.text);
    const lines = err.text.split('\r\u001b[2K').filter(Boolean);
    assert.ok(lines.length > 0, JSON.stringify(err.text));
    for (const line of lines) assert.match(line, /^[012]\/2 \S*specs\/(one|two)\.yaml$/, JSON.stringify(line));
    assert.ok(lines.some((l) => /^1\/2 \S*specs\/two\.yaml$/.test(l)), `the first spec done is counted: ${JSON.stringify(lines)}`);
    assert.ok(!lines.some((l) => /^[2-9]\/2 \S*one\.yaml/.test(l)), 'no count runs ahead of the import');
    assert.ok(err.text.endsWith('\r\u001b[2K'));
    assert.match(out.text, /one: changed/);
  } finally {
    await d.stop();
    p.cleanup();
  }
});
