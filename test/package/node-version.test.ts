// The Node version guard (bin/node-version.js): the README's `npm ci` and `npm test` and the
// installed `svc` stop at once on a Node older than `engines.node`, naming the version needed and
// how to get it. The end-to-end part runs under an older Node when the machine has one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { minimumNode, nodeProblem, parseMinimum, satisfies } from '../../bin/node-version.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

const compare = (a: readonly number[], b: readonly number[]): number => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

describe('the Node version guard', () => {
  it('reads its minimum from engines.node in package.json', () => {
    assert.deepEqual(minimumNode(), parseMinimum(pkg.engines.node));
    assert.deepEqual(parseMinimum('>= 22.22'), [22, 22, 0]);
    assert.throws(() => parseMinimum('^22'), /engines\.node .* must read ">=X\.Y\.Z"/);
  });

  it('is no lower than what any dependency asks for, installed or bundled (chokidar 6: 22.22)', () => {
    const checked: string[] = [];
    // The bundle (scripts/build.mjs) holds the code of the runtime packages, which are therefore
    // devDependencies: every package is checked, since bundled code runs on the installed Node.
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
      const file = join(ROOT, 'node_modules', name, 'package.json');
      if (!existsSync(file)) continue;
      const range = (JSON.parse(readFileSync(file, 'utf8')) as { engines?: { node?: string } }).engines?.node;
      // Only plain lower bounds; `^20.19 || >=22.12` style ranges are met by any 22.22+.
      if (!range || !/^\s*>=\s*[\d.]+\s*$/.test(range)) continue;
      checked.push(name);
      assert.ok(compare(minimumNode(), parseMinimum(range)) >= 0, `${name} needs node ${range}, engines says ${pkg.engines.node}`);
    }
    assert.ok(checked.includes('chokidar'), `chokidar's engines were read (checked: ${checked.join(', ')})`);
  });

  it('accepts exactly the versions at or above the minimum', () => {
    const triple = fc.tuple(fc.nat(40), fc.nat(40), fc.nat(40));
    fc.assert(
      fc.property(triple, triple, fc.boolean(), (have, min, v) => {
        const text = `${v ? 'v' : ''}${have.join('.')}`;
        assert.equal(satisfies(text, min), compare(have, min) >= 0);
        assert.equal(nodeProblem(text, min) === undefined, compare(have, min) >= 0);
      }),
    );
  });

  it('names the version needed, the version found and how to get a newer Node', () => {
    const message = nodeProblem('20.20.2', [22, 22, 0]);
    assert.match(message ?? '', /svc needs Node 22\.22\.0 or newer; this is Node 20\.20\.2\./);
    assert.match(message ?? '', /nodejs\.org/);
    assert.match(message ?? '', /nvm install 24/);
    assert.match(message ?? '', /npm install --prefix \S+ node@24/);
  });

  it('runs before the tests and before a build', () => {
    assert.equal(pkg.scripts['pretest'], 'node bin/node-version.js');
    assert.match(pkg.scripts['build'] ?? '', /^node bin\/node-version\.js && /);
    assert.match(readFileSync(join(ROOT, '.npmrc'), 'utf8'), /^engine-strict=true$/m);
  });
});

/** A `node` on this machine older than the minimum: from PATH or the usual system places. */
function olderNode(): { node: string; version: string } | undefined {
  const candidates = [...(process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
  for (const node of new Set(candidates)) {
    if (!existsSync(node)) continue;
    const run = spawnSync(node, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const version = run.stdout?.trim();
    if (run.status === 0 && version && !satisfies(version, minimumNode())) return { node, version };
  }
  return undefined;
}

const old = olderNode();
const SKIP = old ? false : `no Node older than ${minimumNode().join('.')} on this machine (looked on PATH, /usr/bin, /usr/local/bin)`;

describe('under an older Node', { skip: SKIP }, () => {
  const oldBin = dirname(old?.node ?? '/');
  const env = { ...process.env, PATH: `${oldBin}${delimiter}/usr/bin${delimiter}/bin`, NODE_OPTIONS: '', npm_config_update_notifier: 'false' };
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A copy of what npm needs to start `npm ci` / `npm test` in this project, without its tests or modules. */
  const projectCopy = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-oldnode-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'bin'));
    for (const file of ['package.json', 'package-lock.json', '.npmrc', 'bin/node-version.js']) copyFileSync(join(ROOT, file), join(dir, file));
    return dir;
  };
  const npm = join(oldBin, 'npm');

  it(`svc itself stops with the message (${old?.version})`, () => {
    const run = spawnSync(old!.node, [join(ROOT, 'bin', 'svc.js'), '--version'], { encoding: 'utf8', env, timeout: 20_000 });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, new RegExp(`svc needs Node ${minimumNode().join('\\.')} or newer; this is Node ${old!.version.slice(1).replaceAll('.', '\\.')}`));
  });

  it('npm test stops in its pretest step with the message, before any test runs', { skip: existsSync(npm) ? false : `no npm beside ${old?.node}` }, () => {
    const dir = projectCopy();
    const run = spawnSync(npm, ['test'], { cwd: dir, encoding: 'utf8', env, timeout: 60_000 });
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr, /svc needs Node \d+\.\d+\.\d+ or newer/);
    assert.match(run.stderr, /nvm install 24/);
    assert.doesNotMatch(`${run.stdout}${run.stderr}`, /--test|Could not find/, 'the test runner never started');
  });

  it('npm ci refuses at once, naming the version needed, and installs nothing', { skip: existsSync(npm) ? false : `no npm beside ${old?.node}` }, () => {
    const dir = projectCopy();
    const started = Date.now();
    const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--offline'], { cwd: dir, encoding: 'utf8', env, timeout: 60_000 });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /EBADENGINE/);
    assert.ok(run.stderr.includes(`"node":"${pkg.engines.node}"`), run.stderr);
    assert.equal(existsSync(join(dir, 'node_modules')), false, 'no dependency was installed');
    assert.ok(Date.now() - started < 30_000);
  });
});
