// The installed daemon's script and its code cache (bin/script-cache.js), on a small script laid out
// as the build lays out the real one: each start is a real Node process, since V8 accepts or rejects
// a code cache per process, and the first cache is written by a process of its own (a real one
// here too). The whole package is covered by pack-install.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
// @ts-expect-error plain JavaScript without declarations (it runs before anything is loaded)
import { codeCacheDir, readCodeCache, runtimeFlags, tidyCodeCache, writeCodeCache } from '../../bin/script-cache.js';

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'script-cache.js');

/** A program as the build writes it: one function expression, with enough functions for V8 to cache. */
function program(tag: string): string {
  const fns = Array.from({ length: 40 }, (_, i) => `function f${i}(x) { return x.map((y) => y * ${i} + ${JSON.stringify(tag)}.length).join(','); }`).join('\n');
  return `(function (exports, require, module, __filename, __dirname, __svcMetaUrl) {\n${fns}\nmodule.exports.answer = () => [${Array.from({ length: 40 }, (_, i) => `f${i}([1, 2])`).join(', ')}].join(';') + ' ' + __svcMetaUrl.endsWith('/main.js');\n})`;
}

describe('the daemon script and its code cache', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const setup = (source: string, sha256 = 'a'.repeat(64)) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-script-cache-'));
    dirs.push(dir);
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'svc-script.cjs'), source);
    writeFileSync(join(app, 'script.json'), JSON.stringify({ file: 'svc-script.cjs', sha256 }));
    return { app, cache: join(dir, 'cache', 'svc-script') };
  };
  /**
   * One start: runs the script when its cache allows, says what the runner traced, calls the program,
   * calls the save hook when asked (as serve does after its first answers).
   */
  const start = (app: string, cache: string, save = true): { trace: string; answer: string | null } => {
    const code = `
      const { runScript } = await import(${JSON.stringify(RUNNER)});
      const trace = [];
      const program = runScript(${JSON.stringify(app)}, ${JSON.stringify(cache)}, (line) => trace.push(line));
      const answer = program ? program.answer() : null;
      ${save ? "globalThis[Symbol.for('svc.codeCache')].save();" : ''}
      process.stdout.write(JSON.stringify({ trace: trace.join('; '), answer }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as { trace: string; answer: string | null };
  };
  const cacheFiles = (cache: string): string[] => {
    try {
      return readdirSync(cache).filter((f) => f.endsWith('.bin'));
    } catch {
      return [];
    }
  };
  /** The first cache, which a process of its own writes after the first start: waited for. */
  const seeded = async (cache: string): Promise<string> => {
    for (let i = 0; cacheFiles(cache).length === 0 && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const [file] = cacheFiles(cache);
    assert.ok(file, 'a first cache is written by the seeding process');
    return join(cache, file);
  };
  const NOT_RUN = 'script not run (no code cache)';

  it('without a cache the script is not run and a process of its own writes a first cache; starts run it from there, rewrite it while young, then leave it alone', async () => {
    const { app, cache } = setup(program('one'));
    assert.deepEqual(start(app, cache), { trace: NOT_RUN, answer: null });
    const file = await seeded(cache);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(cache).mode & 0o777, 0o700);
    const second = start(app, cache);
    assert.equal(second.trace, 'script compiled (code cache accepted, generation 0); script run');
    assert.match(second.answer ?? '', / true$/, 'the program sees a main.js URL in its folder as import.meta.url');
    assert.equal(start(app, cache).trace, 'script compiled (code cache accepted, generation 1); script run');
    assert.equal(start(app, cache).trace, 'script compiled (code cache accepted, generation 2); script run');
    const kept = readFileSync(file);
    assert.equal(start(app, cache).trace, 'script compiled (code cache accepted, generation 2); script run');
    assert.deepEqual(readFileSync(file), kept, 'an old cache is not written again');
    assert.equal(start(app, cache, false).answer, second.answer, 'the program runs the same from its cache');
  });

  it('a cache V8 rejects is replaced after the run: the script compiles, runs, and the next start takes the new cache', async () => {
    const { app, cache } = setup(program('one'));
    start(app, cache);
    const file = await seeded(cache);
    writeCodeCache(file, Buffer.from('not a V8 code cache, but whole and checksummed'), 1);
    const run = start(app, cache);
    assert.equal(run.trace, 'script compiled (code cache rejected); script run');
    assert.match(run.answer ?? '', / true$/);
    assert.equal(start(app, cache).trace, 'script compiled (code cache accepted, generation 1); script run');
  });

  it('another script (another sha256) has a cache file of its own', async () => {
    const { app, cache } = setup(program('one'), 'a'.repeat(64));
    start(app, cache);
    await seeded(cache);
    writeFileSync(join(app, 'svc-script.cjs'), program('two'));
    writeFileSync(join(app, 'script.json'), JSON.stringify({ file: 'svc-script.cjs', sha256: 'b'.repeat(64) }));
    assert.equal(start(app, cache, false).trace, NOT_RUN);
    assert.equal(cacheFiles(cache).length, 1);
  });

  it('a damaged cache file, or one others can write, is not given to V8: the start loads without the script', async () => {
    const { app, cache } = setup(program('one'));
    start(app, cache);
    const file = await seeded(cache);
    const good = readFileSync(file);
    assert.match(start(app, cache, false).trace, /accepted/);
    const damaged = Buffer.from(good);
    damaged[good.length - 5]! ^= 0xff;
    writeFileSync(file, damaged);
    assert.equal(start(app, cache, false).trace, NOT_RUN);
    writeFileSync(file, good);
    chmodSync(file, 0o622);
    assert.equal(start(app, cache, false).trace, NOT_RUN);
  });

  it('an unreadable script.json leaves the program to the ES modules, with no cache asked for', () => {
    const { app, cache } = setup(program('one'));
    writeFileSync(join(app, 'script.json'), '{"file": "svc-scr');
    const run = start(app, cache, false);
    assert.equal(run.answer, null);
    assert.match(run.trace, /^script not run \(.*JSON/);
    assert.deepEqual(cacheFiles(cache), []);
  });

  it('a script file gone from the install, with its cache still there, leaves the program to the ES modules', async () => {
    const { app, cache } = setup(program('one'));
    start(app, cache);
    await seeded(cache);
    rmSync(join(app, 'svc-script.cjs'));
    const run = start(app, cache, false);
    assert.equal(run.answer, null);
    assert.match(run.trace, /^script not run \(ENOENT/);
  });

  it('any one changed byte or a cut anywhere in a cache file makes it unreadable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-script-cache-'));
    dirs.push(dir);
    const file = join(dir, 'c.bin');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(7), fc.nat(), fc.integer({ min: 1, max: 255 }), (data, generation, at, flip) => {
        writeCodeCache(file, Buffer.from(data), generation);
        const whole = readFileSync(file);
        const read = readCodeCache(file) as { data: Buffer; generation: number } | undefined;
        assert.deepEqual(read && { data: [...read.data], generation: read.generation }, { data: [...data], generation });
        const changed = Buffer.from(whole);
        changed[at % whole.length]! ^= flip;
        writeFileSync(file, changed);
        assert.equal(readCodeCache(file), undefined, `byte ${at % whole.length} changed`);
        writeFileSync(file, whole.subarray(0, at % whole.length));
        assert.equal(readCodeCache(file), undefined, `cut at ${at % whole.length}`);
      }),
      { numRuns: 200 },
    );
  });

  it('the cache folder: NODE_DISABLE_COMPILE_CACHE turns it off, NODE_COMPILE_CACHE moves it, else the user cache folder', () => {
    assert.equal(codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1', XDG_CACHE_HOME: '/c' }, '/h'), undefined);
    assert.equal(codeCacheDir({ NODE_COMPILE_CACHE: '/n' }, '/h'), join('/n', 'svc-script'));
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/c' }, '/h'), join('/c', 'svc', 'node-compile-cache', 'svc-script'));
    assert.equal(codeCacheDir({}, '/h'), join('/h', '.cache', 'svc', 'node-compile-cache', 'svc-script'));
    assert.equal(codeCacheDir({}, undefined), undefined);
  });

  it('cache files unused for 30 days (other versions of svc or Node) and day-old temp files are removed; the one in use is marked used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-script-cache-'));
    dirs.push(dir);
    const now = Date.now();
    const day = 24 * 3600 * 1000;
    const file = (name: string, ageDays: number): string => {
      const f = join(dir, name);
      writeFileSync(f, 'x');
      utimesSync(f, new Date(now - ageDays * day), new Date(now - ageDays * day));
      return f;
    };
    const kept = file('aaaaaaaaaaaaaaaa-v24.21.0-x64.bin', 40);
    const old = file('bbbbbbbbbbbbbbbb-v24.20.0-x64.bin', 31);
    const recent = file('cccccccccccccccc-v22.22.0-arm64.bin', 29);
    const deadTemp = file('cccccccccccccccc-v22.22.0-arm64.bin.4242.tmp', 2);
    const freshTemp = file('cccccccccccccccc-v22.22.0-arm64.bin.4243.tmp', 0.5);
    const other = file('notes.txt', 400);
    await tidyCodeCache(dir, kept, now);
    assert.deepEqual([kept, old, recent, deadTemp, freshTemp, other].map((f) => existsSync(f)), [true, false, true, false, true, true]);
    assert.ok(now - statSync(kept).mtimeMs < day, 'the cache in use is marked used now');
  });

  it("the seeding process gets the daemon's Node options, not the code they were given to run", () => {
    assert.deepEqual(runtimeFlags(['--expose-gc', '--input-type=module', '-e', 'code', '--max-old-space-size=100']), ['--expose-gc', '--max-old-space-size=100']);
    assert.deepEqual(runtimeFlags(['-p', 'code', '--eval=more', '--print=x', '--stack-size=900']), ['--stack-size=900']);
    assert.deepEqual(runtimeFlags(['--eval', 'code', '-i']), []);
  });
});
