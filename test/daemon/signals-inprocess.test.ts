// SIGTERM/SIGINT handling in this process, from its contract: a signal while the loop is free
// starts the graceful close once (a second signal does not start another); around heavy work the
// listeners are off (so the OS default ends the process at once) and come back after it, nested
// and concurrent heavy work counted; removing the handling takes the listeners off for good.
// Signals are delivered by calling the installed listener, as a real signal would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHUTDOWN_DEADLINE_MS, handleShutdownSignals, whileHeavy } from '../../src/daemon/signals.ts';

const ours = (listenersBefore: Map<string, Function[]>) => (signal: 'SIGTERM' | 'SIGINT'): Function[] =>
  process.listeners(signal).filter((l) => !listenersBefore.get(signal)!.includes(l));

test('signal handling: listeners on while idle, off during heavy work (nested too), one graceful close per process, removable', async () => {
  assert.equal(SHUTDOWN_DEADLINE_MS, 1000);
  const before = new Map<string, Function[]>([['SIGTERM', process.listeners('SIGTERM')], ['SIGINT', process.listeners('SIGINT')]]);
  const mine = ours(before);

  // Installed twice: the second replaces the first, never two listeners per signal.
  const removeFirst = handleShutdownSignals({ close: async () => assert.fail('the replaced handling must not run') });
  let closes = 0;
  let release!: () => void;
  const closing = new Promise<void>((r) => (release = r));
  const remove = handleShutdownSignals({ close: () => (closes++, closing), onForcedExit: () => assert.fail('no forced exit: the close finished in time'), deadlineMs: 60_000 });
  assert.equal(mine('SIGTERM').length, 1);
  assert.equal(mine('SIGINT').length, 1);
  removeFirst(); // Removing a replaced handling leaves the current one alone.
  assert.equal(mine('SIGTERM').length, 1);

  // Heavy work: off during, on after; nested and concurrent calls counted.
  let insideOuter = -1;
  let insideInner = -1;
  let releaseOther!: () => void;
  const other = whileHeavy(() => new Promise<string>((r) => (releaseOther = () => r('other'))));
  const result = await whileHeavy(async () => {
    insideOuter = mine('SIGTERM').length;
    await whileHeavy(() => {
      insideInner = mine('SIGINT').length;
    });
    assert.equal(mine('SIGTERM').length, 0, 'still off: the outer work is running');
    return 42;
  });
  assert.deepEqual([insideOuter, insideInner, result], [0, 0, 42]);
  assert.equal(mine('SIGTERM').length, 0, 'still off: the other heavy work is running');
  releaseOther();
  assert.equal(await other, 'other');
  assert.equal(mine('SIGTERM').length, 1, 'on again once all heavy work ended');
  assert.equal(mine('SIGINT').length, 1);
  // A failing heavy step puts the listeners back too.
  await assert.rejects(whileHeavy(() => Promise.reject(new Error('import failed'))), /import failed/);
  assert.equal(mine('SIGTERM').length, 1);

  // A signal starts the close once; a second one does not start another. The listeners are called
  // directly: emitting the signal would also reach listeners of the test runner's own.
  const [onTerm] = mine('SIGTERM');
  const [onInt] = mine('SIGINT');
  assert.equal(onTerm, onInt, 'one listener for both signals');
  (onTerm as (s: string) => void)('SIGTERM');
  (onInt as (s: string) => void)('SIGINT');
  assert.equal(closes, 1);
  release();
  await closing;

  remove();
  assert.equal(mine('SIGTERM').length, 0);
  assert.equal(mine('SIGINT').length, 0);
  await whileHeavy(() => undefined);
  assert.equal(mine('SIGTERM').length, 0, 'heavy work does not bring back removed handling');
});
