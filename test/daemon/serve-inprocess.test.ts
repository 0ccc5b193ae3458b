// `svc serve` started in this process (startServe), so the start-up, loading, control socket and
// shutdown code runs where mutation testing can see it: a real svc.yaml and spec files in a temp
// folder, snapshots in a temp cache, the real import worker, MCP over stdio streams and over HTTP
// on 127.0.0.1, and `svc status`/`svc update` through the real IPC socket.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { startServe, type Daemon } from '../../src/daemon/serve.ts';
import { request } from '../../src/ipc/client.ts';
import { openapi } from './support.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 60_000;

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(serve = ''): { dir: string; configFile: string; env: NodeJS.ProcessEnv; snapshots: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-serve-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'pets.yaml'), openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }, { method: 'POST', path: '/pets', summary: 'Add a pet', deprecated: true }]));
  writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.0.3\ninfo: [\n');
  writeFileSync(join(dir, 'svc.yaml'), `${serve}specs:\n  - pets.yaml\n  - broken.yaml\n`);
  return { dir, configFile: join(dir, 'svc.yaml'), env: { XDG_RUNTIME_DIR: dir, XDG_STATE_HOME: join(dir, 'state'), HOME: dir }, snapshots: join(dir, 'snapshots') };
}

const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

type Project = ReturnType<typeof project>;

/** A daemon of `p` on streams nobody reads, logging nothing. */
async function quietStart(p: Project): Promise<Daemon> {
  return startServe({ config: await loadConfig(p.configFile), env: p.env, stdin: new PassThrough(), stdout: new PassThrough(), snapshots: p.snapshots, log: () => {} });
}

/**
 * A first start of `p` (its snapshots written), then the digests' memo removed: the next start
 * hashes every file to check its snapshot, so it has a memo to write.
 */
async function startedOnceWithoutMemo(p: Project): Promise<void> {
  const first = await quietStart(p);
  await first.ready;
  await first.close();
  rmSync(join(p.snapshots, 'digests.json'), { force: true });
}

/** Every file and folder under `dir`, sorted. */
const filesIn = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

/** Half a second later, `dir` still holds just `at`: nothing was written after close(). */
async function stillAfterClose(dir: string, at: readonly string[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.deepEqual(filesIn(dir), at);
}

describe('svc serve in process', { skip, timeout: HANG_MS }, () => {
  it('stdio: serves MCP, loads the specs, answers status and update on the socket, and closes when stdin ends', { timeout: HANG_MS }, async () => {
    const p = project();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.setEncoding('utf8');
    stdout.on('data', (d: string) => (out += d));
    const logs: string[] = [];
    const daemon: Daemon = await startServe({ config: await loadConfig(p.configFile), env: p.env, stdin, stdout, snapshots: p.snapshots, log: (l) => logs.push(l) });
    try {
      assert.ok(daemon.services);
      const socket = daemon.services.socketPath;
      assert.ok(existsSync(socket));
      assert.ok(logs.includes('serving MCP on stdio'));
      assert.ok(logs.includes(`control socket ${socket} (svc update, svc status)`));
      stdin.write(line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
      stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
      await daemon.ready;
      assert.deepEqual(daemon.outcomes().map((o) => o.ok), [true, false]);
      assert.equal(daemon.catalog.spec('pets')?.endpoints.length, 2);
      assert.ok(logs.includes('broken: not loaded'));
      assert.ok(logs.some((l) => /^loaded 1 spec\(s\), 2 endpoints in \d+ ms; 1 failed, serving the rest$/.test(l)), logs.join('\n'));
      assert.ok(readdirSync(p.snapshots).some((f) => f.endsWith('.snap')), 'the import wrote a snapshot');

      const ping = await request(socket, 'ping');
      assert.equal(ping.pid, process.pid);
      assert.equal(ping.config, p.configFile);
      const status = await request(socket, 'status');
      assert.equal(status.transport, 'stdio');
      assert.deepEqual(status.specs.map((s) => [s.name, s.state, s.endpoints, s.deprecated]), [['pets', 'ok', 2, 1], ['broken', 'failed', 0, 0]]);
      assert.equal(status.loading, false);
      assert.equal(status.sessions, 1);

      writeFileSync(join(p.dir, 'pets.yaml'), openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }, { method: 'GET', path: '/pets/{id}' }]));
      const progress: unknown[] = [];
      const update = await request(socket, 'update', {}, { onProgress: (x) => progress.push(x) });
      const pets = update.specs.find((s) => s.name === 'pets')!;
      assert.equal(pets.state, 'changed');
      assert.equal(pets.added.count, 1);
      assert.equal(pets.removed.count, 1);
      assert.equal(daemon.catalog.spec('pets')?.endpoints.length, 2);
      assert.ok(progress.length > 0, 'progress lines before the reply');
      assert.ok(logs.some((l) => l.startsWith('update: pets changed +1 -1')), logs.join('\n'));

      const search = await request(socket, 'search', { query: 'list pets' });
      assert.match(search.text, /pets:GET:\/pets/);
      const inspect = await request(socket, 'inspect', { endpointId: 'pets:GET:/pets' });
      assert.match(inspect.text, /List pets/);

      stdin.write(line({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'endpoint_by_spec', arguments: { spec: 'pets' } } }));
      stdin.end();
      await daemon.closed;
      assert.match(out, /"id":3/);
      assert.equal(existsSync(socket), false, 'the socket file is removed on close');
    } finally {
      await daemon.close();
    }
  });

  it('http: binds the configured port, reports its URL and auth, is ready once loaded, and closes on request', { timeout: HANG_MS }, async () => {
    const p = project('serve:\n  transport: http\n  port: 0\n');
    const logs: string[] = [];
    const daemon = await startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, log: (l) => logs.push(l) });
    try {
      assert.match(daemon.url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
      await daemon.ready;
      assert.equal((await fetch(`${daemon.url}/readyz`)).status, 200);
      const status = await request(daemon.services!.socketPath, 'status');
      assert.equal(status.transport, 'http');
      assert.equal(status.url, `${daemon.url}/mcp`);
      assert.match(status.auth ?? '', /^clients send "Authorization: Bearer <token>", the token in /);
      assert.ok(logs.some((l) => l.startsWith(`serving MCP on ${daemon.url}/mcp (Streamable HTTP`)), logs.join('\n'));
      assert.equal(logs.some((l) => l.startsWith('warning: serve.auth is none')), false);
      assert.equal((await fetch(`${daemon.url}/mcp`, { method: 'POST', body: '{}' })).status, 401, 'a token is required by default');
    } finally {
      await daemon.close();
    }
    await daemon.closed;
    await assert.rejects(fetch(`${daemon.url}/healthz`));
  });

  it('http without auth warns that anyone on the machine can call the APIs', { timeout: HANG_MS }, async () => {
    const p = project('serve:\n  transport: http\n  port: 0\n  auth: none\n');
    const logs: string[] = [];
    const daemon = await startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, services: false, log: (l) => logs.push(l) });
    try {
      assert.equal(daemon.services, undefined);
      assert.ok(logs.includes('warning: serve.auth is none: any program or user on this machine that can reach the port can call your APIs with your credentials'));
    } finally {
      await daemon.close();
    }
  });

  it('a second daemon for the same config and socket stops with a clear message, and the first keeps serving', { timeout: HANG_MS }, async () => {
    const p = project('serve:\n  transport: http\n  port: 0\n  auth: none\n');
    const config = await loadConfig(p.configFile);
    const socket = join(p.dir, 'one.sock');
    const first = await startServe({ config, env: p.env, snapshots: false, socket, log: () => {} });
    try {
      await assert.rejects(startServe({ config, env: p.env, snapshots: false, socket, log: () => {} }), (e: { code?: string }) => e.code === 'daemon-running');
      assert.equal((await request(socket, 'ping')).pid, process.pid);
    } finally {
      await first.close();
    }
  });

  it('an unset token variable stops the start before anything is claimed', { timeout: HANG_MS }, async () => {
    const p = project('serve:\n  transport: http\n  port: 0\n  tokenEnv: NO_SUCH_TOKEN_VAR\n');
    await assert.rejects(startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, log: () => {} }), (e: { code?: string }) => e.code === 'token-missing');
    assert.equal(existsSync(join(p.dir, 'svc')), false, 'no runtime folder was made');
  });

  it('a second start loads the specs from their snapshots', { timeout: HANG_MS }, async () => {
    const p = project('serve:\n  transport: http\n  port: 0\n  auth: none\n');
    const config = await loadConfig(p.configFile);
    for (const round of [1, 2]) {
      const daemon = await startServe({ config, env: p.env, snapshots: p.snapshots, log: () => {} });
      try {
        await daemon.ready;
        let status = await request(daemon.services!.socketPath, 'status');
        // Served before its snapshot is written: the note says so until it is. Status shows the
        // notes once the start's late parts are in (another spec's import may end before them).
        const waiting = (): boolean => {
          const note = status.specs.find((s) => s.name === 'pets')?.snapshot;
          return note === undefined || note.endsWith('; saving snapshot');
        };
        for (let i = 0; i < 100 && waiting(); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          status = await request(daemon.services!.socketPath, 'status');
        }
        const pets = status.specs.find((s) => s.name === 'pets')!;
        if (round === 1) assert.match(pets.snapshot ?? '', /^rebuilt: no snapshot yet; snapshot saved$/);
        else assert.equal(pets.snapshot, 'loaded from snapshot');
      } finally {
        await daemon.close();
      }
    }
  });

  it('close() returns only once the work after the start is done: nothing is written in its folders after it', { timeout: HANG_MS }, async () => {
    const p = project();
    const daemon = await quietStart(p);
    await daemon.ready;
    // At once after the catalogue is served: the snapshot, seeding and the digests' memo are still to come.
    await daemon.close();
    const at = filesIn(p.dir);
    assert.ok(at.some((f) => f.endsWith('.snap')), `the snapshot is written before close() returns: ${at.join(', ')}`);
    await stillAfterClose(p.dir, at);
    // A folder its owner removes at once (a test, a temp project) is removed whole.
    rmSync(p.dir, { recursive: true });
    assert.equal(existsSync(p.dir), false);
  });

  it('close() while the specs load: nothing is written in its folders after the catalogue comes', { timeout: HANG_MS }, async () => {
    const p = project();
    await startedOnceWithoutMemo(p);
    const daemon = await quietStart(p);
    await daemon.close();
    await daemon.ready;
    await stillAfterClose(p.dir, filesIn(p.dir));
  });

  it('close() waits for the digests\' memo of a start that had none, even while it is still seeding many specs', { timeout: HANG_MS }, async () => {
    const p = project();
    const names = Array.from({ length: 150 }, (_, i) => `s${i}`);
    for (const n of names) writeFileSync(join(p.dir, `${n}.yaml`), openapi(n, [{ method: 'GET', path: `/${n}`, summary: `List ${n}` }]));
    writeFileSync(p.configFile, `specs:\n${names.map((n) => `  - ${n}.yaml\n`).join('')}`);
    await startedOnceWithoutMemo(p);
    // Its seeding (a spec per turn of the event loop) is under way when close() comes.
    const daemon = await quietStart(p);
    await daemon.ready;
    await new Promise((resolve) => setImmediate(resolve));
    await daemon.close();
    const at = filesIn(p.dir);
    assert.ok(at.includes(join('snapshots', 'digests.json')), 'the memo is written before close() returns');
    await stillAfterClose(p.dir, at);
  });
});
