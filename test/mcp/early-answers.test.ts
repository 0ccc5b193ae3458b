// The stdio front answers initialize, tools/list and ping before the MCP SDK is loaded
// (src/mcp/early.ts), from answers an earlier run of the same build cached in the user's cache
// folder (src/mcp/early-cache.ts). These tests hold those answers to what the real SDK server
// says, check the cache (fingerprint, privacy, stale and corrupt files) and the session the SDK
// takes over afterwards: it knows the client, answers once per request.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { earlyResult, type EarlyAnswers } from '../../src/mcp/early.ts';
import { earlyAnswersFile, earlyCacheDir, earlyFingerprint, readEarlyAnswers, writeEarlyAnswers } from '../../src/mcp/early-cache.ts';
import { askSdkServer, computeEarlyAnswers } from '../../src/mcp/precompute.ts';
import { describeTools } from '../../src/mcp/tool-list.ts';
import { serveStdio, type StdioOptions } from '../../src/mcp/stdio.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { spawnSvc, workspace, type Spawned, type Workspace } from './support.ts';

const initialize = (id: number, protocolVersion: string, capabilities: Record<string, unknown> = {}): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'early-test', version: '1.0.0' } },
});

/** What a client sends first: initialize, the initialized notification, tools/list. */
const handshake = [initialize(1, LATEST_PROTOCOL_VERSION), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }];

const temps: string[] = [];
function tempDir(prefix = 'svc-early-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Polls until `check` holds (the cache is written in the background once the SDK is loaded). */
async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let fresh: EarlyAnswers;
before(async () => {
  fresh = await computeEarlyAnswers();
});

describe('early answers (stdio, before the SDK is loaded)', () => {
  it('lists the tools exactly as describeTools renders the seven tool definitions', () => {
    assert.equal(fresh.tools.length, 7);
    assert.deepEqual(JSON.parse(JSON.stringify(fresh.tools)), JSON.parse(JSON.stringify(describeTools(TOOLS))));
  });

  it('answers initialize as the SDK does for every supported protocol version and an unknown one', async () => {
    const versions = [...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01'];
    const requests = versions.map((v, i) => initialize(i + 1, v, i % 2 ? { elicitation: { form: {} } } : {}));
    for (const [i, request] of requests.entries()) {
      // One SDK server per initialize: a server answers one handshake.
      const sdk = (await askSdkServer([request])).get(i + 1) as { result?: unknown };
      const early = earlyResult(request, fresh);
      assert.ok(early, `answered early: ${versions[i]}`);
      assert.equal(JSON.stringify(early.result), JSON.stringify(sdk.result), versions[i]);
    }
    assert.equal((earlyResult(initialize(9, '1999-01-01'), fresh)!.result as { protocolVersion: string }).protocolVersion, LATEST_PROTOCOL_VERSION);
  });

  it('answers tools/list and ping as the SDK does', async () => {
    const requests: JSONRPCMessage[] = [
      initialize(1, LATEST_PROTOCOL_VERSION),
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list', params: { cursor: 'x' } },
      { jsonrpc: '2.0', id: 'c', method: 'ping' },
    ];
    const answers = await askSdkServer(requests);
    for (const r of requests.slice(1)) {
      const id = (r as { id: string }).id;
      assert.equal(JSON.stringify(earlyResult(r, fresh)?.result), JSON.stringify((answers.get(id) as { result?: unknown }).result), id);
    }
  });

  it('leaves unusual requests to the SDK: bad params, other methods, notifications, no id', () => {
    const early = (m: unknown) => earlyResult(m, fresh);
    assert.equal(early({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 5 } }), undefined);
    assert.equal(early({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: 1 } } }), undefined);
    assert.equal(early({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: true }, clientInfo: { name: 'x', version: '1' } } }), undefined);
    assert.equal(early({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 7 } }), undefined);
    assert.equal(early({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: {} } }), undefined);
    assert.equal(early({ jsonrpc: '2.0', method: 'tools/list' }), undefined);
    assert.equal(early({ jsonrpc: '1.0', id: 4, method: 'ping' }), undefined);
  });
});

describe('early answers cache (files)', () => {
  /** A minimal package tree: package.json, the three source folders; the SDK and zod package.json files under `modules`/node_modules. */
  function buildTree(root = tempDir('svc-early-tree-'), modules = root): string {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'package.json'), '{"name":"svc","version":"1.0.0"}');
    for (const folder of ['src/mcp', 'src/tools', 'src/model']) {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, 'a.ts'), `// ${folder}\n`);
    }
    for (const name of ['@modelcontextprotocol/sdk', 'zod']) {
      mkdirSync(join(modules, 'node_modules', name), { recursive: true });
      writeFileSync(join(modules, 'node_modules', name, 'package.json'), `{"name":"${name}","version":"1.0.0"}`);
    }
    return root;
  }

  it('the fingerprint changes with svc, SDK and zod versions and with any file of src/mcp, src/tools, src/model', () => {
    const root = buildTree();
    const seen = new Map<string, string>([[earlyFingerprint(root), 'initial']]);
    assert.equal(earlyFingerprint(root), [...seen.keys()][0], 'the same tree gives the same fingerprint');
    const changes: [string, () => void][] = [
      ['svc version', () => writeFileSync(join(root, 'package.json'), '{"name":"svc","version":"1.0.1"}')],
      ['SDK version', () => writeFileSync(join(root, 'node_modules/@modelcontextprotocol/sdk/package.json'), '{"version":"1.0.1"}')],
      ['zod version', () => writeFileSync(join(root, 'node_modules/zod/package.json'), '{"version":"1.0.1"}')],
      ['src/mcp file', () => writeFileSync(join(root, 'src/mcp/a.ts'), '// src/mcp changed\n')],
      ['src/tools file', () => writeFileSync(join(root, 'src/tools/a.ts'), '// src/tools changed\n')],
      ['src/model file', () => writeFileSync(join(root, 'src/model/a.ts'), '// src/model changed\n')],
      ['same size, new content', () => writeFileSync(join(root, 'src/tools/a.ts'), '// src/tools chang3d\n')],
      ['new file', () => writeFileSync(join(root, 'src/tools/b.ts'), '')],
      [
        'renamed file',
        () => {
          rmSync(join(root, 'src/tools/b.ts'));
          writeFileSync(join(root, 'src/tools/c.ts'), '');
        },
      ],
    ];
    for (const [what, change] of changes) {
      change();
      const fingerprint = earlyFingerprint(root);
      assert.match(fingerprint, /^[0-9a-f]{32}$/);
      assert.ok(!seen.has(fingerprint), `${what}: fingerprint unchanged (same as after ${seen.get(fingerprint)})`);
      seen.set(fingerprint, what);
    }
  });

  it('the SDK and zod are found in a node_modules folder further up, as Node resolves them', () => {
    const own = earlyFingerprint(buildTree());
    // Hoisted, as npm installs a dependency: the SDK and zod sit in the parent's node_modules.
    const parent = tempDir('svc-early-hoisted-');
    const nested = buildTree(join(parent, 'node_modules', 'svc'), parent);
    assert.ok(!existsSync(join(nested, 'node_modules')));
    assert.equal(earlyFingerprint(nested), own);
    rmSync(join(parent, 'node_modules', 'zod'), { recursive: true });
    assert.notEqual(earlyFingerprint(nested), own, 'zod missing');
  });

  it('the cache folder is $XDG_CACHE_HOME/svc/early-answers, else ~/.cache/svc/early-answers (a relative XDG_CACHE_HOME is ignored)', () => {
    assert.equal(earlyCacheDir({ XDG_CACHE_HOME: '/x/cache' }), join('/x/cache', 'svc', 'early-answers'));
    assert.equal(earlyCacheDir({ XDG_CACHE_HOME: 'rel/cache' }), join(homedir(), '.cache', 'svc', 'early-answers'));
    assert.equal(earlyCacheDir({}), join(homedir(), '.cache', 'svc', 'early-answers'));
  });

  it('writes privately (folder 0700, file 0600) and atomically, and reads back the same answers', () => {
    const dir = join(tempDir(), 'deep', 'early-answers');
    const file = writeEarlyAnswers(dir, 'a'.repeat(32), fresh);
    assert.equal(file, earlyAnswersFile(dir, 'a'.repeat(32)));
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), [`${'a'.repeat(32)}.json`], 'no temp file left');
    const read = readEarlyAnswers(dir, 'a'.repeat(32));
    assert.ok('answers' in read, JSON.stringify(read));
    assert.deepEqual(read.answers, JSON.parse(JSON.stringify(fresh)));
  });

  it('never uses a missing, corrupt, wrongly shaped, other-build, shared-writable or symlinked file', () => {
    const dir = tempDir();
    const fp = 'b'.repeat(32);
    const file = earlyAnswersFile(dir, fp);
    assert.deepEqual(readEarlyAnswers(dir, fp), { miss: 'missing' });
    const cases: [string, () => void, string][] = [
      ['garbage', () => writeFileSync(file, '{"fingerprint":"bbbb', { mode: 0o600 }), 'not valid'],
      ['empty', () => writeFileSync(file, '', { mode: 0o600 }), 'not valid'],
      ['other build', () => writeFileSync(file, JSON.stringify({ fingerprint: 'c'.repeat(32), ...fresh }), { mode: 0o600 }), 'not valid'],
      ['no tools', () => writeFileSync(file, JSON.stringify({ fingerprint: fp, ...fresh, tools: [] }), { mode: 0o600 }), 'not valid'],
      ['tool without schema', () => writeFileSync(file, JSON.stringify({ fingerprint: fp, ...fresh, tools: [{ name: 'x' }] }), { mode: 0o600 }), 'not valid'],
      ['latest version not listed', () => writeFileSync(file, JSON.stringify({ fingerprint: fp, ...fresh, latestProtocolVersion: '1999-01-01' }), { mode: 0o600 }), 'not valid'],
      ['an array', () => writeFileSync(file, '[]', { mode: 0o600 }), 'not valid'],
    ];
    for (const [what, write, miss] of cases) {
      rmSync(file, { force: true });
      write();
      assert.deepEqual(readEarlyAnswers(dir, fp), { miss }, what);
    }
    rmSync(file);
    writeEarlyAnswers(dir, fp, fresh);
    chmodSync(file, 0o666);
    assert.deepEqual(readEarlyAnswers(dir, fp), { miss: 'not private' }, 'writable by others');
    chmodSync(file, 0o600);
    assert.ok('answers' in readEarlyAnswers(dir, fp));
    const other = tempDir();
    writeEarlyAnswers(other, fp, fresh);
    rmSync(file);
    symlinkSync(earlyAnswersFile(other, fp), file);
    assert.deepEqual(readEarlyAnswers(dir, fp), { miss: 'not valid' }, 'symlink');
  });

  it('keeps the newest eight builds\' files and removes older ones and stale temp files', () => {
    const dir = tempDir();
    const old = Date.now() / 1000 - 7200;
    for (let i = 0; i < 10; i++) {
      const file = writeEarlyAnswers(dir, i.toString(16).repeat(32), fresh);
      utimesSync(file, old + i, old + i);
    }
    writeFileSync(join(dir, 'x.json.1.ab.tmp'), '');
    utimesSync(join(dir, 'x.json.1.ab.tmp'), old, old);
    const current = writeEarlyAnswers(dir, 'f'.repeat(32), fresh);
    const left = readdirSync(dir).sort();
    assert.equal(left.length, 8, left.join(' '));
    assert.ok(left.includes('f'.repeat(32) + '.json'), 'the file just written stays');
    assert.ok(existsSync(current));
    assert.ok(!left.includes('0'.repeat(32) + '.json') && !left.includes('x.json.1.ab.tmp'), left.join(' '));
    assert.ok(left.includes('9'.repeat(32) + '.json'), 'the newest older files stay');
  });
});

describe('serveStdio with early answers', () => {
  /** A cache folder holding this build's answers, as an earlier start would have left it. */
  function warmCache(answers: EarlyAnswers = fresh): string {
    const dir = tempDir();
    writeEarlyAnswers(dir, earlyFingerprint(), answers);
    return dir;
  }

  /** Starts serveStdio with initialize (+ tools/list) already written; records what was answered before it resolved. */
  async function startWith(options: Partial<StdioOptions>, lines: unknown[]) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let connected = false;
    const answeredWhileConnecting: unknown[] = [];
    const messages: { id?: unknown; result?: { tools?: { name: string }[]; instructions?: string }; error?: unknown }[] = [];
    stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const message = JSON.parse(line) as (typeof messages)[number];
        messages.push(message);
        if (!connected && message.id !== undefined) answeredWhileConnecting.push(message.id);
      }
    });
    for (const line of lines) stdin.write(`${JSON.stringify(line)}\n`);
    const handle = await serveStdio({ stdin, stdout, context: () => Promise.reject(new Error('unused')), ...options });
    connected = true;
    const answered = async (ids: unknown[]): Promise<void> => eventually(() => ids.every((id) => messages.some((m) => m.id === id)), `answers to ${ids.join(', ')}`);
    return { stdin, handle, messages, answeredWhileConnecting, answered };
  }

  it('answers every request once, in a session the SDK takes over knowing the client', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const logged: string[] = [];
    let opened = 0;
    // Everything is written before serveStdio runs, and stdin ends: the early answers go out, the
    // SDK gets the queued lines, the tool call waits for the context and is answered before the end.
    const send = (m: unknown): void => void stdin.write(`${JSON.stringify(m)}\n`);
    send(initialize(1, '2025-06-18', { elicitation: { form: {} } }));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    stdin.write('{ not json\n');
    send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    stdin.end();
    const handle = await serveStdio({
      stdin,
      stdout,
      cacheDir: warmCache(),
      log: (line) => logged.push(line),
      hooks: { sessionOpened: () => void opened++ },
      context: () => Promise.reject(new Error('no catalogue needed')),
    });
    await handle.closed;
    const messages = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: number; result?: { protocolVersion?: string; tools?: unknown[] }; error?: { code: number } });
    assert.deepEqual(messages.map((m) => m.id).sort(), [1, 2, 3, 4], out);
    assert.equal(messages.find((m) => m.id === 1)?.result?.protocolVersion, '2025-06-18');
    assert.equal(messages.find((m) => m.id === 2)?.result?.tools?.length, 7);
    assert.equal(messages.find((m) => m.id === 3)?.error?.code, -32602);
    assert.equal(opened, 1, 'the SDK saw initialize and notifications/initialized');
    assert.deepEqual(logged, [], 'no early answer differed from the SDK');
  });

  it('answers initialize and tools/list before the SDK session is connected when this build\'s answers are cached', async () => {
    const debug: string[] = [];
    const run = await startWith({ cacheDir: warmCache(), debug: (l) => debug.push(l) }, handshake);
    assert.deepEqual(run.answeredWhileConnecting, [1, 2]);
    assert.deepEqual(debug, ['early answers: answered 1, 2 before the MCP SDK loaded']);
    run.stdin.end();
    await run.handle.closed;
  });

  it('without cached answers leaves everything to the SDK, then caches its answers for the next start', async () => {
    const dir = join(tempDir(), 'svc', 'early-answers');
    const debug: string[] = [];
    const run = await startWith({ cacheDir: dir, debug: (l) => debug.push(l) }, handshake);
    assert.deepEqual(run.answeredWhileConnecting, [], 'nothing answered before the SDK');
    await run.answered([1, 2]);
    assert.deepEqual(run.messages.find((m) => m.id === 2)?.result?.tools?.map((t) => t.name), TOOLS.map((t) => t.name));
    const file = earlyAnswersFile(dir, earlyFingerprint());
    await eventually(() => existsSync(file), 'the cache file');
    const read = readEarlyAnswers(dir, earlyFingerprint());
    assert.ok('answers' in read);
    assert.deepEqual(read.answers, JSON.parse(JSON.stringify(fresh)));
    assert.match(debug[0]!, /^early answers: none cached in .*\.json; the MCP SDK answers this start$/);
    await eventually(() => debug.some((l) => l.startsWith('early answers: cached in ')), 'the debug line');
    run.stdin.end();
    await run.handle.closed;
  });

  it('never uses another build\'s or a corrupt file: the SDK answers, and the file is replaced', async () => {
    const dir = tempDir();
    const fingerprint = earlyFingerprint();
    // Another build's file with a poisoned tool list, and garbage under this build's name.
    writeEarlyAnswers(dir, 'e'.repeat(32), { ...fresh, tools: [{ name: 'planted', inputSchema: { type: 'object' } }] });
    writeFileSync(earlyAnswersFile(dir, fingerprint), '{"fingerprint":', { mode: 0o600 });
    const debug: string[] = [];
    const run = await startWith({ cacheDir: dir, debug: (l) => debug.push(l) }, handshake);
    assert.deepEqual(run.answeredWhileConnecting, []);
    await run.answered([1, 2]);
    assert.deepEqual(run.messages.find((m) => m.id === 2)?.result?.tools?.map((t) => t.name), TOOLS.map((t) => t.name));
    assert.match(debug[0]!, /ignored .*\.json \(not valid\); the MCP SDK answers this start/);
    await eventually(() => 'answers' in readEarlyAnswers(dir, fingerprint), 'the file replaced');
    run.stdin.end();
    await run.handle.closed;
  });

  it('a cached answer the SDK contradicts is reported and the cache rewritten with the SDK\'s', async () => {
    // Same build, but the file says something the SDK does not (a fingerprint input it missed).
    const dir = warmCache({ ...fresh, instructions: 'outdated instructions' });
    const logged: string[] = [];
    const debug: string[] = [];
    const run = await startWith({ cacheDir: dir, log: (l) => logged.push(l), debug: (l) => debug.push(l) }, handshake);
    assert.deepEqual(run.answeredWhileConnecting, [1, 2]);
    await eventually(() => logged.length > 0, 'the report');
    assert.match(logged[0]!, /cached early answer to request 1 differs from the MCP SDK's; caching the SDK's answers/);
    await eventually(() => {
      const read = readEarlyAnswers(dir, earlyFingerprint());
      return 'answers' in read && read.answers.instructions === fresh.instructions;
    }, `the rewritten cache; debug: ${debug.join(' | ')}`);
    run.stdin.end();
    await run.handle.closed;
  });

  it('with no cache folder (cacheDir null) answers through the SDK and writes nothing', async () => {
    const debug: string[] = [];
    const run = await startWith({ cacheDir: null, debug: (l) => debug.push(l) }, handshake);
    await run.answered([1, 2]);
    assert.deepEqual(run.answeredWhileConnecting, []);
    assert.equal(run.messages.find((m) => m.id === 2)?.result?.tools?.length, 7);
    run.stdin.end();
    await run.handle.closed;
    assert.deepEqual(debug, [], 'no cache looked up, none written');
  });

  it('a cache that cannot be written costs a debug line, never an answer or a byte of stdout', async () => {
    const blocker = join(tempDir(), 'not-a-folder');
    writeFileSync(blocker, 'a file where the cache folder should be');
    const debug: string[] = [];
    const run = await startWith({ cacheDir: join(blocker, 'early-answers'), debug: (l) => debug.push(l) }, handshake);
    await run.answered([1, 2]);
    await eventually(() => debug.some((l) => l.startsWith('early answers: not cached (')), 'the debug line');
    assert.deepEqual(run.messages.map((m) => m.id), [1, 2], 'only the two answers on stdout');
    run.stdin.end();
    await run.handle.closed;
  });
});

describe('svc serve on stdio with the early answers cache (spawned)', () => {
  let ws: Workspace;
  before(async () => {
    ws = await workspace();
  });
  after(async () => ws?.cleanup());

  /** A spawned `svc serve` with its cache in `cacheHome`, debug lines on; sends the handshake and collects stdout. */
  function serve(cacheHome: string) {
    const proc: Spawned = spawnSvc(['serve', '--config', ws.configFile, '--transport', 'stdio', '--socket', join(ws.dir, `svc-${temps.length}-${Date.now()}.sock`)], {
      env: { XDG_CACHE_HOME: cacheHome, SVC_DEBUG: '1' },
    });
    const messages = new Map<unknown, unknown>();
    let buffer = '';
    proc.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const message = JSON.parse(buffer.slice(0, newline)) as { id?: unknown; result?: unknown };
        buffer = buffer.slice(newline + 1);
        messages.set(message.id, message.result);
      }
    });
    for (const line of handshake) proc.child.stdin!.write(`${JSON.stringify(line)}\n`);
    const answered = (): Promise<void> => eventually(() => messages.has(1) && messages.has(2), `answers; stderr:\n${proc.stderr()}`, 20_000);
    const stop = async (): Promise<void> => {
      proc.child.stdin!.end();
      assert.equal(await proc.exited, 0, proc.stderr());
    };
    return { proc, messages, answered, stop };
  }

  it('a second start answers initialize and tools/list from the cache the first start wrote', async () => {
    const cacheHome = tempDir();
    const fileOf = join(cacheHome, 'svc', 'early-answers', `${earlyFingerprint()}.json`);

    // First start, empty cache: the SDK answers, then the answers are cached.
    const first = serve(cacheHome);
    await first.answered();
    await first.proc.waitForStderr(/early answers: cached in (\S+)/);
    assert.doesNotMatch(first.proc.stderr(), /before the MCP SDK loaded/);
    assert.match(first.proc.stderr(), /early answers: none cached in/);
    await first.stop();
    assert.ok(existsSync(fileOf), first.proc.stderr());
    assert.equal(statSync(fileOf).mode & 0o777, 0o600);
    assert.equal(statSync(join(cacheHome, 'svc', 'early-answers')).mode & 0o777, 0o700);

    // Second start, same build: answered before the SDK loaded, the same answers.
    const second = serve(cacheHome);
    await second.answered();
    await second.proc.waitForStderr(/early answers: answered 1, 2 before the MCP SDK loaded/);
    assert.doesNotMatch(second.proc.stderr(), /differs from the MCP SDK's/);
    await second.stop();
    assert.deepEqual(second.messages.get(1), first.messages.get(1));
    assert.deepEqual(second.messages.get(2), first.messages.get(2));
  });

  it('a corrupt cache file is not used: the SDK answers and the file is rewritten', async () => {
    const cacheHome = tempDir();
    const dir = join(cacheHome, 'svc', 'early-answers');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${earlyFingerprint()}.json`);
    writeFileSync(file, 'garbage', { mode: 0o600 });
    const run = serve(cacheHome);
    await run.answered();
    await run.proc.waitForStderr(/early answers: cached in/);
    assert.match(run.proc.stderr(), /ignored \S+ \(not valid\)/);
    assert.doesNotMatch(run.proc.stderr(), /before the MCP SDK loaded/);
    assert.equal((run.messages.get(2) as { tools: unknown[] }).tools.length, 7);
    await run.stop();
    assert.ok('answers' in readEarlyAnswers(dir, earlyFingerprint()));
  });
});
