// The progress line (src/cli/progress.ts) byte for byte on a terminal: `\r`, erase-line, `done/total
// current`, a line wider than the terminal (less one column, 20 at least) cut to its last columns
// behind `...`; redrawn by its timer while one item takes long, never after finish, cleared once;
// nothing for an empty run. test/cli/check-progress covers when it shows at all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Progress } from '../../src/cli/progress.ts';
import { captureStream } from '../support/tty.ts';

const CLEAR = '\r\u001b[2K';

describe('the progress line', () => {
  it('draws done/total and the current item exactly, and counts each done', async () => {
    const tty = captureStream(true, 80);
    const progress = new Progress(tty, 3);
    await sleep(320);
    progress.done();
    assert.equal(tty.text, `${CLEAR}1/3 `);
    progress.start('specs/a.yaml');
    progress.done();
    progress.finish();
    progress.finish();
    assert.equal(tty.text, `${CLEAR}1/3 ${CLEAR}1/3 specs/a.yaml${CLEAR}2/3 specs/a.yaml${CLEAR}`);
  });

  it('cuts a line wider than the terminal to its last columns, behind ...', async () => {
    for (const [columns, width] of [[30, 29], [10, 20], [undefined, 79]] as const) {
      const tty = captureStream(true, 0);
      if (columns === undefined) delete (tty as { columns?: number }).columns;
      else tty.columns = columns;
      const progress = new Progress(tty, 9);
      await sleep(320);
      const item = 'x'.repeat(width - 4);
      progress.start(item);
      assert.equal(tty.text, `${CLEAR}0/9 ${item}`, `fits in ${width}`);
      tty.text = '';
      progress.start(`${item}yz`);
      assert.equal(tty.text, `${CLEAR}...${`0/9 ${item}yz`.slice(-(width - 3))}`, `cut at ${width}`);
      assert.equal(tty.text.length - CLEAR.length, width);
      progress.finish();
    }
  });

  it('redraws on its timer while an item takes long, and not after finish', async () => {
    const tty = captureStream(true, 80);
    const progress = new Progress(tty, 2);
    progress.start('slow.yaml');
    assert.equal(tty.text, '');
    await sleep(600);
    assert.ok(tty.text.startsWith(`${CLEAR}0/2 slow.yaml`), JSON.stringify(tty.text));
    progress.finish();
    const after = tty.text;
    await sleep(600);
    assert.equal(tty.text, after);
  });

  it('shows nothing for a run of no items, even on a terminal', async () => {
    const tty = captureStream(true, 80);
    const progress = new Progress(tty, 0);
    await sleep(320);
    progress.start('x');
    progress.done();
    progress.finish();
    assert.equal(tty.text, '');
  });
});
