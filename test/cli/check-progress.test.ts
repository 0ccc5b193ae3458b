// The progress line of `svc check`: only on a terminal, only on runs long enough to need it, cleared at the end.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Progress } from '../../src/cli/progress.ts';
import { captureStream } from '../support/tty.ts';

/** Terminal width 40: long lines get cut. */
const stream = (isTTY: boolean) => captureStream(isTTY, 40);

describe('check progress', () => {
  it('shows done/total and the current file on a terminal once the run is slow, then clears the line', async () => {
    const tty = stream(true);
    const progress = new Progress(tty, 3);
    await sleep(350);
    progress.start('specs/first.yaml');
    progress.done();
    progress.start('specs/a-very-long-folder-name/and-a-long-file-name.yaml');
    progress.finish();
    assert.match(tty.text, /0\/3 specs\/first\.yaml/);
    assert.match(tty.text, /1\/3 specs\/first\.yaml/);
    assert.match(tty.text, /\.\.\.[^\r]*and-a-long-file-name\.yaml/, 'long lines are cut to the terminal width');
    assert.ok(tty.text.endsWith('\r\x1b[2K'), 'the line is cleared at the end');
  });

  it('stays silent when stderr is not a terminal', async () => {
    const plain = stream(false);
    const progress = new Progress(plain, 2);
    await sleep(350);
    progress.start('x.yaml');
    progress.done();
    progress.finish();
    assert.equal(plain.text, '');
  });

  it('stays silent on quick runs', () => {
    const tty = stream(true);
    const progress = new Progress(tty, 1);
    progress.start('x.yaml');
    progress.done();
    progress.finish();
    assert.equal(tty.text, '');
  });
});
