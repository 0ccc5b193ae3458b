// Which hidden binding names a starting daemon takes for leftovers of a dead one, at the edges of
// the rule: the whole name must be `.` and 8 hex digits (a longer name ending so is not one), and
// "older than the age" is strict, to the millisecond.
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HIDDEN_LEFTOVER_AGE_MS, hiddenLeftovers } from '../../src/ipc/socket-file.ts';
import { socketScratch } from './scratch.ts';
import { killedSocketHolder } from './stale-socket.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const { temp } = socketScratch('svc-hidden-');

test('only a whole hidden name is a binding name, and a socket exactly the age old is not yet a leftover', { skip }, async () => {
  const dir = temp();
  // Whole seconds: the file's mtime in ms is then exact, and so is its age at any `now`.
  const made = 1_700_000_000_000;
  for (const name of ['.0123abcd', 'x.0123abcd', 'svc.89abcdef']) {
    await killedSocketHolder(join(dir, name));
    utimesSync(join(dir, name), new Date(made), new Date(made));
  }
  assert.deepEqual(hiddenLeftovers(dir, made + HIDDEN_LEFTOVER_AGE_MS), []);
  assert.deepEqual(hiddenLeftovers(dir, made + HIDDEN_LEFTOVER_AGE_MS + 1), [join(dir, '.0123abcd')]);
  assert.deepEqual(hiddenLeftovers(dir, made + 10, 9), [join(dir, '.0123abcd')]);
});
