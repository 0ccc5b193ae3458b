// The walk's Yielder: a turn resolves at once (within the same job, before any queued immediate)
// while less than 50 ms of work has passed, and lets the event loop turn once after that.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Yielder } from '../../src/import/common.ts';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Work that holds the thread, as a long walk does.
  }
}

test('a turn soon after the last one resolves at once; one after 50 ms of work lets queued callbacks run first', async () => {
  const made = performance.now();
  const y = new Yielder();
  for (let i = 0; i < 5; i++) {
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    const before = performance.now();
    await y.turn();
    // A loaded machine may pause this process for a while; only a turn well within 50 ms counts.
    if (before - made < 30) assert.equal(ran, false, 'a turn with little work done waited for the event loop');
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  busy(60);
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await y.turn();
  assert.equal(ran, true, 'a turn after 60 ms of work did not let the event loop run');
});
