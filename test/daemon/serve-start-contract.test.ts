// `svc serve`'s start sequence from its contract, in this process (startServe): a temp svc.yaml and
// real spec files, the real import worker and snapshots, MCP over stdio streams, the control socket,
// and invoke calling a real HTTP server on 127.0.0.1. What the log says about each spec, where the
// snapshots, the digest memo and the socket go, what a config change does to invoke, and that a
// start that fails (a port in use) gives back what it claimed.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { startServe, type Daemon } from '../../src/daemon/serve.ts';
import { importConfigured, loadedSpecs } from '../../src/daemon/start-load.ts';
import { request } from '../../src/ipc/client.ts';
import { SVC_VERSION } from '../../src/daemon/version.ts';
import { importOptions } from '../../src/daemon/import-options.ts';
import { formatDiagnostic } from '../../src/model/index.ts';
import { buildFingerprint, snapshotKey } from '../../src/snapshot/index.ts';
import { openapi, until } from './support.ts';

const HANG_MS = 60_000;
const skip = process.platform === 'win32' ? 'Unix sockets only' : false;

const dirs: string[] = [];
let api: Server;
let apiUrl = '';
const seen: IncomingHttpHeaders[] = [];
before(async () => {
  api = createServer((req, res) => {
    seen.push(req.headers);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ pets: ['rex'], path: req.url }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const address = api.address();
  apiUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
after(async () => {
  await new Promise((resolve) => api.close(resolve));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A spec with a warning: a $ref to a file that is not there. */
const WARNS = `openapi: 3.0.3
info: { title: Odd, version: '1' }
paths:
  /odd:
    get:
      summary: Odd one
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { $ref: './missing.yaml#/Odd' }
`;

function project(yaml: (api: string) => string): { dir: string; configFile: string; env: NodeJS.ProcessEnv; write: (rel: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-serve-start-'));
  dirs.push(dir);
  const write = (rel: string, text: string): string => {
    writeFileSync(join(dir, rel), text);
    return join(dir, rel);
  };
  write('pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }]));
  write('broken.yaml', 'openapi: 3.0.3\ninfo: [\n');
  write('odd.yaml', WARNS);
  const configFile = write('svc.yaml', yaml(apiUrl));
  return { dir, configFile, env: { XDG_RUNTIME_DIR: dir, XDG_STATE_HOME: join(dir, 'state'), XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir }, write };
}

/** MCP over a pair of streams: one JSON-RPC line out, the reply with the same id back. */
function stdioClient(): { stdin: PassThrough; stdout: PassThrough; call(method: string, params: unknown): Promise<Record<string, unknown>>; notify(method: string): void } {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let buffer = '';
  const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffer.slice(0, nl)) as { id?: number };
      buffer = buffer.slice(nl + 1);
      if (typeof message.id === 'number') waiting.get(message.id)?.(message as Record<string, unknown>);
    }
  });
  let id = 0;
  return {
    stdin,
    stdout,
    call(method, params) {
      const mine = ++id;
      const reply = new Promise<Record<string, unknown>>((resolve) => waiting.set(mine, resolve));
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params })}\n`);
      return reply;
    },
    notify(method) {
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

/** One MCP message over Streamable HTTP with the token the auth line names; the reply's text and session. */
async function mcpHttp(url: string, message: unknown, auth: string | undefined, session?: string | null): Promise<{ text: string; session: string | null }> {
  const tokenFile = /the token in (\S+)$/.exec(auth ?? '')?.[1];
  const token = tokenFile ? readFileSync(tokenFile, 'utf8').trim() : '';
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(message),
  });
  return { text: await res.text(), session: res.headers.get('mcp-session-id') };
}

const textOf = (reply: Record<string, unknown>): string => ((reply['result'] as { content: { text: string }[] }).content[0]!.text);

describe('svc serve start sequence in process', { skip, timeout: HANG_MS }, () => {
  it('stdio: logs each spec, serves tool calls, invokes with the config of the moment, and keeps its files in the folders the environment names', { timeout: HANG_MS }, async () => {
    const p = project((url) => `specs:\n  - path: pets.yaml\n    baseUrl: ${url}\n    headers:\n      X-Team: red\n  - path: broken.yaml\n  - path: odd.yaml\n`);
    const client = stdioClient();
    const logs: string[] = [];
    // A snapshot unused for a year is pruned once the specs are served.
    const snapshots = join(p.dir, 'cache', 'svc', 'snapshots');
    mkdirSync(snapshots, { recursive: true, mode: 0o700 });
    const stale = join(snapshots, `${'a'.repeat(40)}.snap`);
    writeFileSync(stale, 'old');
    const yearAgo = new Date(Date.now() - 366 * 24 * 3600 * 1000);
    utimesSync(stale, yearAgo, yearAgo);
    const daemon: Daemon = await startServe({ config: await loadConfig(p.configFile), env: p.env, stdin: client.stdin, stdout: client.stdout, log: (l) => logs.push(l) });
    try {
      assert.equal('url' in daemon, false, 'stdio has no URL');
      assert.ok(daemon.outcomes().every((o) => typeof o === 'object'), 'outcomes are outcomes, also before the first import ends');
      const socket = daemon.services!.socketPath;
      assert.ok(socket.startsWith(join(p.dir, 'svc') + '/'), `the socket is in the runtime folder given: ${socket}`);
      assert.equal(existsSync(join(p.dir, 'state')), false, 'stdio makes no HTTP token');
      await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
      client.notify('notifications/initialized');
      await daemon.ready;

      // The log: a line per failed spec with its diagnostics indented, a line per spec with warnings, a total.
      const broken = daemon.outcomes()[1]!;
      assert.equal(broken.ok, false);
      const at = logs.indexOf('broken: not loaded');
      assert.ok(at >= 0, logs.join('\n'));
      const diagnostics = broken.ok ? [] : broken.errors.map((d) => `  ${formatDiagnostic(d).replace(/\n/g, '\n  ')}`);
      assert.ok(diagnostics.length > 0);
      assert.deepEqual(logs.slice(at + 1, at + 1 + diagnostics.length), diagnostics);
      const odd = daemon.outcomes()[2]!;
      assert.ok(odd.ok && odd.spec.warnings.length > 0, 'odd.yaml has a warning');
      assert.ok(logs.includes(`odd: ${odd.ok ? odd.spec.warnings.length : 0} warning(s); run \`svc check\` for details`), logs.join('\n'));
      assert.equal(logs.some((l) => l.startsWith('pets: ') && l.includes('warning')), false, 'pets has no warning line');
      const total = logs.find((l) => l.startsWith('loaded '));
      const ms = Number(/^loaded 2 spec\(s\), 2 endpoints in (\d+) ms; 1 failed, serving the rest$/.exec(total ?? '')?.[1] ?? NaN);
      assert.ok(ms >= 0 && ms < 120_000, `${total}`);

      // Snapshots and the digest memo go to the cache folder the environment names.
      await until(() => existsSync(join(snapshots, 'digests.json')), 20_000, 'the digest memo written');
      await until(() => !existsSync(stale), 20_000, 'the stale snapshot pruned');
      // A snapshot is named by this build (version and source fingerprint) and the spec's import settings.
      const pets = daemon.config.specs[0]!;
      const key = snapshotKey({ svcVersion: `${SVC_VERSION}+${await buildFingerprint()}`, importKey: JSON.stringify([pets.path, importOptions(pets, daemon.config)]) });
      assert.ok(readdirSync(snapshots).includes(`${key}.snap`), readdirSync(snapshots).join(', '));
      const memo = JSON.parse(readFileSync(join(snapshots, 'digests.json'), 'utf8')) as { files: [string][] };
      assert.ok(memo.files.some(([file]) => file === join(p.dir, 'pets.yaml')));

      // Tool calls run in the session's context; invoke reaches the API with svc.yaml's headers.
      const list = await client.call('tools/call', { name: 'endpoint_by_spec', arguments: { spec: 'pets' } });
      assert.match(textOf(list), /^1 endpoints in spec pets\npets:GET:\/pets - List pets/);
      const invoked = await client.call('tools/call', { name: 'invoke', arguments: { endpointId: 'pets:GET:/pets' } });
      assert.match(textOf(invoked), /rex/);
      assert.equal(seen.at(-1)?.['x-team'], 'red');
      const status = await request(socket, 'status');
      assert.equal(status.toolCalls.count, 2, 'tool calls are counted');
      assert.deepEqual(Object.keys(status.toolCalls.byTool).sort(), ['endpoint_by_spec', 'invoke']);

      // An update that changes svc.yaml: the next invoke uses the new headers.
      p.write('svc.yaml', `specs:\n  - path: pets.yaml\n    baseUrl: ${apiUrl}\n    headers:\n      X-Team: blue\n  - path: broken.yaml\n  - path: odd.yaml\n`);
      p.write('pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List all pets' }]));
      const update = await request(socket, 'update');
      assert.equal(update.specs[0]!.state, 'changed');
      const after = await request(socket, 'status');
      assert.equal(after.specs[0]!.snapshot?.startsWith('imported'), true, `an update imports from the files: ${after.specs[0]!.snapshot}`);
      const again = await client.call('tools/call', { name: 'invoke', arguments: { endpointId: 'pets:GET:/pets' } });
      assert.match(textOf(again), /rex/);
      assert.equal(seen.at(-1)?.['x-team'], 'blue');
    } finally {
      await daemon.close();
    }
  });

  it('search.vocabulary wordnet joins search once loaded; without it a synonym finds nothing', { timeout: HANG_MS }, async () => {
    for (const vocabulary of ['wordnet', 'none']) {
      const p = project(() => `serve:\n  transport: http\n  port: 0\n  auth: none\nsearch:\n  vocabulary: ${vocabulary}\nspecs:\n  - ledger.yaml\n`);
      p.write('ledger.yaml', openapi('Ledger', [{ method: 'GET', path: '/bills/{id}', summary: 'Get a bill' }, { method: 'GET', path: '/payments', summary: 'List payments' }]));
      const daemon = await startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, socket: join(p.dir, 'v.sock'), log: () => {} });
      try {
        await daemon.ready;
        const search = async (): Promise<string> => (await request(join(p.dir, 'v.sock'), 'search', { query: 'invoice' })).text;
        if (vocabulary === 'wordnet') await until(async () => /ledger:GET:\/bills\/\{id\}/.test(await search()), 20_000, 'invoice finds the bill');
        else assert.doesNotMatch(await search(), /bills/);
      } finally {
        await daemon.close();
      }
    }
  });

  it('importConfigured imports every spec of the config on this thread, in config order, failures included', { timeout: HANG_MS }, async () => {
    const p = project(() => 'specs:\n  - broken.yaml\n  - pets.yaml\n');
    const outcomes = await importConfigured(await loadConfig(p.configFile));
    assert.deepEqual(outcomes.map((o) => [o.ok, o.ok ? o.spec.name : o.name]), [[false, 'broken'], [true, 'pets']]);
    assert.deepEqual(loadedSpecs(outcomes).map((s) => s.name), ['pets']);
  });

  it('SVC_SNAPSHOTS=0 keeps no snapshots; services off still serves stdio', { timeout: HANG_MS }, async () => {
    const p = project(() => 'specs:\n  - pets.yaml\n');
    const client = stdioClient();
    const logs: string[] = [];
    const daemon = await startServe({ config: await loadConfig(p.configFile), env: { ...p.env, SVC_SNAPSHOTS: '0' }, services: false, stdin: client.stdin, stdout: client.stdout, log: (l) => logs.push(l) });
    try {
      assert.equal(daemon.services, undefined);
      assert.ok(logs.includes('serving MCP on stdio'));
      assert.equal(logs.some((l) => l.startsWith('control socket')), false);
      await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
      client.notify('notifications/initialized');
      await daemon.ready;
      assert.match(textOf(await client.call('tools/call', { name: 'search', arguments: { query: 'list pets' } })), /pets:GET:\/pets/);
      assert.equal(existsSync(join(p.dir, 'cache')), false, 'no snapshot folder');
    } finally {
      await daemon.close();
    }
  });

  it('without a log function, the lines go to stderr with an svc: prefix', { timeout: HANG_MS }, async () => {
    const p = project(() => 'serve:\n  transport: http\n  port: 0\n  auth: none\nspecs:\n  - pets.yaml\n');
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    let daemon: Daemon | undefined;
    try {
      daemon = await startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, services: false });
      await daemon.ready;
    } finally {
      process.stderr.write = write;
      await daemon?.close();
    }
    assert.ok(written.includes(`svc: serving MCP on ${daemon!.url}/mcp (Streamable HTTP, protocol 2025-11-25 and 2026-07-28) and ${daemon!.url}/sse (legacy SSE, deprecated); no authentication (serve.auth: none)\n`), written.join(''));
    assert.ok(written.some((l) => /^svc: loaded 1 spec\(s\), 1 endpoints in \d+ ms\n$/.test(l)), written.join(''));
  });

  it('HTTP: the token is in the state folder of the environment given; a port in use stops the start and frees the socket', { timeout: HANG_MS }, async () => {
    const p = project(() => 'serve:\n  transport: http\n  port: 0\nspecs:\n  - pets.yaml\n');
    const socket = join(p.dir, 'ctl.sock');
    const first = await startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, socket: join(p.dir, 'first.sock'), log: () => {} });
    try {
      const status = await request(join(p.dir, 'first.sock'), 'status');
      assert.match(status.auth ?? '', new RegExp(`the token in ${join(p.dir, 'state').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`), 'the token file is in the state folder given');
      // A tool call over HTTP is counted like one over stdio.
      const init = await mcpHttp(first.url!, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, status.auth);
      assert.ok(init.session, init.text);
      await mcpHttp(first.url!, { jsonrpc: '2.0', method: 'notifications/initialized' }, status.auth, init.session);
      await first.ready;
      const found = await mcpHttp(first.url!, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'list pets' } } }, status.auth, init.session);
      assert.match(found.text, /pets:GET:\/pets/);
      const counted = await request(join(p.dir, 'first.sock'), 'status');
      assert.equal(counted.toolCalls.count, 1);
      assert.equal(counted.sessions, 1);
      const port = new URL(first.url!).port;
      p.write('svc.yaml', `serve:\n  transport: http\n  port: ${port}\n  auth: none\nspecs:\n  - pets.yaml\n`);
      await assert.rejects(startServe({ config: await loadConfig(p.configFile), env: p.env, snapshots: false, socket, log: () => {} }), /EADDRINUSE|in use/);
      assert.equal(existsSync(socket), false, 'the failed start removed its socket');
    } finally {
      await first.close();
    }
  });
});
