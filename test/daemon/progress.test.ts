// `svc update` on a terminal shows which spec it is importing (done/total and the file) while a
// long update runs; piped output and --json stay free of it. The CLI runs in-process (runCli)
// with a terminal-like stderr, against a real daemon process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../src/cli/program.ts';
import { captureStream } from '../support/tty.ts';
import { openapi, project, startDaemon, type Op } from './support.ts';

/** Terminal width 200: wide enough that nothing is cut. */
const stream = (isTTY: boolean) => captureStream(isTTY, 200);

/** Enough operations that importing takes well over the progress line's quiet period. */
function big(title: string, n: number, variant: string): string {
  const ops: Op[] = Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/r${i}/{id}/items`, summary: `${variant} resource ${i}`, tag: `t${i % 40}` }));
  return openapi(title, ops);
}

test('on a terminal svc update shows done/total and the current file; piped or --json it does not', async () => {
  const p = project();
  // The daemon starts on small specs: only the updates need to be long.
  p.write('specs/one.yaml', big('One', 10, 'Read'));
  p.write('specs/two.yaml', big('Two', 10, 'Read'));
  p.config(['specs/one.yaml', 'specs/two.yaml']);
  const d = await startDaemon(p);
  try {
    const run = async (variant: string, isTTY: boolean, json: boolean) => {
      p.write('specs/one.yaml', big('One', 5000, variant));
      p.write('specs/two.yaml', big('Two', 5000, variant));
      const out = stream(false);
      const err = stream(isTTY);
      const code = await runCli(['node', 'svc', 'update', '--socket', d.socket, '--config', p.configFile, ...(json ? ['--json'] : [])], {
        stdout: out,
        stderr: err,
        env: {},
      });
      return { code, out: out.text, err: err.text };
    };
    const tty = await run('Fetch', true, false);
    assert.equal(tty.code, 0, tty.err);
    assert.match(tty.err, /[01]\/2 \S*specs\/(one|two)\.yaml/);
    assert.ok(tty.err.endsWith('\r\x1b[2K'), 'the progress line is cleared before the report');
    assert.match(tty.out, /one: changed/);

    const piped = await run('Load', false, false);
    assert.equal(piped.code, 0);
    assert.equal(piped.err, '');
    const json = await run('Get', true, true);
    assert.equal(json.err, '');
    assert.equal(JSON.parse(json.out).daemons[0].result.ok, true);
  } finally {
    await d.stop();
    p.cleanup();
  }
});
