// Daemon lifecycle over the real socket: privacy, several daemons per config, stale sockets,
// a second daemon on one explicit socket, abuse of the protocol, no daemon at all, signals.
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { StatusResult, UpdateResult } from '../../src/ipc/protocol.ts';
import { type Daemon, type Project, openapi, project, startDaemon, svc, svcJson, until } from './support.ts';

const skip = process.platform === 'win32' ? 'Unix sockets' : false;

function fixture() {
  const p = project();
  p.write('specs/pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }]));
  p.config(['specs/pets.yaml']);
  return p;
}

/** Raw lines to the socket; resolves with the reply lines. */
function raw(socket: string, payload: string | Buffer, replies: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const s = createConnection(socket);
    let buf = '';
    const out: Record<string, unknown>[] = [];
    s.on('connect', () => s.write(payload));
    s.on('error', reject);
    // A daemon that hangs up before answering fails the test instead of leaving it waiting forever.
    s.on('close', () => reject(new Error(`the socket closed after ${out.length} of ${replies} replies`)));
    s.on('data', (d) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        out.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
      }
      if (out.length >= replies) {
        s.destroy();
        resolve(out);
      }
    });
  });
}

// One daemon serves these checks (a start is most of each one's cost); they run in order and the
// last stops it with SIGTERM.
describe('one HTTP daemon', { skip }, () => {
  let p: Project;
  let d: Daemon;
  before(async () => {
    p = fixture();
    d = await startDaemon(p);
  });
  after(async () => {
    await d?.stop();
    p?.cleanup();
  });

  it('listens on a private socket and reports itself in status', async () => {
    assert.equal(statSync(d.socket).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(d.socket)).mode & 0o777, 0o700);
    assert.ok(d.socket.startsWith(p.runtime), 'under XDG_RUNTIME_DIR');
    assert.equal(Buffer.byteLength(d.socket) <= 107, true);
    const { run, json } = await svcJson<{ daemons: { status: StatusResult }[] }>(p, ['status']);
    assert.equal(run.code, 0);
    const s = json.daemons[0]!.status;
    assert.equal(s.pid, d.pid);
    assert.equal(s.socket, d.socket);
    assert.equal(s.config, p.configFile);
    assert.equal(s.transport, 'http');
    assert.match(s.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(s.totals.endpoints, 1);
    assert.equal(s.specs[0]!.format, 'openapi-3.0');
    assert.equal(typeof s.specs[0]!.indexedAt, 'number');
    assert.ok(s.memory.rss > 0 && s.memory.heapUsed > 0);
    assert.match(s.version, /^\d+\.\d+\.\d+/);
    const human = await svc(p, ['status']);
    assert.match(human.stdout, new RegExp(`daemon pid ${d.pid}`));
    assert.match(human.stdout, /pets \(openapi-3\.0 v1\.0; collection default\): 1 endpoint, 0 deprecated/);
  });

  it('status counts Streamable HTTP sessions and their tool calls', async () => {
    const status = async (): Promise<StatusResult> => (await svcJson<{ daemons: { status: StatusResult }[] }>(p, ['status'])).json.daemons[0]!.status;
    const first = await status();
    const url = first.url!;
    // svc status says where the token is (a file only the user can read) and how to send it, never the token.
    const file = /the token in (\S+)/.exec(first.auth ?? '')?.[1];
    assert.ok(file, `status names the token file: ${first.auth}`);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const token = readFileSync(file, 'utf8').trim();
    assert.match(first.auth!, /Authorization: Bearer <token>/);
    const client = new Client({ name: 'svc-status-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    await client.callTool({ name: 'search', arguments: { query: 'pets' } });
    await client.callTool({ name: 'inspect', arguments: { endpointId: 'pets:GET:/nope' } });
    const s = await status();
    assert.equal(s.sessions, 1);
    assert.equal(s.toolCalls.count, 2);
    assert.equal(s.toolCalls.errors, 1, 'an isError result counts as an error');
    assert.equal(s.toolCalls.byTool['search']?.count, 1);
    const human = await svc(p, ['status']);
    assert.match(human.stdout, /MCP sessions: 1/);
    assert.match(human.stdout, /auth +clients send "Authorization: Bearer <token>", the token in /);
    assert.ok(!human.stdout.includes(token) && !d.stderr().includes(token), 'the token itself is never printed');
    assert.match(human.stdout, /tool calls: 2 \(1 errors\), p50 [\d.]+ ms, p99 [\d.]+ ms/);
    await client.close();
  });

  it('garbage, oversized and unknown messages get error replies and the daemon keeps serving', async () => {
    const replies = await raw(
      d.socket,
      ['{{{ not json', JSON.stringify({ v: 1, id: 1, method: 'format-disk' }), JSON.stringify({ v: 7, id: 2, method: 'status' }), 'x'.repeat(2 * 1024 * 1024), JSON.stringify({ v: 1, id: 3, method: 'ping' })].join('\n') + '\n',
      5,
    );
    assert.deepEqual(
      replies.map((r) => (r['ok'] ? 'ok' : (r['error'] as { code: string }).code)),
      ['bad-json', 'unknown-method', 'unsupported-version', 'too-large', 'ok'],
    );
    assert.equal((replies[4]!['result'] as { pid: number }).pid, d.pid);
    const search = await raw(d.socket, JSON.stringify({ v: 1, id: 9, method: 'search', params: { query: 42 } }) + '\n', 1);
    assert.equal((search[0]!['error'] as { code: string }).code, 'bad-params');
    const st = await svc(p, ['status']);
    assert.equal(st.code, 0, 'still serving');
  });

  it('SIGTERM removes the socket with exit 0', async () => {
    assert.equal(await d.stop('SIGTERM'), 0);
    assert.equal(existsSync(d.socket), false, 'socket removed');
  });
});

test('SIGINT also shuts down cleanly', { skip }, async () => {
  const p = fixture();
  const d = await startDaemon(p);
  assert.equal(await d.stop('SIGINT'), 0);
  assert.equal(existsSync(d.socket), false);
  p.cleanup();
});

test('two daemons on one config: status and update reach both; a killed one leaves a stale socket that is cleaned up', { skip }, async () => {
  const p = fixture();
  // Both start at once; one that fails must not leave the other running (its pipes would hold this file open).
  const started = await Promise.allSettled([startDaemon(p), startDaemon(p)]);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    for (const s of started) if (s.status === 'fulfilled') await s.value.stop();
    p.cleanup();
    throw failed.reason;
  }
  const [a, b] = started.map((s) => (s as PromiseFulfilledResult<Daemon>).value) as [Daemon, Daemon];
  try {
    assert.equal(dirname(a.socket), dirname(b.socket), 'same per-config folder');
    assert.notEqual(a.socket, b.socket);
    const st = await svcJson<{ daemons: { pid: number }[] }>(p, ['status']);
    assert.deepEqual(st.json.daemons.map((x) => x.pid).sort(), [a.pid, b.pid].sort());

    p.write('specs/pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }, { method: 'DELETE', path: '/pets', summary: 'Remove pets' }]));
    const up = await svcJson<{ daemons: { pid: number; result: UpdateResult }[] }>(p, ['update']);
    assert.equal(up.run.code, 0);
    assert.equal(up.json.daemons.length, 2);
    for (const x of up.json.daemons) assert.deepEqual(x.result.specs[0]!.added.sample, ['pets:DELETE:/pets']);

    await b.stop('SIGKILL');
    assert.equal(existsSync(b.socket), true, 'SIGKILL leaves the socket file');
    const after = await svc(p, ['status']);
    assert.equal(after.code, 0);
    assert.match(after.stderr, /removed stale socket .*\.sock/);
    assert.equal(existsSync(b.socket), false);
    assert.deepEqual(readdirSync(dirname(a.socket)), [`${a.pid}.sock`]);
  } finally {
    await a.stop();
    await b.stop();
    p.cleanup();
  }
});

test('a second daemon on the same --socket stops with a clear message; the first keeps serving', { skip }, async () => {
  const p = fixture();
  const socket = join(p.runtime, 'one.sock');
  const first = await startDaemon(p, ['--transport', 'sse', '--port', '0', '--socket', socket]);
  try {
    const second = await svc(p, ['serve', '--transport', 'sse', '--port', '0', '--socket', socket]);
    assert.equal(second.code, 1);
    assert.match(second.stderr, new RegExp(`svc: a daemon \\(pid ${first.pid}\\) is already serving on ${socket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(second.stderr, /hint: .*svc status/);
    const st = await svc(p, ['status', '--socket', socket]);
    assert.equal(st.code, 0);
    const viaEnv = await svc(p, ['status'], { SVC_SOCKET: socket });
    assert.equal(viaEnv.code, 0, 'SVC_SOCKET finds it too');
  } finally {
    await first.stop();
    p.cleanup();
  }
});

test('with no daemon, update and status exit 2 and print the command that starts one', async () => {
  const p = fixture();
  try {
    for (const cmd of ['update', 'status', 'search']) {
      const run = await svc(p, cmd === 'search' ? [cmd, 'pets'] : [cmd]);
      assert.equal(run.code, 2, `${cmd}: ${run.stderr}`);
      assert.match(run.stderr, /no daemon is serving .*svc\.yaml/);
      assert.match(run.stderr, /start one with `svc serve --config /);
    }
  } finally {
    p.cleanup();
  }
});

test('a stdio daemon ends when its client hangs up, removing its socket', { skip }, async () => {
  const p = fixture();
  const d = await startDaemon(p, ['--transport', 'stdio']);
  try {
    d.child.stdin!.end();
    assert.equal(await d.exited, 0);
    await until(() => !existsSync(d.socket), 2000, 'socket removal');
  } finally {
    await d.stop();
    p.cleanup();
  }
});
