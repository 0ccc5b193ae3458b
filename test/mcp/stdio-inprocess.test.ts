// MCP over stdio in this process (real SDK server, real catalogue, streams standing in for the
// pipes): requests written and stdin closed at once all get their answers before the server goes; a line past the
// cap or bad JSON is logged and the rest goes on (or, for the cap, the session ends).
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { serveStdio } from '../../src/mcp/stdio.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';
import { jsonLines, sessionContext, workspace, type SessionContextValue, type Workspace } from './support.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 15_000;

const line = (m: unknown): string => `${JSON.stringify(m)}\n`;
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio-test', version: '1' } } };
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

interface Pipe {
  stdin: PassThrough;
  stdout: PassThrough;
  /** Every JSON line the server wrote so far. */
  out: Record<string, unknown>[];
  logs: string[];
  waitFor(pred: (m: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
}

function pipe(): Pipe {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const waiters: (() => void)[] = [];
  const out = jsonLines(stdout, () => {
    for (const w of waiters.splice(0)) w();
  });
  const p: Pipe = {
    stdin, stdout, out, logs: [],
    async waitFor(pred, ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = out.find(pred);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no such message in ${JSON.stringify(out)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
  };
  return p;
}

describe('MCP over stdio, in process', { timeout: HANG_MS }, () => {
  let ws: Workspace;
  let context: SessionContextValue;

  before(async () => {
    ws = await workspace();
    context = await sessionContext(ws.configFile);
  });
  after(() => ws.cleanup());

  it('answers every request written before stdin closed, then closes; CRLF and blank lines are fine', { timeout: HANG_MS }, async () => {
    const p = pipe();
    // A long drain limit: closing must come from the last answer going out, not from the limit.
    const handle = await serveStdio({ stdin: p.stdin, stdout: p.stdout, context: () => context, log: (l) => p.logs.push(l), drainMs: 60_000 });
    p.stdin.write(line(initialize).replace('\n', '\r\n'));
    p.stdin.write('\n   \n');
    p.stdin.write(line(initialized));
    p.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
    p.stdin.end(line({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'endpoint_by_spec', arguments: {} } }));
    await handle.closed;
    const ids = p.out.filter((m) => 'id' in m).map((m) => m['id']);
    assert.deepEqual(ids, [1, 2, 3]);
    const result = p.out.find((m) => m['id'] === 3)!['result'] as { content: { text: string }[] };
    assert.match(result.content[0]!.text, /zoo/);
    assert.deepEqual(p.logs, []);
  });

  it('when stdin ends with a request still running, waits up to drainMs for it, then closes anyway', { timeout: HANG_MS }, async () => {
    const p = pipe();
    const handle = await serveStdio({ stdin: p.stdin, stdout: p.stdout, context: () => new Promise<never>(() => {}), drainMs: 200 });
    p.stdin.write(line(initialize));
    await p.waitFor((m) => m['id'] === 1);
    p.stdin.write(line(initialized));
    const started = Date.now();
    p.stdin.end(line({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'endpoint_by_spec', arguments: {} } }));
    await handle.closed;
    const waited = Date.now() - started;
    assert.ok(waited >= 150, `waited ${waited} ms for the running call`);
    assert.ok(waited < 8000, `gave up after drainMs, not the default 10 s (${waited} ms)`);
  });

  it('bad JSON is logged and the next line is served', { timeout: HANG_MS }, async () => {
    const p = pipe();
    const handle = await serveStdio({ stdin: p.stdin, stdout: p.stdout, context: () => context, log: (l) => p.logs.push(l) });
    p.stdin.write('{not json\n');
    p.stdin.write(line(initialize));
    await p.waitFor((m) => m['id'] === 1);
    assert.equal(p.logs.length, 1);
    assert.match(p.logs[0]!, /^stdio: /);
    await handle.close();
    await handle.closed;
  });

  it('a line past 10 MB without a newline ends the session with a message saying so', { timeout: HANG_MS }, async () => {
    const p = pipe();
    const handle = await serveStdio({ stdin: p.stdin, stdout: p.stdout, context: () => context, log: (l) => p.logs.push(l) });
    p.stdin.write(line(initialize));
    await p.waitFor((m) => m['id'] === 1);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 10; i++) p.stdin.write(chunk);
    await new Promise((r) => setImmediate(r));
    assert.equal(p.logs.length, 0, 'exactly 10 MB is still within the cap');
    p.stdin.write(Buffer.from('  '));
    await handle.closed;
    assert.deepEqual(p.logs, [`stdio: stdin: a message longer than ${10 * 1024 * 1024} bytes; closing`]);
  });

  it('asks a client whose elicitation capability is a bare {} (form), and not one that can only open URLs', { timeout: HANG_MS }, async () => {
    const write: ToolDefinition = {
      name: 'write',
      description: 'asks first',
      inputShape: {},
      annotations: { title: 'Write', readOnlyHint: false, openWorldHint: true },
      handler: async (_input, ctx) => (ctx.confirm ? ((await ctx.confirm('Send it?')) ? { text: 'sent' } : { text: 'declined', isError: true }) : { text: 'cannot ask', isError: true }),
    };
    for (const [elicitation, expected] of [[{}, 'asked'], [{ url: {} }, 'cannot ask']] as const) {
      const p = pipe();
      const handle = await serveStdio({ stdin: p.stdin, stdout: p.stdout, context: () => context, tools: [write] });
      p.stdin.write(line({ ...initialize, params: { ...initialize.params, capabilities: { elicitation } } }));
      await p.waitFor((m) => m['id'] === 1);
      p.stdin.write(line(initialized));
      p.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write', arguments: {} } }));
      const answer = await p.waitFor((m) => m['method'] === 'elicitation/create' || m['id'] === 2);
      if (expected === 'asked') {
        assert.equal(answer['method'], 'elicitation/create', JSON.stringify(answer));
        assert.equal((answer['params'] as { message: string }).message, 'Send it?');
      } else {
        assert.equal(((answer['result'] as { content: { text: string }[] }).content[0]!.text), 'cannot ask');
      }
      await handle.close();
    }
  });

  it('close() ends the session and leaves stdin to other readers', { timeout: HANG_MS }, async () => {
    const p = pipe();
    const handle = await serveStdio({ stdin: p.stdin, stdout: p.stdout, context: () => context });
    p.stdin.write(line(initialize));
    await p.waitFor((m) => m['id'] === 1);
    await handle.close();
    await handle.closed;
    assert.equal(p.stdin.listenerCount('data'), 0);
    assert.equal(p.stdin.listenerCount('end'), 0);
    await handle.close(); // idempotent
  });
});
