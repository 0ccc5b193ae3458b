// The start trace's own contract, in this process (test/daemon/start-trace.test.ts reads it off a
// real daemon's stderr): with SVC_TRACE_START=1 each step is one line written straight to file
// descriptor 2, `svc-trace <epoch ms, 0.1 ms> <thread> <step> (cpu <this thread's CPU ms>)`, the
// CPU part left out on a Node without `process.threadCpuUsage`; with any other value, nothing; a
// closed stderr never makes a step throw. The setting is read once, when the module loads, so each
// setting loads its own copy of the module (a query string makes a new module instance).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { after, describe, it } from 'node:test';

type TraceStep = (step: string) => void;

const original = fs.writeSync;
after(() => {
  fs.writeSync = original;
  syncBuiltinESMExports();
});

/** What `run` writes to file descriptor 2 (other descriptors pass through); `fail` makes those writes throw as on a closed stderr. */
function stderrOf(run: () => void, fail = false): string[] {
  const lines: string[] = [];
  fs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd !== 2) return (original as (...a: unknown[]) => number)(fd, data, ...rest);
    if (fail) throw Object.assign(new Error('EBADF: bad file descriptor, write'), { code: 'EBADF' });
    lines.push(String(data));
    return String(data).length;
  }) as typeof fs.writeSync;
  syncBuiltinESMExports();
  try {
    run();
  } finally {
    fs.writeSync = original;
    syncBuiltinESMExports();
  }
  return lines;
}

/** A fresh copy of the module, loaded with SVC_TRACE_START set to `value` (undefined: unset). */
async function traceWith(value: string | undefined, copy: string): Promise<TraceStep> {
  const before = process.env['SVC_TRACE_START'];
  if (value === undefined) delete process.env['SVC_TRACE_START'];
  else process.env['SVC_TRACE_START'] = value;
  try {
    const url = new URL(`../../src/daemon/start-trace.ts?${copy}`, import.meta.url).href;
    return ((await import(url)) as { traceStep: TraceStep }).traceStep;
  } finally {
    if (before === undefined) delete process.env['SVC_TRACE_START'];
    else process.env['SVC_TRACE_START'] = before;
  }
}

const cpuMs = (): number => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const LINE = /^svc-trace (\d+\.\d) main (.+?)(?: \(cpu (\d+)\))?\n$/;

describe('the start trace', () => {
  it('with SVC_TRACE_START=1 writes each step as one line to stderr: the time, the thread, the step and its CPU ms', async () => {
    const trace = await traceWith('1', 'on');
    // Some work of the system's first, so user and system CPU time both count.
    for (let i = 0; i < 200; i++) fs.statSync(import.meta.filename);
    for (const step of ['bin', 'worker taken (started ahead)', 'a step with  two spaces']) {
      const from = performance.timeOrigin + performance.now();
      const cpuFrom = cpuMs();
      const lines = stderrOf(() => trace(step));
      const cpuTo = cpuMs();
      const to = performance.timeOrigin + performance.now();
      assert.equal(lines.length, 1, `one line for ${step}`);
      const m = LINE.exec(lines[0]!);
      assert.ok(m, lines[0]);
      assert.equal(m[2], step);
      const at = Number(m[1]);
      // Printed to a tenth of a millisecond, rounded to the nearest: it may stand up to 0.05 ms either side.
      assert.ok(at >= Math.floor(from * 10) / 10 && at <= Math.ceil(to * 10) / 10, `${at} within [${from}, ${to}]`);
      assert.ok(m[3] !== undefined, 'this Node has threadCpuUsage: the CPU time is there');
      const cpu = Number(m[3]);
      assert.ok(cpu >= Math.floor(cpuFrom) && cpu <= Math.ceil(cpuTo), `${cpu} within [${cpuFrom}, ${cpuTo}]`);
    }
  });

  it('leaves the CPU part out on a Node without threadCpuUsage', async () => {
    const trace = await traceWith('1', 'old-node');
    const own = Object.getOwnPropertyDescriptor(process, 'threadCpuUsage');
    Object.defineProperty(process, 'threadCpuUsage', { value: undefined, configurable: true, writable: true });
    try {
      const lines = stderrOf(() => trace('imported'));
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /^svc-trace \d+\.\d main imported\n$/);
    } finally {
      if (own) Object.defineProperty(process, 'threadCpuUsage', own);
    }
  });

  it('a stderr that cannot be written to never makes a step throw', async () => {
    const trace = await traceWith('1', 'closed');
    assert.deepEqual(stderrOf(() => trace('bin'), true), []);
  });

  for (const value of [undefined, '', '0', 'true', '1 ', 'yes']) {
    it(`writes nothing with SVC_TRACE_START=${JSON.stringify(value ?? null)}`, async () => {
      const trace = await traceWith(value, `off-${encodeURIComponent(String(value))}`);
      assert.deepEqual(stderrOf(() => trace('bin')), []);
    });
  }
});
