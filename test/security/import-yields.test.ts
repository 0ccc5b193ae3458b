// Availability while a large spec imports: the walk over its endpoints hands the thread back every
// few milliseconds, so timers, `svc status` and signals are served meanwhile. Before, the walk over
// tens of thousands of endpoints held the event loop for seconds at a stretch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importSpec } from '../../src/import/index.ts';

/** This thread's CPU time in ms (the whole process's on a Node without `threadCpuUsage`). */
function threadCpuMs(): number {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function generated(format: 'openapi' | 'swagger', endpoints: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < endpoints; i++) {
    const parameters = format === 'openapi'
      ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]
      : [{ name: 'id', in: 'path', required: true, type: 'string' }];
    paths[`/r${i % 97}/item${i}/{id}`] = { get: { summary: `Get item ${i}`, tags: [`t${i % 50}`], parameters, responses: { '200': { description: 'OK' } } } };
  }
  return JSON.stringify(format === 'openapi' ? { openapi: '3.0.3', info: { title: 'big', version: '1' }, paths } : { swagger: '2.0', info: { title: 'big', version: '1' }, paths });
}

for (const format of ['openapi', 'swagger'] as const) {
  test(`an import of 40,000 ${format} endpoints lets the event loop turn all along`, { timeout: 120_000 }, async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-yield-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'big.json');
    await writeFile(file, generated(format, 40_000));
    // Time is this thread's CPU time, not the clock's: on a loaded machine the process waits for a
    // core for hundreds of ms at a time, which is no stretch of holding the loop (the walk cannot
    // yield while it is not running). A walk that never yields still shows as seconds of CPU time.
    let last = threadCpuMs();
    let longest = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = threadCpuMs();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 10);
    const started = threadCpuMs();
    const outcome = await importSpec(file, { name: 'big', collection: 'c', maxSpecBytes: 100_000_000 });
    const total = threadCpuMs() - started;
    clearInterval(timer);
    longest = Math.max(longest, threadCpuMs() - last);
    assert.ok(outcome.ok);
    if (process.env['SVC_TEST_VERBOSE']) console.log(`${format}: longest ${Math.round(longest)} ms of ${Math.round(total)} ms of CPU time`);
    assert.equal(outcome.spec.endpoints.length, 40_000);
    // Reading and parsing the file is one step (about a third of the CPU time here: 120-130 ms of
    // 360-460 ms, at times half of it with a collection inside); the walk over the endpoints must not
    // be another. A walk that never yields is one stretch with the parsing, all of the import, so
    // the bound sits well above the parse's share and well below the whole.
    assert.ok(longest < total * 0.8, `the event loop was held for ${Math.round(longest)} ms of CPU time of a ${Math.round(total)} ms import (${ticks} timer ticks)`);
    // Outside the longest stretch the loop turns at least every 100 ms of CPU time (the walk yields
    // every 50 ms of the clock, which is at most 50 ms of CPU time);
    // a fast machine finishes in a few hundred ms, so the count is relative to the time.
    assert.ok(ticks >= Math.floor((total - longest) / 100), `only ${ticks} timer ticks in ${Math.round(total)} ms of CPU time`);
  });
}
