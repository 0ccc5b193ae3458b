// The `svc` program run in this process (runCli), where mutation testing sees its code: the help
// of every command as documented (test/fixtures/cli/help.txt), the version, exit codes and messages
// for an unknown command or option and for a failing command (its hint on a second line, no terminal
// escapes, the stack only with SVC_DEBUG); which config a command uses (--config, -c, SVC_CONFIG,
// ./svc.yaml) and which socket (--socket, svc.yaml's `socket:` in each way YAML writes it, the
// runtime folder); the command that starts a daemon, as a shell would read it; the options the
// read-only commands pass on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { quote, startCommand, targetFor } from '../../src/cli/daemons.ts';
import { pick } from '../../src/cli/mirror.ts';
import { runCli } from '../../src/cli/program.ts';
import type { CommandContext } from '../../src/cli/types.ts';
import { configKey } from '../../src/ipc/paths.ts';
import { captureStream } from '../support/tty.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const ESC = '\u001b';

/** Runs `svc ARGS` here: exit code, what went to the streams, and what cac printed (help, version) with console.info. */
async function run(args: readonly string[], env: NodeJS.ProcessEnv = {}, script = 'svc') {
  const stdout = captureStream(false, 80);
  const stderr = captureStream(false, 80);
  const printed: string[] = [];
  const info = console.info;
  console.info = (...parts: unknown[]) => void printed.push(parts.join(' '));
  try {
    const code = await runCli(['node', script, ...args], { stdout, stderr, env });
    return { code, out: stdout.text, err: stderr.text, printed: printed.join('\n') };
  } finally {
    console.info = info;
  }
}

const dirs: string[] = [];
const saved = { runtime: process.env['XDG_RUNTIME_DIR'], socket: process.env['SVC_SOCKET'], debug: process.env['SVC_DEBUG'] };
let runtime: string;
before(() => {
  runtime = mkdtempSync(join(tmpdir(), 'svc-cli-rt-'));
  dirs.push(runtime);
  // The daemons the commands look for are in this runtime folder: none.
  process.env['XDG_RUNTIME_DIR'] = runtime;
  delete process.env['SVC_SOCKET'];
  delete process.env['SVC_DEBUG'];
});
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const [key, value] of [['XDG_RUNTIME_DIR', saved.runtime], ['SVC_SOCKET', saved.socket], ['SVC_DEBUG', saved.debug]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  dirs.push(dir);
  return dir;
};

describe('svc help, version and usage errors', () => {
  it('prints the help of svc and of every command as documented, exit 0; no command at all prints the first', async () => {
    const expected = readFileSync(join(ROOT, 'test', 'fixtures', 'cli', 'help.txt'), 'utf8');
    let text = '';
    for (const args of [['--help'], ...['check', 'serve', 'update', 'status', 'search', 'inspect', 'list'].map((c) => [c, '--help'])]) {
      const r = await run(args);
      assert.equal(r.code, 0, args.join(' '));
      const [first, ...rest] = r.printed.split('\n');
      assert.equal(first, `svc/${VERSION}`);
      text += `$ svc ${args.join(' ')}\n${rest.map((l) => l.trimEnd()).join('\n')}\n`;
    }
    assert.equal(text, expected);
    // The program is svc whatever file runs it (bin/svc.js, the installed script).
    assert.equal((await run(['--help'], {}, '/opt/svc/bin/svc.js')).printed.split('\n')[3], '  $ svc <command> [options]');
    const bare = await run([]);
    assert.equal(bare.code, 0);
    const first = expected.split('\n$ svc check --help\n')[0]!.split('\n').slice(1).join('\n');
    assert.equal(bare.printed.split('\n').map((l) => l.trimEnd()).slice(1).join('\n'), first);
  });

  it('prints the version of the package, exit 0', async () => {
    const r = await run(['--version']);
    assert.equal(r.code, 0);
    assert.equal(r.printed, `svc/${VERSION} ${process.platform}-${process.arch} node-${process.version}`);
    assert.equal(r.out + r.err, '');
  });

  it('refuses an unknown command or option with exit 2 and what to do', async () => {
    const command = await run(['frobnicate']);
    assert.equal(command.code, 2);
    assert.equal(command.err, 'svc: unknown command `frobnicate`\n  hint: run `svc --help` for the list of commands\n');
    assert.equal(command.printed, '');
    const option = await run(['status', '--bogus']);
    assert.equal(option.code, 2);
    assert.match(option.err, /^svc: Unknown option `--bogus`\n$/);
    const missing = await run(['inspect']);
    assert.equal(missing.code, 2);
    assert.equal(missing.err, 'svc: missing required args for command `inspect <id>`\n');
  });
});

describe('a command that fails', () => {
  it('exits 1 with the message on one stderr line and its hint on the next', async () => {
    const holder = createServer();
    await new Promise<void>((done) => holder.listen({ host: '127.0.0.1', port: 0 }, done));
    const port = (holder.address() as AddressInfo).port;
    const dir = tempDir();
    writeFileSync(join(dir, 'pets.json'), JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} }));
    writeFileSync(join(dir, 'svc.yaml'), 'specs:\n  - pets.json\n');
    try {
      const r = await run(['serve', '--transport', 'http', '--port', String(port), '--config', join(dir, 'svc.yaml')]);
      assert.equal(r.code, 1);
      const [message, hint, end] = r.err.split('\n');
      assert.match(message!, new RegExp(`^svc: port ${port} on 127\\.0\\.0\\.1 is already in use( by pid ${process.pid}( \\([^)]+\\))?)?$`));
      assert.match(hint!, /^ {2}hint: (stop pid \d+, or )?start with another port: --port N/);
      assert.equal(end, '');
      assert.equal(r.out, '');
    } finally {
      holder.close();
    }
  });

  it('prints no terminal escape of what the message quotes, and its stack only with SVC_DEBUG', async () => {
    const dir = tempDir();
    const file = join(dir, `a${ESC}]0;title\u0007b${ESC}[2J.yaml`);
    const r = await run(['check', file]);
    assert.equal(r.code, 1);
    assert.ok(!r.err.includes(ESC) && !r.err.includes('\u0007'), JSON.stringify(r.err));
    assert.ok(r.err.startsWith('svc: '), r.err);
    assert.match(r.err, /ab\.yaml does not exist/);
    assert.doesNotMatch(r.err, /\n {4}at /);
    process.env['SVC_DEBUG'] = '1';
    try {
      const debug = await run(['check', file]);
      assert.equal(debug.code, 1);
      assert.match(debug.err, /\n {4}at /);
    } finally {
      delete process.env['SVC_DEBUG'];
    }
  });
});

describe('which config and which daemon a command means', () => {
  const noDaemon = (config: string, start: string) =>
    `svc: no daemon is serving ${resolve(config)} (looked in ${join(runtime, 'svc', configKey(resolve(config)))})\n` +
    `  hint: start one with \`${start}\` (or let your MCP client start it), then run this again\n`;

  it('--config or -c first, then SVC_CONFIG, then ./svc.yaml (an empty SVC_CONFIG is none)', async () => {
    const dir = tempDir();
    const flag = join(dir, 'flag.yaml');
    const env = join(dir, 'env.yaml');
    const both = await run(['status', '--config', flag], { SVC_CONFIG: env });
    assert.equal(both.code, 2);
    assert.equal(both.err, noDaemon(flag, `svc serve --config ${flag}`));
    assert.equal((await run(['status', '--config', 'svc.yaml'])).err, noDaemon('svc.yaml', 'svc serve --config svc.yaml'));
    assert.equal((await run(['status', '-c', flag])).err, noDaemon(flag, `svc serve --config ${flag}`));
    assert.equal((await run(['status'], { SVC_CONFIG: env })).err, noDaemon(env, `svc serve --config ${env}`));
    assert.equal((await run(['status'], { SVC_CONFIG: '' })).err, noDaemon('svc.yaml', 'svc serve'));
    assert.equal((await run(['status'])).err, noDaemon('svc.yaml', 'svc serve'));
    // Named, even as svc.yaml: the command that starts a daemon names it too.
    assert.equal((await run(['status'], { SVC_CONFIG: 'svc.yaml' })).err, noDaemon('svc.yaml', 'svc serve --config svc.yaml'));
  });

  it("reads svc.yaml's socket: quoted either way, bare, with a comment; not a nested key, an empty value or a comment", () => {
    const dir = tempDir();
    const config = join(dir, 'svc.yaml');
    const ctx = (options: Record<string, unknown> = {}): CommandContext => ({ args: [], options, configFile: config, configExplicit: true, stdout: process.stdout, stderr: process.stderr });
    const fromConfig = (path: string) => ({ kind: 'explicit', path, source: 'socket (in svc.yaml)' });
    const cases: [string, object | undefined][] = [
      ['socket: "/run/a b.sock"\n', fromConfig('/run/a b.sock')],
      ["socket: 'run/s.sock'\n", fromConfig(join(dir, 'run/s.sock'))],
      ['specs: []\nsocket: run/s.sock   # the control socket\n', fromConfig(join(dir, 'run/s.sock'))],
      ['socket:\trun/t.sock\t\n', fromConfig(join(dir, 'run/t.sock'))],
      ['socket:   run/spaced.sock\n', fromConfig(join(dir, 'run/spaced.sock'))],
      ['socket: run/two  blanks.sock\n', fromConfig(join(dir, 'run/two  blanks.sock'))],
      // A # starts a comment only after a space, as in YAML (and so in the daemon's reading).
      ['socket: run/a#b.sock\n', fromConfig(join(dir, 'run/a#b.sock'))],
      ['socket: run/my socket.sock #comment\n', fromConfig(join(dir, 'run/my socket.sock'))],
      ['specs: []\r\nsocket: run/crlf.sock\r\n', fromConfig(join(dir, 'run/crlf.sock'))],
      ['socket: "run/q.sock" # quoted\r\n', fromConfig(join(dir, 'run/q.sock'))],
      ['serve:\n  socket: nested.sock\n', undefined],
      ['socket:\n', undefined],
      ['socket: # none\n', undefined],
      ['sockets: x.sock\n', undefined],
    ];
    for (const [text, expected] of cases) {
      writeFileSync(config, text);
      const target = targetFor(ctx());
      if (expected) assert.deepEqual(target, expected, text);
      else assert.deepEqual(target, { kind: 'dir', dir: join(runtime, 'svc', configKey(config)), source: 'XDG_RUNTIME_DIR' }, text);
    }
    writeFileSync(config, 'socket: from-config.sock\n');
    assert.deepEqual(targetFor(ctx({ socket: 'flag.sock' })), { kind: 'explicit', path: resolve('flag.sock'), source: '--socket' });
    assert.deepEqual(targetFor(ctx({ socket: 7 })), fromConfig(join(dir, 'from-config.sock')));
    rmSync(config);
    assert.equal(targetFor(ctx()).kind, 'dir');
  });

  it('names --config and --socket in the command that starts a daemon only when the user named them', () => {
    const ctx = (configFile: string, configExplicit: boolean): CommandContext => ({ args: [], options: {}, configFile, configExplicit, stdout: process.stdout, stderr: process.stderr });
    const dirTarget = { kind: 'dir', dir: '/run/svc/x', source: 'XDG_RUNTIME_DIR' } as const;
    assert.equal(startCommand(ctx('svc.yaml', false), dirTarget), 'svc serve');
    assert.equal(startCommand(ctx('svc.yaml', true), dirTarget), 'svc serve --config svc.yaml');
    assert.equal(startCommand(ctx('apis/svc.yaml', false), dirTarget), 'svc serve --config apis/svc.yaml');
    assert.equal(startCommand(ctx('my apis/svc.yaml', true), dirTarget), "svc serve --config 'my apis/svc.yaml'");
    assert.equal(startCommand(ctx('svc.yaml', false), { kind: 'explicit', path: '/run/s.sock', source: '--socket' }), 'svc serve --socket /run/s.sock');
    assert.equal(startCommand(ctx('svc.yaml', false), { kind: 'explicit', path: '/run/s.sock', source: 'SVC_SOCKET' }), 'svc serve');
    assert.equal(startCommand(ctx('svc.yaml', false), { kind: 'explicit', path: '/run/s.sock', source: 'socket (in svc.yaml)' }), 'svc serve');
  });

  it('quotes a path as one shell word that the shell reads back as the path, bare when it needs no quotes', { skip: process.platform === 'win32' ? 'POSIX shell' : false }, () => {
    const char = fc.constantFrom('a', 'Z', '0', '_', '.', '/', ':', '@', '%', '+', '=', ',', '-', ' ', "'", '"', '$', '`', '\\', '!', '*', '?', '~', '#', ';', '&', '|', '(', ')', '<', '>', '\n', '\t', 'é', '{', '}', '[', ']');
    fc.assert(
      fc.property(fc.string({ unit: char, maxLength: 12 }), (path) => {
        const word = quote(path);
        const shell = spawnSync('sh', ['-c', `printf '%s' ${word}`], { encoding: 'utf8' });
        assert.equal(shell.stdout, path, `${JSON.stringify(path)} as ${word}`);
        assert.equal(word === path, /^[\w./:@%+=,-]+$/.test(path), word);
      }),
      { numRuns: 150 },
    );
    assert.equal(quote(''), "''");
    assert.equal(quote("it's"), "'it'\\''s'");
  });
});

describe('the options the read-only commands pass on', () => {
  it('keeps only the options given, a limit of digits as a number, and names cac read as numbers as text', () => {
    assert.deepEqual(pick({ spec: 123, tag: false, collection: undefined, cursor: 'c1', limit: '5', other: 'x' }, ['spec', 'tag', 'collection', 'cursor', 'limit']), { spec: '123', cursor: 'c1', limit: 5 });
    assert.deepEqual(pick({ limit: 7 }, ['limit']), { limit: 7 });
    assert.deepEqual(pick({ limit: 'ten' }, ['limit']), { limit: 'ten' });
    assert.deepEqual(pick({ limit: '5x' }, ['limit']), { limit: '5x' });
    assert.deepEqual(pick({ limit: 'x5' }, ['limit']), { limit: 'x5' });
    assert.deepEqual(pick({ limit: '12' }, ['limit']), { limit: 12 });
    assert.deepEqual(pick({ spec: '5' }, ['spec']), { spec: '5' });
    assert.deepEqual(pick({ spec: true }, ['spec']), { spec: true });
    assert.deepEqual(pick({ spec: '' }, ['spec']), { spec: '' });
  });
});
