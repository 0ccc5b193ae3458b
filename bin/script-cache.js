// The installed package's program as one script, run with V8's code cache made AFTER the first
// answer. Node's compile cache (bin/svc.js) serializes a module's code right after compiling it, so
// it holds only the code V8 compiles eagerly (each module's top level); every function a start runs
// (snapshot decoding, the MCP handlers, search) is compiled again on every start, about 40 ms of a
// warm start's main thread. `vm.Script#createCachedData()` called once the first answer is out
// holds those functions too, and the next start deserializes them instead of compiling them.
//
// scripts/build.mjs writes the script (the whole program as a function body, CommonJS style) and
// script.json ({ file, sha256 }) beside the ESM build, which the import worker still runs. The cache
// file is named by the script's sha256 (V8 itself checks only the source's length, its version and
// its flags), the Node version and the architecture; it lives in the user's private cache folder
// beside Node's compile cache, is checked (magic, crc32, owner, not writable by others) before V8
// sees it, and is written by rename. A start without a cache file loads the ES modules instead
// (see runScript); a start whose cache was accepted writes it again only while it is young
// (GENERATIONS): the functions a later start runs and an early one did not are then in it too.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
// Plain JavaScript, no dependencies: it runs before anything is loaded.
// Node's modules through require, not ES module imports (see node-version.js).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { lstat, readdir, rm, utimes } = require('node:fs/promises');
const { dirname, join } = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');
const vm = require('node:vm');
const { crc32 } = require('node:zlib');

const MAGIC = Buffer.from('SVCCODE1');
/** magic (8) | crc32 of generation and data (4) | generation (4) | V8 code cache. */
const HEADER = 16;
/** Saves after which an accepted cache is left as it is: the first start's and the next one's. */
const GENERATIONS = 2;
/** The hook serve calls once the first answers are out (src/cli/code-cache.ts). */
const HOOK = Symbol.for('svc.codeCache');
/** The process that writes a first cache (`node seed-code-cache.js APP_DIR CACHE_DIR`). */
const SEEDER = fileURLToPath(new URL('./seed-code-cache.js', import.meta.url));

/** Cache files not used for this long are removed (a svc or Node version gone by). */
const UNUSED_MS = 30 * 24 * 3600 * 1000;

/**
 * Marks `keep` as used now and removes the folder's cache files unused for 30 days (and temp files
 * a write that died left for a day): other installs and Node versions share the folder, so age is
 * the only safe test. Never throws.
 */
export async function tidyCodeCache(dir, keep, now = Date.now()) {
  if (keep !== undefined) await utimes(keep, new Date(now), new Date(now)).catch(() => {});
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const temp = /^[0-9a-f]{16}-v[0-9.]+-[a-z0-9]+\.bin\.\d+\.tmp$/.test(name);
    if (!temp && !/^[0-9a-f]{16}-v[0-9.]+-[a-z0-9]+\.bin$/.test(name)) continue;
    const file = join(dir, name);
    if (file === keep) continue;
    try {
      const st = await lstat(file);
      if (st.isFile() && now - st.mtimeMs > (temp ? 24 * 3600 * 1000 : UNUSED_MS)) await rm(file, { force: true });
    } catch {
      // Gone already, or not ours to judge.
    }
  }
}

/** CRC-32 of the generation field and the data: any one damaged byte changes it. */
function checksum(generation, data) {
  return crc32(data, crc32(generation));
}

/** The folder for the cache files, or undefined when caching is off. */
export function codeCacheDir(env, home) {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  if (env.NODE_COMPILE_CACHE) return join(env.NODE_COMPILE_CACHE, 'svc-script');
  if (!home && !env.XDG_CACHE_HOME) return undefined;
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'svc', 'node-compile-cache', 'svc-script');
}

/** The cache file's data and generation, or undefined when it is missing, not ours, or damaged. */
export function readCodeCache(file) {
  let fd;
  try {
    fd = openSync(file, 'r');
    const stat = fstatSync(fd);
    // Code that V8 will run: only a file of this user's that nobody else can write.
    if (!stat.isFile() || (process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o022) !== 0) return undefined;
    const buf = readFileSync(fd);
    if (buf.length <= HEADER || !buf.subarray(0, 8).equals(MAGIC)) return undefined;
    const data = buf.subarray(HEADER);
    if (checksum(buf.subarray(12, HEADER), data) !== buf.readUInt32LE(8)) return undefined;
    return { data, generation: buf.readUInt32LE(12) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `data` whole (temp file, then rename), private to the user. */
export function writeCodeCache(file, data, generation) {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(generation, 12);
  header.writeUInt32LE(checksum(header.subarray(12, HEADER), data), 8);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, Buffer.concat([header, data]), { mode: 0o600 });
  renameSync(temp, file);
}

/** Node's options without the code they were given to run (`-e CODE`, `-p CODE`, `--input-type`). */
export function runtimeFlags(execArgv) {
  const flags = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') i++;
    else if (!/^--(eval|print|input-type)=/.test(arg) && arg !== '-i' && arg !== '--interactive') flags.push(arg);
  }
  return flags;
}

/** What the script in `appDir` is, and where its code cache goes (undefined: caching off). */
function scriptOf(appDir, cacheDir) {
  const manifest = JSON.parse(readFileSync(join(appDir, 'script.json'), 'utf8'));
  const filename = join(appDir, manifest.file);
  const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, `${manifest.sha256.slice(0, 16)}-${process.version}-${process.arch}.bin`);
  return { filename, cacheFile };
}

function compile(filename, cachedData) {
  // The script is one function expression: (exports, require, module, __filename, __dirname, __svcMetaUrl).
  return new vm.Script(readFileSync(filename, 'utf8'), {
    filename,
    ...(cachedData ? { cachedData } : {}),
    // The bundled packages keep a few import() calls (Node's own modules).
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
}

/**
 * Runs the script in `appDir` (named by its script.json) with its code cache from `cacheDir` and
 * returns its exports, or returns undefined when there is no usable cache file: compiling the
 * whole script without one costs a start more than loading the ES modules it needs (about 60 ms of
 * CPU before the import worker can start), so that start loads the ES modules, and once its first
 * answers are out a separate process compiles the script and writes a first cache (generation 0:
 * the top level only). A start that runs the script writes the cache again after its first answers,
 * with every function compiled by then, while the cache is young (GENERATIONS). Sets the hook serve
 * calls then; `trace` gets one line about the cache.
 */
export function runScript(appDir, cacheDir, trace) {
  let script;
  try {
    script = scriptOf(appDir, cacheDir);
  } catch (error) {
    // A damaged install (script.json unreadable): the ES modules still run the program.
    trace?.(`script not run (${error.message})`);
    return undefined;
  }
  const { filename, cacheFile } = script;
  const cached = cacheFile === undefined ? undefined : readCodeCache(cacheFile);
  if (cached === undefined) {
    trace?.('script not run (no code cache)');
    let seeded = false;
    globalThis[HOOK] = {
      save() {
        if (seeded || cacheFile === undefined) return;
        seeded = true;
        // Loaded here: a warm start never needs it (about 2.5 ms).
        import('node:child_process')
          .then(({ spawn }) => {
            // Same Node, same flags: V8 takes a code cache only from a process that matches.
            spawn(process.execPath, [...runtimeFlags(process.execArgv), SEEDER, appDir, cacheDir], { stdio: 'ignore' }).on('error', () => {}).unref();
          })
          .catch(() => {
            // Cannot start a process: the next start loads the ES modules again.
          });
      },
    };
    return undefined;
  }
  let compiled;
  try {
    compiled = compile(filename, cached.data);
  } catch (error) {
    trace?.(`script not run (${error.message})`);
    return undefined;
  }
  const accepted = compiled.cachedDataRejected === false;
  trace?.(`script compiled (code cache ${accepted ? `accepted, generation ${cached.generation}` : 'rejected'})`);
  let saved = false;
  globalThis[HOOK] = {
    save() {
      if (saved) return;
      saved = true;
      if (!accepted || cached.generation < GENERATIONS) {
        try {
          writeCodeCache(cacheFile, compiled.createCachedData(), accepted ? cached.generation + 1 : 1);
        } catch {
          // A cache folder that cannot be written: the next start compiles, as without a cache.
        }
      }
      void tidyCodeCache(cacheDir, cacheFile);
    },
  };
  const module = { exports: {} };
  // import.meta.url of the bundled sources: a file in the same folder, as for the ESM build.
  const metaUrl = pathToFileURL(join(appDir, 'main.js')).href;
  compiled.runInThisContext()(module.exports, createRequire(filename), module, filename, appDir, metaUrl);
  trace?.('script run');
  return module.exports;
}

/** The first code cache of the script in `appDir` (generation 0: what V8 compiles before running it). */
export async function seedCodeCache(appDir, cacheDir) {
  const { filename, cacheFile } = scriptOf(appDir, cacheDir);
  writeCodeCache(cacheFile, compile(filename).createCachedData(), 0);
  await tidyCodeCache(cacheDir, cacheFile);
}
