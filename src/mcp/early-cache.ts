// Where the early answers (early.ts) live between runs: `<cache>/svc/early-answers/<fingerprint>.json`
// in the user's own cache folder ($XDG_CACHE_HOME, else ~/.cache), beside Node's compile cache
// (bin/svc.js). A stdio daemon that found no file writes one once the SDK is loaded (stdio.ts);
// the next start of the same build answers initialize and tools/list from it before the SDK loads.
//
// The fingerprint names the build: it changes whenever the answers could change, and is computed
// without loading zod, the SDK or the tool modules (about 1-2 ms): svc's version, the installed
// SDK and zod versions (their package.json files, read as text), and the content of every file in
// src/mcp, src/tools and src/model (the tools' schemas use src/model's constants; dist/ when installed).
//
// The file is a hint, never trusted blindly: it must be a regular file owned by this user and
// writable by nobody else (tool descriptions are what the model reads: a planted file would be a
// prompt injection), parse, have the expected shape and name the same fingerprint. Anything else
// is ignored and the SDK answers. This module loads nothing but node: built-ins.
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EarlyAnswers } from './early.ts';

/** The repository (or installed package) root: src/mcp/../.. (dist/mcp/../.. once compiled). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** `src` in a checkout, `dist` in an installed package (which ships compiled code only). */
const CODE_FOLDER = basename(fileURLToPath(new URL('../', import.meta.url)));

/** Folders whose files shape the answers: the adapter, the tool definitions, the constants they use. */
const SOURCE_FOLDERS = ['mcp', 'tools', 'model'].map((folder) => `${CODE_FOLDER}/${folder}`);
/** Packages whose version shapes the answers: the SDK (protocol versions, capabilities) and zod (JSON Schemas). */
const PACKAGES = ['@modelcontextprotocol/sdk', 'zod'] as const;
/** Bumped when the file's layout changes. */
const FORMAT = 1;
/** Older builds' files kept beside the current one (several installed versions may take turns). */
const KEEP_FILES = 8;

/**
 * The folder of the cached answers: `$XDG_CACHE_HOME/svc/early-answers`, else
 * `~/.cache/svc/early-answers`; undefined when there is no home folder. A relative
 * XDG_CACHE_HOME is ignored, as the XDG spec asks (it would land in the working folder).
 */
export function earlyCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const xdg = env['XDG_CACHE_HOME'];
  try {
    return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'svc', 'early-answers');
  } catch {
    return undefined;
  }
}

/** `version` of a package's package.json, looked up the way Node resolves a bare specifier from `from`. */
function installedVersion(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version?: unknown };
      return String(pkg.version);
    } catch {
      // not here (or unreadable): look one folder up
    }
    if (dirname(dir) === dir) return 'missing';
  }
}

/**
 * The fingerprint of the build under `root` (default: this package), a 32-digit hex string.
 * Throws when a source folder cannot be read (then there is no early path).
 */
export function earlyFingerprint(root: string = PACKAGE_ROOT): string {
  const hash = createHash('sha256');
  let version = 'unknown';
  try {
    version = String((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown }).version);
  } catch {
    // no package.json: the sources below still name the build
  }
  hash.update(`svc-early-answers/${FORMAT}\0svc@${version}\0`);
  for (const name of PACKAGES) hash.update(`${name}@${installedVersion(name, join(root, CODE_FOLDER, 'mcp'))}\0`);
  for (const folder of SOURCE_FOLDERS) {
    const dir = join(root, folder);
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!entry.isFile()) continue;
      let content: Buffer;
      try {
        content = readFileSync(join(dir, entry.name));
      } catch (error) {
        // Gone since readdir (an editor's temp file, a checkout in progress): it is not part of the build.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      hash.update(`${folder}/${entry.name}\0${content.length}\0`);
      hash.update(content);
    }
  }
  return hash.digest('hex').slice(0, 32);
}

export function earlyAnswersFile(dir: string, fingerprint: string): string {
  return join(dir, `${fingerprint}.json`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The shape early.ts relies on, checked field by field. */
function isEarlyAnswers(value: unknown): value is EarlyAnswers {
  if (!isObject(value)) return false;
  const { protocolVersions, latestProtocolVersion, capabilities, instructions, tools } = value;
  return (
    isStrings(protocolVersions) &&
    protocolVersions.length > 0 &&
    typeof latestProtocolVersion === 'string' &&
    protocolVersions.includes(latestProtocolVersion) &&
    isObject(capabilities) &&
    (instructions === undefined || typeof instructions === 'string') &&
    Array.isArray(tools) &&
    tools.length > 0 &&
    tools.every((t) => isObject(t) && typeof t['name'] === 'string' && isObject(t['inputSchema']))
  );
}

/** Why a cache file was not used, for the debug line; `missing` is the ordinary first start. */
export type EarlyCacheMiss = 'missing' | 'not private' | 'not valid';

/** The cached answers of build `fingerprint`, or why there are none. Never throws. */
export function readEarlyAnswers(dir: string, fingerprint: string): { answers: EarlyAnswers } | { miss: EarlyCacheMiss } {
  const file = earlyAnswersFile(dir, fingerprint);
  let text: string;
  try {
    const stat = lstatSync(file); // a symlink is refused too
    if (!stat.isFile()) return { miss: 'not valid' };
    const uid = process.getuid?.();
    if ((uid !== undefined && stat.uid !== uid) || (process.platform !== 'win32' && (stat.mode & 0o022) !== 0)) return { miss: 'not private' };
    text = readFileSync(file, 'utf8');
  } catch {
    return { miss: 'missing' };
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!isObject(parsed) || parsed['fingerprint'] !== fingerprint) return { miss: 'not valid' };
    const { fingerprint: _, ...answers } = parsed;
    return isEarlyAnswers(answers) ? { answers } : { miss: 'not valid' };
  } catch {
    return { miss: 'not valid' };
  }
}

/**
 * Writes the answers of build `fingerprint` atomically (temp file, then rename): the folder is
 * created private (0700), the file 0600. Older builds' files beyond the newest few are removed.
 * Returns the file written; throws when it cannot be written.
 */
export function writeEarlyAnswers(dir: string, fingerprint: string, answers: EarlyAnswers): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = earlyAnswersFile(dir, fingerprint);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify({ fingerprint, ...answers })}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  prune(dir, file);
  return file;
}

/** Best effort: keep the newest KEEP_FILES answer files and drop temp files left by a crash an hour ago. */
function prune(dir: string, current: string): void {
  try {
    const now = Date.now();
    const files: { path: string; mtime: number }[] = [];
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const mtime = statSync(path).mtimeMs;
      if (name.endsWith('.tmp') && now - mtime > 3_600_000) rmSync(path, { force: true });
      else if (name.endsWith('.json') && path !== current) files.push({ path, mtime });
    }
    files.sort((a, b) => b.mtime - a.mtime);
    for (const old of files.slice(KEEP_FILES - 1)) rmSync(old.path, { force: true });
  } catch {
    // another daemon pruning at the same time, or a file that vanished: nothing to do
  }
}
