// SVC_TRACE_START=1 with `svc serve` started in this process: each step of the start and of a
// first tool call is traced, in order (start-trace.test.ts checks the same on a spawned daemon,
// where mutation testing cannot see the steps). The trace goes to file descriptor 2 with
// writeSync; the test reads those lines by wrapping fs.writeSync (node:module's
// syncBuiltinESMExports makes the ESM binding follow) and gives it back afterwards.
import assert from 'node:assert/strict';
import fs, { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openapi, until } from './support.ts';

test('an in-process start traces each step, then a tool call waiting for the catalogue and its answer', { skip: process.platform === 'win32' ? 'Unix sockets only' : false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-serve-trace-'));
  writeFileSync(join(dir, 'pets.yaml'), openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }]));
  writeFileSync(join(dir, 'svc.yaml'), 'specs:\n  - pets.yaml\n');
  const traced: string[] = [];
  const original = fs.writeSync;
  fs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd === 2 && typeof data === 'string' && data.startsWith('svc-trace ')) {
      traced.push(data);
      return data.length;
    }
    return (original as (...a: unknown[]) => number)(fd, data, ...rest);
  }) as typeof fs.writeSync;
  syncBuiltinESMExports();
  const before = process.env['SVC_TRACE_START'];
  // Read once, when start-trace.ts loads: set before serve.ts is imported.
  process.env['SVC_TRACE_START'] = '1';
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (d: string) => (out += d));
  try {
    const { startServe } = await import('../../src/daemon/serve.ts');
    const { loadConfig } = await import('../../src/config/index.ts');
    const daemon = await startServe({
      config: await loadConfig(join(dir, 'svc.yaml')),
      env: { XDG_RUNTIME_DIR: dir, XDG_STATE_HOME: join(dir, 'state'), HOME: dir },
      snapshots: join(dir, 'snapshots'),
      stdin,
      stdout,
      log: () => {},
    });
    try {
      const line = (m: unknown): boolean => stdin.write(`${JSON.stringify(m)}\n`);
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      line({ jsonrpc: '2.0', method: 'notifications/initialized' });
      line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'list pets' } } });
      await until(() => out.includes('"id":2'), 20_000, 'the tool call answered');
      await daemon.ready;
    } finally {
      await daemon.close();
    }
  } finally {
    fs.writeSync = original;
    syncBuiltinESMExports();
    if (before === undefined) delete process.env['SVC_TRACE_START'];
    else process.env['SVC_TRACE_START'] = before;
    rmSync(dir, { recursive: true, force: true });
  }
  const steps = traced.map((l) => /^svc-trace \S+ main (.+?)(?: \(cpu \d+\))?\n$/.exec(l)?.[1] ?? l);
  const at = (step: string): number => {
    const i = steps.indexOf(step);
    assert.ok(i >= 0, `${step} traced:\n${steps.join('\n')}`);
    return i;
  };
  assert.equal(at('startServe'), 0);
  assert.ok(at('startServe') < at('services started'));
  assert.ok(at('services started') < at('stdio serving'));
  assert.ok(at('specs loaded') < at('catalogue served'));
  assert.ok(at('tool call waits for the catalogue') < at('tool call answered: search'));
  assert.ok(at('catalogue served') < at('tool call answered: search'));
});
