// SVC_TRACE_START=1: a real `svc serve` writes each step of its start to stderr, in order, the
// import worker's steps included (with the thread's CPU time, where Node has it), so where the time
// to the first answer goes can be read off one run; without it, no trace line at all. A cold start
// serves the spec once its core is built; the snapshot is written after.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openapi, project, startDaemon, type Op } from './support.ts';

const OPS: Op[] = Array.from({ length: 5 }, (_, i) => ({ method: 'GET', path: `/gadgets/${i}`, summary: `Read gadget ${i}` }));

/** The steps of the trace lines in stderr, in time order: [thread, step]. */
function steps(stderr: string): [string, string][] {
  const lines = [...stderr.matchAll(/^svc-trace (\d+(?:\.\d+)?) (main|worker) (.+?)(?: \(cpu \d+\))?$/gm)];
  return lines.sort((a, b) => Number(a[1]) - Number(b[1])).map((m) => [m[2]!, m[3]!]);
}

test('a cold start traces its steps in order, the worker imports before the catalogue is served; a warm one starts no worker', async () => {
  const p = project();
  p.write('specs/gadgets.yaml', openapi('Gadgets', OPS));
  p.config(['specs/gadgets.yaml']);
  try {
    let d = await startDaemon(p, ['--transport', 'http', '--port', '0'], { SVC_TRACE_START: '1' });
    await d.stop();
    const cold = steps(d.stderr()).map(([thread, step]) => `${thread} ${step}`);
    const at = (s: string) => {
      const i = cold.indexOf(s);
      assert.ok(i >= 0, `${s} traced:\n${cold.join('\n')}`);
      return i;
    };
    assert.ok(at('main bin') < at('main config read'));
    // The first spec goes to the worker as soon as the config is read, before the rest of the
    // daemon's modules load (startServe is their first step).
    assert.ok(at('main config read') < at('main worker starting'));
    assert.ok(at('main worker starting') < at('main startServe'));
    assert.ok(at('main worker starting') < at('worker imported'));
    assert.ok(at('worker imported') < at('worker index built'));
    assert.ok(at('worker core encoded') < at('main reply received'));
    assert.ok(at('main reply received') < at('main catalogue served'));
    // The snapshot is written after the core went to the daemon, and applied after it is written.
    assert.ok(at('worker core encoded') < at('worker late encoded'));
    assert.ok(at('worker snapshot written') < at('main late part applied'));
    if (typeof process.threadCpuUsage === 'function') assert.match(d.stderr(), /^svc-trace \S+ worker imported \(cpu \d+\)$/m);

    d = await startDaemon(p, ['--transport', 'http', '--port', '0'], { SVC_TRACE_START: '1' });
    await d.stop();
    const warm = steps(d.stderr()).map(([thread, step]) => `${thread} ${step}`);
    assert.ok(warm.includes('main snapshot decoded'), warm.join('\n'));
    assert.ok(warm.includes('main catalogue served'), warm.join('\n'));
    assert.ok(!warm.some((s) => s.startsWith('worker') || s === 'main worker starting'), `no worker on a warm start:\n${warm.join('\n')}`);

    d = await startDaemon(p);
    await d.stop();
    assert.doesNotMatch(d.stderr(), /svc-trace/);
  } finally {
    p.cleanup();
  }
});
