// Tool-call counters for `svc status` from their contract: counts and errors are exact, p50 and p99
// are nearest-rank percentiles (rounded to 0.01 ms) over the last 4,096 calls of each series,
// tools are listed by name, and the session count never goes below zero.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Metrics } from '../../src/daemon/metrics.ts';

const WINDOW = 4096;

/** Nearest rank: the smallest sample with at least q of the samples at or below it. */
function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]! * 100) / 100;
}

const call = fc.record({ tool: fc.constantFrom('search', 'invoke', 'inspect'), ms: fc.double({ min: 0, max: 5000, noNaN: true }), ok: fc.boolean() });

describe('daemon metrics', () => {
  it('counts calls and errors per tool and overall, with nearest-rank p50 and p99', () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 60 }), (calls) => {
        const m = new Metrics();
        for (const c of calls) m.toolCall(c.tool, c.ms, c.ok);
        const summary = (cs: typeof calls) => ({
          count: cs.length,
          errors: cs.filter((c) => !c.ok).length,
          p50Ms: percentile(cs.map((c) => c.ms), 0.5),
          p99Ms: percentile(cs.map((c) => c.ms), 0.99),
        });
        const byTool: Record<string, unknown> = {};
        for (const tool of [...new Set(calls.map((c) => c.tool))].sort()) byTool[tool] = summary(calls.filter((c) => c.tool === tool));
        const got = m.toolCalls();
        assert.deepEqual(got, { ...summary(calls), byTool });
        assert.deepEqual(Object.keys(got.byTool), Object.keys(byTool), 'tools listed by name');
      }),
    );
  });

  it('keeps the percentiles of the last 4,096 calls only, while the counts stay complete', () => {
    const m = new Metrics();
    for (let i = 0; i < WINDOW; i++) m.toolCall('search', 1000, true);
    for (let i = 0; i < WINDOW; i++) m.toolCall('search', i % 2 === 0 ? 1 : 2, i % 4 !== 0);
    const s = m.toolCalls();
    assert.equal(s.count, 2 * WINDOW);
    assert.equal(s.errors, WINDOW / 4);
    assert.equal(s.p50Ms, 1);
    assert.equal(s.p99Ms, 2);
    const one = new Metrics();
    for (let i = 0; i <= WINDOW; i++) one.toolCall('x', i === 0 ? 9999 : 1, true);
    assert.equal(one.toolCalls().p99Ms, 1, 'the oldest sample left the window');
  });

  it('times a run as one call, an error result or a throw counting as an error', async () => {
    const m = new Metrics();
    assert.deepEqual(await m.time('a', async () => ({ isError: false, v: 1 })), { isError: false, v: 1 });
    await m.time('a', async () => ({ isError: true }));
    await assert.rejects(m.time('b', async () => { throw new Error('boom'); }), /boom/);
    await m.time('b', async () => {
      await new Promise((r) => setTimeout(r, 30));
      return {};
    });
    const s = m.toolCalls();
    assert.equal(s.count, 4);
    assert.equal(s.errors, 2);
    assert.deepEqual([s.byTool['a']!.errors, s.byTool['b']!.errors], [1, 1]);
    assert.ok(s.byTool['b']!.p99Ms >= 25 && s.byTool['b']!.p99Ms < 60_000, `the slow call was timed (${s.byTool['b']!.p99Ms} ms)`);
  });

  it('counts sessions opened and closed, never below zero', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 40 }), (events) => {
        const m = new Metrics();
        let model = 0;
        for (const open of events) {
          if (open) m.sessionOpened();
          else m.sessionClosed();
          model = open ? model + 1 : Math.max(0, model - 1);
          assert.equal(m.sessions, model);
        }
      }),
    );
  });

  it('reports the event-loop delay in ms, the worst at least the p99, and sees a held loop', async () => {
    const m = new Metrics();
    await new Promise((r) => setTimeout(r, 30));
    const until = performance.now() + 120;
    while (performance.now() < until) {
      // Hold the thread.
    }
    await new Promise((r) => setTimeout(r, 30));
    const loop = m.eventLoop();
    assert.ok(loop.maxMs >= loop.p99Ms);
    assert.ok(loop.maxMs >= 100 && loop.maxMs < 60_000, `max ${loop.maxMs} ms after holding the loop 120 ms`);
    assert.equal(loop.maxMs, Math.round(loop.maxMs * 10) / 10, 'one decimal');
  });
  it('while an update runs, and only then, the loop held is seen in wall time and in this thread\'s CPU time', async () => {
    const m = new Metrics();
    const hold = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // Hold the thread.
      }
    };
    const tick = () => new Promise((r) => setTimeout(r, 20));
    hold(150);
    await tick();
    assert.equal(m.eventLoop().updates, undefined, 'no update ran yet');
    m.updateStarted();
    await tick();
    hold(80);
    await tick();
    m.updateEnded();
    hold(300);
    await tick();
    const u = m.eventLoop().updates;
    assert.ok(u, 'an update ran');
    assert.ok(u.maxMs >= 70 && u.maxMs < 300, `wall max ${u.maxMs} ms: the 80 ms held during the update, not the 300 after`);
    // CPU time can only be less than the wall time held (a busy machine takes the core away).
    assert.ok(u.maxCpuMs > 0 && u.maxCpuMs <= u.maxMs + 10 && u.maxCpuMs < 300, `CPU max ${u.maxCpuMs} ms`);
    // Two runs at once: the watch ends with the last.
    m.updateStarted();
    m.updateStarted();
    m.updateEnded();
    await tick();
    hold(120);
    await tick();
    m.updateEnded();
    assert.ok(m.eventLoop().updates!.maxMs >= 110, 'still watching while one run is left');
  });
});
