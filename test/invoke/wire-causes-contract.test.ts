// The wire's small contracts, at their edges:
// - a network error keeps what went wrong as its cause, and says the innermost reason it finds
//   within 5 levels of causes (a code is put before a message that lacks it; no code, no prefix);
// - Retry-After is a non-negative number of seconds or a date: a negative number is neither, and
//   the backoff applies;
// - waiting to retry leaves no listener on the caller's signal, whether the wait ends or is cancelled.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { failure, retryDelay, sleep } from '../../src/invoke/wire.ts';

const settings = { spec: { timeoutMs: 2500 }, key: 'specs[0]' } as Parameters<typeof failure>[5];
const url = new URL('https://api.example.com/v1/items');

/** An error wrapped `depth` times: level 0 is the outermost, each level's message is `level <n>`. */
function chain(depth: number, codeAt?: number): Error {
  let e: Error | undefined;
  for (let level = depth - 1; level >= 0; level--) {
    const next: Error = new Error(`level ${level}`, e ? { cause: e } : undefined);
    if (level === codeAt) Object.assign(next, { code: 'ECONNRESET' });
    e = next;
  }
  return e!;
}

describe('a network error', () => {
  test('keeps what went wrong as its cause', () => {
    const cause = chain(2);
    const err = failure(cause, 'GET', url, new AbortController().signal, undefined, settings, []);
    assert.equal(err.code, 'invoke-network');
    assert.equal(err.cause, cause);
  });

  test('says the innermost reason within 5 levels of causes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), (depth) => {
        const err = failure(chain(depth), 'GET', url, new AbortController().signal, undefined, settings, []);
        assert.equal(err.message, `Network error on GET https://api.example.com/v1/items: level ${Math.min(depth, 5) - 1}`);
      }),
    );
  });

  test('puts a code before the message of the level that has it, and nothing where there is none', () => {
    const withCode = failure(chain(3, 2), 'GET', url, new AbortController().signal, undefined, settings, []);
    assert.match(withCode.message, /: ECONNRESET level 2$/);
    const codeAbove = failure(chain(3, 1), 'GET', url, new AbortController().signal, undefined, settings, []);
    assert.match(codeAbove.message, /: level 2$/);
    const numeric = Object.assign(new Error('odd'), { code: 7 });
    assert.match(failure(numeric, 'GET', url, new AbortController().signal, undefined, settings, []).message, /: odd$/);
  });
});

describe('Retry-After', () => {
  test('a negative number of seconds is no delay: the backoff applies', () => {
    for (const header of ['-1e3', '-99999999']) {
      for (const attempt of [0, 1, 2, 5]) assert.equal(retryDelay(header, attempt), Math.min(250 * 2 ** attempt, 2000), `${header} ${attempt}`);
    }
  });
});

describe('waiting to retry', () => {
  test('leaves no listener on the signal once the wait is over', async () => {
    const ac = new AbortController();
    await sleep(5, ac.signal);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
  });

  test('leaves no listener on the signal once it is cancelled', async () => {
    const ac = new AbortController();
    const waiting = sleep(60_000, ac.signal);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 1);
    ac.abort();
    await assert.rejects(waiting);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
  });
});
