// A signal whose graceful close does not finish in time: at the deadline the last words run
// (removing the socket file), then the process exits with the exit code already set. One signal per
// process is handled (the second is ignored), so this has its own file; process.exit is taken
// over for the test (the real one would end the test run) and the listener is called directly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { handleShutdownSignals } from '../../src/daemon/signals.ts';

test('a close that hangs past the deadline: the last words run, then the process exits with its exit code', async () => {
  const before = process.listeners('SIGTERM');
  const exit = process.exit;
  const calls: string[] = [];
  let exitedAt = 0;
  process.exit = ((code?: number) => void (calls.push(`exit ${code}`), (exitedAt = Date.now()))) as typeof process.exit;
  process.exitCode = 3;
  try {
    const remove = handleShutdownSignals({ close: () => new Promise<void>(() => {}), onForcedExit: () => calls.push('last words'), deadlineMs: 50 });
    const [listener] = process.listeners('SIGTERM').filter((l) => !before.includes(l));
    const signalledAt = Date.now();
    (listener as (s: string) => void)('SIGTERM');
    await sleep(20);
    assert.deepEqual(calls, [], 'not before the deadline');
    const end = Date.now() + 10_000;
    while (calls.length < 2 && Date.now() < end) await sleep(10);
    assert.deepEqual(calls, ['last words', 'exit 3']);
    // The deadline given (50 ms), not the default (SHUTDOWN_DEADLINE_MS, 1000 ms).
    assert.ok(exitedAt - signalledAt < 900, `exited ${exitedAt - signalledAt} ms after the signal`);
    remove();
  } finally {
    process.exit = exit;
    process.exitCode = undefined;
  }
});
