// A signal whose graceful close finishes before the deadline: the deadline is called off, so the
// process is not made to exit later (the close's own end decides). Own file: one signal per
// process is handled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { handleShutdownSignals } from '../../src/daemon/signals.ts';

test('a close that ends in time calls the deadline off; removing the handling twice is harmless', async () => {
  const before = process.listeners('SIGINT');
  const exit = process.exit;
  const calls: string[] = [];
  process.exit = ((code?: number) => void calls.push(`exit ${code}`)) as typeof process.exit;
  try {
    let closed = false;
    const remove = handleShutdownSignals({
      close: async () => {
        await sleep(10);
        closed = true;
      },
      onForcedExit: () => calls.push('last words'),
      deadlineMs: 100,
    });
    const [listener] = process.listeners('SIGINT').filter((l) => !before.includes(l));
    (listener as (s: string) => void)('SIGINT');
    await sleep(400);
    assert.equal(closed, true);
    assert.deepEqual(calls, [], 'no forced exit after a close that finished in time');
    remove();
    remove();
    assert.equal(process.listeners('SIGINT').filter((l) => !before.includes(l)).length, 0);
  } finally {
    process.exit = exit;
  }
});
