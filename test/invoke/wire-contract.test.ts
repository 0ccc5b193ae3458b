// The wire helpers from their contracts: how long to wait before a retry (Retry-After in seconds
// or as a date, else a capped backoff), a wait that a cancellation ends at once, what a failed
// exchange says, and the settings of a spec svc.yaml does not list.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseConfig } from '../../src/config/index.ts';
import { InvokeError } from '../../src/invoke/errors.ts';
import { specSettings } from '../../src/invoke/settings.ts';
import { failure, retryDelay, sleep } from '../../src/invoke/wire.ts';
import { FIXTURES } from './helpers.ts';

describe('retry delay', () => {
  test('Retry-After in seconds is waited exactly, fractions and zero included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 10 }), (seconds, attempt) => {
        assert.equal(retryDelay(String(seconds), attempt), seconds * 1000);
      }),
    );
    assert.equal(retryDelay('1.5', 0), 1500);
    assert.equal(retryDelay('0', 3), 0);
  });

  test('Retry-After as an HTTP date waits until then, and a past date not at all', () => {
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    const wait = retryDelay(inTen, 0);
    assert.ok(wait > 5_000 && wait <= 10_000, `${wait}`);
    assert.equal(retryDelay(new Date(Date.now() - 60_000).toUTCString(), 0), 0);
  });

  test('no usable Retry-After: 250 ms doubled per attempt, never more than 2 s', () => {
    fc.assert(
      fc.property(fc.option(fc.constantFrom('soon', '', 'later today', 'NaN', 'Infinity'), { nil: null }), fc.integer({ min: 0, max: 20 }), (header, attempt) => {
        // '' is Number('') = 0: zero seconds, a valid answer.
        if (header === '') return;
        assert.equal(retryDelay(header, attempt), Math.min(250 * 2 ** attempt, 2000));
      }),
    );
    assert.deepEqual([0, 1, 2, 3, 4].map((a) => retryDelay(null, a)), [250, 500, 1000, 2000, 2000]);
  });
});

describe('sleep before a retry', () => {
  test('waits about the time asked, and nothing for zero or less', async () => {
    // Zero or less resolves at once: before a timer set to fire as soon as possible.
    const order: string[] = [];
    const timer = new Promise<void>((resolve) => setTimeout(() => (order.push('timer'), resolve()), 0));
    await sleep(0, undefined);
    await sleep(-5, AbortSignal.abort());
    order.push('slept');
    await timer;
    assert.deepEqual(order, ['slept', 'timer']);
    const t1 = performance.now();
    await sleep(40, new AbortController().signal);
    assert.ok(performance.now() - t1 >= 35);
  });

  test('a cancellation ends the wait at once with a clear error', async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const waiting = sleep(60_000, ac.signal);
    setTimeout(() => ac.abort(), 10);
    await assert.rejects(waiting, (err: unknown) => err instanceof InvokeError && err.code === 'invoke-aborted' && err.message === 'Cancelled while waiting to retry.');
    assert.ok(performance.now() - t0 < 5_000);
  });
});

describe('what a failed exchange says', () => {
  const settings = { spec: { timeoutMs: 2500 }, key: 'specs[3]' } as Parameters<typeof failure>[5];
  const url = new URL('https://api.example.com/v1/items/tok-secret-1234?x=1');
  const secrets = ['tok-secret-1234'];

  test('a timeout names the limit, the method and the URL without its query, secrets redacted', () => {
    const err = failure(new Error('aborted'), 'GET', url, AbortSignal.abort(), undefined, settings, secrets);
    assert.equal(err.code, 'invoke-timeout');
    assert.equal(err.message, 'Timed out after 2500 ms waiting for GET https://api.example.com/v1/items/[redacted].');
    assert.equal(err.hint, 'the API did not answer in time; retry later, or raise specs[3].timeoutMs in svc.yaml');
    const whole = failure(new Error('aborted'), 'GET', url, AbortSignal.abort(), undefined, { ...settings, spec: { timeoutMs: 30_000 } } as typeof settings, secrets);
    assert.match(whole.message, /^Timed out after 30 s waiting/);
  });

  test('a cancellation by the caller, a network error with its innermost code, and an InvokeError as it is', () => {
    const live = new AbortController().signal;
    const cancelled = failure(new Error('x'), 'POST', url, live, AbortSignal.abort(), settings, secrets);
    assert.equal(cancelled.code, 'invoke-aborted');
    assert.equal(cancelled.message, 'Cancelled: POST https://api.example.com/v1/items/[redacted].');
    const socket = Object.assign(new Error('connect refused tok-secret-1234'), { code: 'ECONNREFUSED' });
    const net = failure(new TypeError('fetch failed', { cause: socket }), 'GET', url, live, new AbortController().signal, settings, secrets);
    assert.equal(net.code, 'invoke-network');
    assert.equal(net.message, 'Network error on GET https://api.example.com/v1/items/[redacted]: ECONNREFUSED connect refused [redacted]');
    const named = Object.assign(new Error('getaddrinfo ENOTFOUND api.example.com'), { code: 'ENOTFOUND' });
    assert.match(failure(named, 'GET', url, live, undefined, settings, secrets).message, /: getaddrinfo ENOTFOUND api\.example\.com$/);
    assert.match(failure('plain', 'GET', url, live, undefined, settings, secrets).message, /: plain$/);
    const own = new InvokeError('invoke-auth', 'as is');
    assert.equal(failure(own, 'GET', url, AbortSignal.abort(), undefined, settings, secrets), own);
  });
});

describe('settings of a spec', () => {
  test('a listed spec names its entry and line; an unlisted one gets safe defaults and says to list it', async () => {
    const file = path.join(FIXTURES, 'svc.yaml');
    const config = await parseConfig('specs:\n  - path: petstore.yaml\n    name: alpha\n  - path: petstore.yaml\n    name: beta\n', file);
    const beta = specSettings(config, 'beta');
    assert.equal(beta.key, 'specs[1]');
    assert.equal(beta.where, ` (${file} line 4)`);
    assert.equal(beta.unlisted, false);
    assert.equal(beta.spec, config.specs[1]);
    const other = specSettings(config, 'gamma');
    assert.equal(other.unlisted, true);
    assert.equal(other.key, 'specs[] (an entry with name: gamma)');
    assert.equal(other.where, ` (${file})`);
    assert.equal(other.spec.name, 'gamma');
    assert.equal(other.spec.collection, 'default');
    assert.deepEqual(other.spec.auth, []);
  });
});
