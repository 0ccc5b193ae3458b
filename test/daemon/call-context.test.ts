// The context the daemon gives each tool call (src/daemon/call-context.ts), from its contract:
// - every call waits for the first import;
// - a call whose tool follows schema links (inspect, invoke) also waits until the loader has
//   settled (the documents of specs served fresh from the import worker are made), and only such
//   a call: the others answer as soon as the catalogue is there;
// - a loader that failed, or a late part that failed, never blocks or fails the call;
// - the call gets the session context current when it may run (an svc.yaml change swaps it).
// The start-up window is held open here with promises the test controls, which a real start
// cannot do deterministically (the late part comes from the worker thread when it is done).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { callContext } from '../../src/daemon/call-context.ts';
import type { SessionContext } from '../../src/mcp/server.ts';

interface Gate {
  readonly promise: Promise<void>;
  open(): void;
  fail(error: Error): void;
}

function gate(): Gate {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

/** A session context stand-in told apart by identity (the helper only hands it over). */
const sessionNamed = (name: string): SessionContext => ({ name }) as unknown as SessionContext;

/** Lets every promise that can settle now settle (a few turns of the event loop). */
async function drain(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Tracks whether a promise has settled, and with what. */
function watch<T>(p: Promise<T>): { readonly done: boolean; readonly value: T | undefined; readonly error: unknown } {
  const state = { done: false, value: undefined as T | undefined, error: undefined as unknown };
  p.then(
    (v) => ((state.done = true), (state.value = v)),
    (e: unknown) => ((state.done = true), (state.error = e)),
  );
  return state;
}

/** Sources whose first import and loader settling the test opens by hand. */
function sources(session: () => SessionContext = () => sessionNamed('s')) {
  const ready = gate();
  const settled = gate();
  let settledAsked = 0;
  const loader = {
    settled: () => {
      settledAsked++;
      return settled.promise;
    },
  };
  return { ready, settled, asked: () => settledAsked, context: callContext({ ready: ready.promise, loading: Promise.resolve(loader), session }) };
}

describe('the context of a tool call at start', () => {
  it('holds a call that follows schema links until the fresh specs have their documents, and answers it then', async () => {
    const s = sources();
    s.ready.open();
    const call = watch(s.context({ readsDetail: true }));
    await drain();
    assert.equal(call.done, false, 'inspect/invoke must not run while the documents are still being made');
    s.settled.open();
    await drain();
    assert.equal(call.done, true);
    assert.deepEqual(call.value, sessionNamed('s'));
  });

  it('answers a call that does not follow schema links as soon as the catalogue is there, without asking the loader', async () => {
    const s = sources();
    s.ready.open();
    const call = watch(s.context({ readsDetail: false }));
    await drain();
    assert.equal(call.done, true, 'search and the listings must not wait for the documents');
    assert.equal(call.error, undefined);
    assert.equal(s.asked(), 0);
  });

  it('holds every call, with or without schema links, until the first import is done', async () => {
    const s = sources();
    s.settled.open();
    const plain = watch(s.context({ readsDetail: false }));
    const detail = watch(s.context({ readsDetail: true }));
    await drain();
    assert.equal(plain.done, false);
    assert.equal(detail.done, false);
    s.ready.open();
    await drain();
    assert.equal(plain.done, true);
    assert.equal(detail.done, true);
  });

  it('lets a call that follows schema links go on when the late part failed (the source files are read instead)', async () => {
    const s = sources();
    s.ready.open();
    const call = watch(s.context({ readsDetail: true }));
    s.settled.fail(new Error('snapshot not saved'));
    await drain();
    assert.equal(call.done, true);
    assert.equal(call.error, undefined);
    assert.deepEqual(call.value, sessionNamed('s'));
  });

  it('lets a call that follows schema links go on when the loader could not be made', async () => {
    const context = callContext({ ready: Promise.resolve(), loading: Promise.reject(new Error('no loader')), session: () => sessionNamed('s') });
    const call = watch(context({ readsDetail: true }));
    await drain();
    assert.equal(call.done, true);
    assert.equal(call.error, undefined);
  });

  it('gives a call the session context current when its waits end, not the one when it came', async () => {
    let now = sessionNamed('before');
    const s = sources(() => now);
    const call = watch(s.context({ readsDetail: true }));
    s.ready.open();
    await drain();
    now = sessionNamed('after');
    s.settled.open();
    await drain();
    assert.deepEqual(call.value, sessionNamed('after'));
  });

  it('over any sequence of calls: exactly those that follow schema links wait for the documents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), fc.boolean(), async (kinds, readyFirst) => {
        const s = sources();
        if (readyFirst) s.ready.open();
        const calls = kinds.map((readsDetail) => watch(s.context({ readsDetail })));
        await drain();
        if (!readyFirst) {
          assert.ok(calls.every((c) => !c.done), 'nothing answers before the first import');
          s.ready.open();
          await drain();
        }
        assert.deepEqual(calls.map((c) => c.done), kinds.map((k) => !k));
        s.settled.open();
        await drain();
        assert.ok(calls.every((c) => c.done && c.error === undefined));
      }),
      { numRuns: 50 },
    );
  });
});
