// A forced exit without last words to say (onForcedExit is optional): the process still exits, with
// 0 when no exit code was set. Own file: one signal per process is handled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { handleShutdownSignals } from '../../src/daemon/signals.ts';

test('a close that hangs without last words given still exits at the deadline, with 0', async () => {
  const before = process.listeners('SIGTERM');
  const exit = process.exit;
  const codes: (number | undefined)[] = [];
  process.exit = ((code?: number) => void codes.push(code)) as typeof process.exit;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => void uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    const remove = handleShutdownSignals({ close: () => new Promise<void>(() => {}), deadlineMs: 30 });
    const [listener] = process.listeners('SIGTERM').filter((l) => !before.includes(l));
    (listener as (s: string) => void)('SIGTERM');
    const end = Date.now() + 10_000;
    while (codes.length === 0 && Date.now() < end) await sleep(10);
    await sleep(20);
    assert.deepEqual(codes, [0]);
    assert.deepEqual(uncaught, []);
    remove();
  } finally {
    process.exit = exit;
    process.off('uncaughtException', onUncaught);
  }
});
