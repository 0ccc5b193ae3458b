// The commands that talk to running daemons (`svc status`, `svc update`, `svc search`, `svc list`,
// `svc inspect`), run in this process (runCli) against a real daemon process, so their own code
// runs where mutation testing sees it: finding the daemons of a config (in the runtime folder, or on
// --socket), what each prints as text and as JSON, the exit codes (0 all well, 1 a problem, 2 no
// daemon). test/cli/silent-daemon: sockets whose daemon is gone or does not answer.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openapi, project, startDaemon, type Daemon, type Project } from '../daemon/support.ts';
import { cli, daemonlessProject, socketDir } from './support.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const ESC = '\u001b';

describe('svc commands against a running daemon, in process', { skip, timeout: 120_000 }, () => {
  let p: Project;
  let d: Daemon;
  const saved = { runtime: process.env['XDG_RUNTIME_DIR'], socket: process.env['SVC_SOCKET'], config: process.env['SVC_CONFIG'] };
  before(async () => {
    p = project();
    p.write('specs/pets.yaml', openapi('Pets', [
      { method: 'GET', path: '/pets', summary: 'List pets', tag: 'pets' },
      { method: 'POST', path: '/pets', summary: 'Add a pet', tag: 'pets' },
      { method: 'GET', path: '/stores', summary: `List stores${ESC}]0;title\u0007`, tag: 'stores' },
    ]));
    p.config(['specs/pets.yaml']);
    // Where the CLI in this process looks for the daemons of a config: the project's runtime folder.
    process.env['XDG_RUNTIME_DIR'] = p.runtime;
    delete process.env['SVC_SOCKET'];
    delete process.env['SVC_CONFIG'];
    d = await startDaemon(p, ['--transport', 'stdio']);
  });
  after(async () => {
    await d?.stop();
    p?.cleanup();
    for (const [key, value] of [['XDG_RUNTIME_DIR', saved.runtime], ['SVC_SOCKET', saved.socket], ['SVC_CONFIG', saved.config]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('status: the daemon of the config, as text and as JSON, exit 0', async () => {
    const text = await cli(p, ['status']);
    assert.equal(text.code, 0, text.err);
    assert.equal(text.err, '');
    assert.match(text.out, new RegExp(`pid ${d.pid}`));
    assert.match(text.out, /pets/);
    assert.ok(text.out.endsWith('\n') && !text.out.endsWith('\n\n'), JSON.stringify(text.out));
    const json = await cli(p, ['status', '--json']);
    assert.equal(json.code, 0);
    const parsed = JSON.parse(json.out) as { daemons: { socket: string; pid: number; status: { pid: number; specs: { name: string }[] } }[] };
    assert.equal(parsed.daemons.length, 1);
    assert.equal(parsed.daemons[0]!.socket, d.socket);
    assert.equal(parsed.daemons[0]!.pid, d.pid);
    assert.equal(parsed.daemons[0]!.status.pid, d.pid);
    assert.deepEqual(parsed.daemons[0]!.status.specs.map((s) => s.name), ['pets']);
    assert.ok(json.out.endsWith('}\n'));
  });

  it('update: every daemon re-reads the specs; text names the daemon, JSON holds each result and the wall time', async () => {
    const started = performance.now();
    const json = await cli(p, ['update', '--json']);
    const wall = performance.now() - started;
    assert.equal(json.code, 0, json.err);
    assert.equal(json.err, '');
    const parsed = JSON.parse(json.out) as { daemons: { pid: number; socket: string; config: string; result: { ok: boolean; ms: number } }[]; wallMs: number };
    assert.deepEqual(Object.keys(parsed), ['daemons', 'wallMs']);
    assert.equal(parsed.daemons.length, 1);
    assert.deepEqual([parsed.daemons[0]!.pid, parsed.daemons[0]!.socket, parsed.daemons[0]!.config], [d.pid, d.socket, p.configFile]);
    assert.equal(parsed.daemons[0]!.result.ok, true);
    assert.ok(parsed.wallMs > 0 && parsed.wallMs <= wall + 0.05, `${parsed.wallMs} of ${wall}`);
    assert.ok(parsed.wallMs >= Math.floor(parsed.daemons[0]!.result.ms), `${parsed.wallMs} against the daemon's ${parsed.daemons[0]!.result.ms}`);
    assert.equal(Math.round(parsed.wallMs * 10) / 10, parsed.wallMs);

    const text = await cli(p, ['update']);
    assert.equal(text.code, 0, text.err);
    assert.ok(text.out.startsWith(`daemon pid ${d.pid}:\n`), text.out);
    assert.match(text.out, /\n {2}1 spec unchanged\n/);
    assert.ok(text.out.endsWith('\n') && !text.out.endsWith('\n\n'));
  });

  it('update: a spec that fails to import makes exit 1; past five warnings the text names the check of this config', async () => {
    p.write('specs/pets.yaml', 'openapi: 3.0.3\ninfo: [\n');
    try {
      const text = await cli(p, ['update']);
      assert.equal(text.code, 1, text.out);
      assert.match(text.out, /pets: FAILED/);
      const json = await cli(p, ['update', '--json']);
      assert.equal(json.code, 1);
      assert.equal(JSON.parse(json.out).daemons[0].result.ok, false);
      const traces = Array.from({ length: 7 }, (_, i) => `  /t${i}:\n    trace:\n      responses: { '200': { description: ok } }\n`).join('');
      p.write('specs/pets.yaml', `openapi: 3.0.3\ninfo: { title: Pets, version: '1' }\npaths:\n  /pets:\n    get:\n      responses: { '200': { description: ok } }\n${traces}`);
      const warned = await cli(p, ['update']);
      assert.equal(warned.code, 0, warned.out);
      assert.ok(warned.out.includes(`more warnings (\`svc check --config ${p.configFile}\` shows all)`), warned.out);
    } finally {
      p.write('specs/pets.yaml', openapi('Pets', [
        { method: 'GET', path: '/pets', summary: 'List pets', tag: 'pets' },
        { method: 'POST', path: '/pets', summary: 'Add a pet', tag: 'pets' },
        { method: 'GET', path: '/stores', summary: `List stores${ESC}]0;title\u0007`, tag: 'stores' },
      ]));
      assert.equal((await cli(p, ['update'])).code, 0);
    }
  });

  it('search: the words of the query as one, the filters, the method in upper case; text without escapes or JSON', async () => {
    const text = await cli(p, ['search', 'list', 'stores']);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /pets:GET:\/stores/);
    assert.ok(!text.out.includes(ESC), JSON.stringify(text.out));
    const json = await cli(p, ['search', 'pets', '--method', 'post', '--limit', '5', '--spec', 'pets', '--json']);
    assert.equal(json.code, 0, json.err);
    const hits = JSON.stringify(JSON.parse(json.out));
    assert.match(hits, /pets:POST:\/pets/);
    assert.doesNotMatch(hits, /pets:GET:\/pets"/);
    const none = await cli(p, ['search', 'pets', '--spec', 'nosuch']);
    assert.notEqual(none.code, 0);
    assert.match(none.err, /nosuch/);
  });

  it('list: the specs, then one spec\'s endpoints by tag; a page size as a number', async () => {
    const specs = await cli(p, ['list']);
    assert.equal(specs.code, 0, specs.err);
    assert.match(specs.out, /pets/);
    const tagged = await cli(p, ['list', '--spec', 'pets', '--tag', 'stores', '--limit', '1']);
    assert.equal(tagged.code, 0, tagged.err);
    assert.match(tagged.out, /pets:GET:\/stores/);
    assert.doesNotMatch(tagged.out, /pets:POST:\/pets/);
    const json = await cli(p, ['list', '--spec', 'pets', '--limit', '1', '--json']);
    assert.equal(json.code, 0, json.err);
    assert.match(json.out, /nextCursor/);
  });

  it('search and list pass each filter on: collection, tag, limit, cursor; a bad value is the daemon\'s message on stderr', async () => {
    const limited = await cli(p, ['search', 'pets', '--limit', '1', '--json']);
    assert.equal(limited.code, 0, limited.err);
    assert.equal((JSON.stringify(JSON.parse(limited.out)).match(/pets:(GET|POST):/g) ?? []).length, 1, limited.out);
    const tagged = await cli(p, ['search', 'list', '--tag', 'stores']);
    assert.match(tagged.out, /pets:GET:\/stores/);
    assert.doesNotMatch(tagged.out, /pets:GET:\/pets\b/);
    for (const args of [['search', 'pets', '--collection', 'nosuch'], ['list', '--collection', 'nosuch']]) {
      const r = await cli(p, args);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.err, /nosuch/, args.join(' '));
    }
    assert.equal((await cli(p, ['list', '--collection', 'default'])).code, 0);
    const page = JSON.parse((await cli(p, ['list', '--spec', 'pets', '--limit', '1', '--json'])).out) as { nextCursor?: string };
    assert.ok(page.nextCursor, JSON.stringify(page));
    const next = await cli(p, ['list', '--spec', 'pets', '--limit', '1', '--cursor', page.nextCursor, '--json']);
    assert.equal(next.code, 0, next.err);
    assert.notEqual(next.out, JSON.stringify(page) + '\n');
    const bad = await cli(p, ['list', '--spec', 'pets', '--cursor', 'not-a-cursor']);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^cursor "not-a-cursor" is not one this server gave out\n/);
    assert.equal(bad.out, '');
    // Parameters the daemon refuses before the tool runs: its message, on one line after svc:.
    const refused = await cli(p, ['search', 'pets', '--limit', '1.5']);
    assert.equal(refused.code, 1);
    assert.equal(refused.err, 'svc: search: limit: limit must be a whole number\n');
    assert.equal(refused.out, '');
  });

  it('inspect: the endpoint, a depth as a number, a bad depth or id with the tool\'s message on stderr and exit 1', async () => {
    const ok = await cli(p, ['inspect', 'pets:POST:/pets']);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /Add a pet/);
    assert.equal((await cli(p, ['inspect', 'pets:POST:/pets', '--depth', '2'])).code, 0);
    const deep = await cli(p, ['inspect', 'pets:POST:/pets', '--depth', '9']);
    assert.equal(deep.code, 1);
    assert.match(deep.err, /depth/);
    const word = await cli(p, ['inspect', 'pets:POST:/pets', '--depth', 'two']);
    assert.equal(word.code, 1);
    assert.match(word.err, /depth/);
    const missing = await cli(p, ['inspect', 'pets:GET:/nothing']);
    assert.equal(missing.code, 1);
    assert.equal(missing.out, '');
    assert.match(missing.err, /pets:GET:\/nothing/);
    const none = await cli(p, ['inspect', '']);
    assert.equal(none.code, 1);
  });

  it('--socket: the daemon on that socket, whatever the config says', async () => {
    const run = await cli(p, ['status', '--json', '--socket', d.socket]);
    assert.equal(run.code, 0, run.err);
    assert.equal(JSON.parse(run.out).daemons[0].pid, d.pid);
  });
});

describe('svc commands with no daemon, in process', { skip, timeout: 60_000 }, () => {
  const block = daemonlessProject();

  it('say where they looked and how to start one, exit 2; --json says no-daemon', async () => {
    const p = block.current();
    for (const command of [['status'], ['update'], ['search', 'pets'], ['list'], ['inspect', 'pets:GET:/pets']]) {
      const run = await cli(p, command);
      assert.equal(run.code, 2, command.join(' '));
      assert.equal(run.out, '', command.join(' '));
      assert.equal(
        run.err,
        `svc: no daemon is serving ${p.configFile} (looked in ${socketDir(p)})\n  hint: start one with \`svc serve --config ${p.configFile}\` (or let your MCP client start it), then run this again\n`,
        command.join(' '),
      );
    }
    for (const command of ['status', 'update']) {
      const run = await cli(p, [command, '--json']);
      assert.equal(run.code, 2);
      assert.equal(run.out, '{"daemons":[],"error":"no-daemon"}\n');
    }
    const socket = join(p.runtime, 'elsewhere', '9.sock');
    mkdirSync(join(p.runtime, 'elsewhere'), { recursive: true });
    const explicit = await cli(p, ['status', '--socket', socket]);
    assert.equal(explicit.code, 2);
    assert.ok(explicit.err.includes(`(looked in ${socket})`), explicit.err);
    assert.ok(explicit.err.includes(`\`svc serve --config ${p.configFile} --socket ${socket}\``), explicit.err);
  });
});
