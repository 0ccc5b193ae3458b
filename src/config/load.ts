// svc.yaml -> Config: parse once, validate everything, fill every default, report all problems together.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError, type ConfigProblem } from '../model/errors.ts';
import { bareHost } from '../model/host.ts';
import { defaultSpecName, safeName } from './names.ts';
import { Reader, type Located } from './reader.ts';
import { readSpec, specDefaults, type DraftSpec } from './spec-entry.ts';
import { DEFAULTS, type Config, type LimitsConfig, type SearchConfig, type ServeConfig, type SpecConfig } from './types.ts';
import { readEnvName, readOrigins } from './values.ts';

export const TOP_KEYS = ['specsDir', 'socket', 'serve', 'limits', 'search', 'specs'] as const;
export const SEARCH_KEYS = ['vocabulary'] as const;
/** `search.vocabulary`: English lexical resources search may load (see src/vocabulary). */
const VOCABULARIES: readonly SearchConfig['vocabulary'][] = ['none', 'wordnet'];
export const SERVE_KEYS = ['transport', 'host', 'port', 'auth', 'tokenEnv', 'allowedOrigins', 'maxBodyBytes', 'maxSessions', 'sessionIdleMs'] as const;
export const LIMITS_KEYS = ['maxSpecBytes', 'maxResponseBytes', 'maxImageBytes'] as const;

const DEFAULT_SERVE: ServeConfig = {
  transport: 'stdio',
  host: DEFAULTS.host,
  port: DEFAULTS.port,
  allowedOrigins: [],
  maxBodyBytes: DEFAULTS.maxBodyBytes,
  maxSessions: DEFAULTS.maxSessions,
  sessionIdleMs: DEFAULTS.sessionIdleMs,
  auth: 'token',
};

const DEFAULT_LIMITS: LimitsConfig = {
  maxSpecBytes: DEFAULTS.maxSpecBytes,
  maxResponseBytes: DEFAULTS.maxResponseBytes,
  maxImageBytes: DEFAULTS.maxImageBytes,
};

/**
 * Reads and validates svc.yaml. Relative paths resolve against the file's folder.
 * @throws ConfigError listing every problem, each with its key path and line.
 */
export async function loadConfig(file: string): Promise<Config> {
  const absolute = resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT'
        ? 'file not found; create it (svc.yaml.example shows every key), pass --config <file>, or set SVC_CONFIG'
        : code === 'EISDIR'
          ? 'is a folder, not a file; point --config at the svc.yaml inside it'
          : `cannot be read (${code ?? String(error)})`;
    throw new ConfigError(absolute, [{ key: '', message }]);
  }
  return parseConfig(text, absolute);
}

/**
 * Validates svc.yaml's text as if it were the file `file` (absolute). Checks that listed files exist.
 * @throws ConfigError listing every problem.
 */
export async function parseConfig(text: string, file: string): Promise<Config> {
  const dir = dirname(file);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((error) => {
        // Stryker disable next-line OptionalChaining: with a LineCounter every parser error has a non-empty linePos; the chain only guards a library change
        const line = error.linePos?.[0]?.line;
        const first = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
        const message = `${first} (not valid YAML; check indentation, quotes and colons)`;
        return line !== undefined ? { key: '', line, message } : { key: '', message };
      }),
    );
  }

  const r = new Reader(doc, lines);
  const root = r.root();
  if (root.node === null) {
    throw new ConfigError(file, [{ key: '', message: 'the file is empty; list your API descriptions under `specs:` (see svc.yaml.example)' }]);
  }
  const top = r.map(root, TOP_KEYS, 'the endpoints of every spec');
  if (!top) throw new ConfigError(file, r.problems);

  const specsDirAt = top.get('specsDir');
  const specsDir = resolve(dir, (specsDirAt && r.string(specsDirAt, 'a folder path')) ?? 'specs');
  const socketAt = top.get('socket');
  const socketText = socketAt && r.string(socketAt, 'a file path');
  const serve = readServe(r, top.get('serve'));
  const limits = readLimits(r, top.get('limits'));
  const search = readSearch(r, top.get('search'));

  const drafts: DraftSpec[] = [];
  const specsAt = top.get('specs');
  if (!specsAt) {
    r.problem({ key: 'specs', line: root.line }, 'missing: list your API descriptions, e.g. `specs: [{ path: specs/petstore.yaml }]`');
  } else {
    const entries = r.list(specsAt) ?? [];
    if (entries.length === 0 && specsAt.node !== null && r.problems.length === 0) {
      r.problem(specsAt, 'lists no specs; add at least one `- path: specs/<file>.yaml`');
    }
    for (const entry of entries) {
      const draft = readSpec(r, entry, dir);
      if (draft) drafts.push(draft);
    }
  }

  const specs = await finishSpecs(drafts, specsDir, dir, r.problems);
  if (r.problems.length > 0) throw new ConfigError(file, sortProblems(r.problems));
  const config: Config = { file, dir, specsDir, specs, serve, limits, ...(search ? { search } : {}) };
  return socketText !== undefined ? { ...config, socket: resolve(dir, socketText) } : config;
}

/**
 * A config for `svc check FILE...` and friends, without svc.yaml: every default, names from file stems
 * (made unique with `-2`, `-3` ...), relative paths against `cwd`.
 * @throws ConfigError when a file is missing.
 */
export async function configFromFiles(files: readonly string[], cwd: string = process.cwd()): Promise<Config> {
  const dir = resolve(cwd);
  const specsDir = resolve(dir, 'specs');
  const taken = new Set<string>();
  const drafts: DraftSpec[] = files.map((f, index) => {
    const base = defaultSpecName(f);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return { ...specDefaults(resolve(dir, f)), name, key: `argument ${index + 1} (${f})` };
  });
  const problems: ConfigProblem[] = [];
  const specs = await finishSpecs(drafts, specsDir, dir, problems, 'the working folder');
  if (problems.length > 0) throw new ConfigError('command line', problems);
  return { file: resolve(dir, 'svc.yaml'), dir, specsDir, specs, serve: DEFAULT_SERVE, limits: DEFAULT_LIMITS };
}

function readServe(r: Reader, at: Located | undefined): ServeConfig {
  if (!at || at.node === null) return DEFAULT_SERVE;
  const m = r.map(at, SERVE_KEYS);
  if (!m) return DEFAULT_SERVE;
  const get = <T>(key: string, read: (v: Located) => T | undefined, fallback: T): T => {
    const v = m.get(key);
    return (v && read(v)) ?? fallback;
  };
  // `sse` is the older name of the HTTP mode (it serves Streamable HTTP and legacy SSE alike).
  const named = get('transport', (v) => r.oneOf(v, ['stdio', 'http', 'sse'] as const), DEFAULT_SERVE.transport);
  const transport = named === 'sse' ? 'http' : named;
  const host = bareHost(get('host', (v) => r.string(v, 'a host name or IP address'), DEFAULT_SERVE.host));
  const port = get('port', (v) => r.integer(v, 0, 65_535), DEFAULT_SERVE.port);
  const auth = get('auth', (v) => r.oneOf(v, ['token', 'none'] as const), DEFAULT_SERVE.auth);
  const allowedOrigins = get('allowedOrigins', (v) => readOrigins(r, v), DEFAULT_SERVE.allowedOrigins);
  const maxBodyBytes = get('maxBodyBytes', (v) => r.size(v), DEFAULT_SERVE.maxBodyBytes);
  const maxSessions = get('maxSessions', (v) => r.integer(v, 1, 100_000), DEFAULT_SERVE.maxSessions);
  const sessionIdleMs = get('sessionIdleMs', (v) => r.integer(v, 1_000, 7 * 24 * 3_600_000), DEFAULT_SERVE.sessionIdleMs);
  const tokenAt = m.get('tokenEnv');
  const tokenEnv = tokenAt && readEnvName(r, tokenAt);
  if (auth === 'none' && !isLoopback(host)) {
    r.problem(
      m.get('auth') ?? at,
      `serve.auth: none on ${host}, which is reachable from other machines: anyone there could call your APIs with your credentials; remove \`auth: none\` (a bearer token is then required) or bind 127.0.0.1`,
    );
  }
  if (auth === 'none' && tokenAt) r.problem(tokenAt, 'serve.tokenEnv names a token, but serve.auth is none: remove one of the two');
  const serve: ServeConfig = { transport, host, port, auth, allowedOrigins, maxBodyBytes, maxSessions, sessionIdleMs };
  return tokenEnv !== undefined ? { ...serve, tokenEnv } : serve;
}

function readLimits(r: Reader, at: Located | undefined): LimitsConfig {
  if (!at || at.node === null) return DEFAULT_LIMITS;
  const m = r.map(at, LIMITS_KEYS);
  if (!m) return DEFAULT_LIMITS;
  const size = (key: keyof LimitsConfig): number => {
    const v = m.get(key);
    return (v && r.size(v)) ?? DEFAULT_LIMITS[key];
  };
  return { maxSpecBytes: size('maxSpecBytes'), maxResponseBytes: size('maxResponseBytes'), maxImageBytes: size('maxImageBytes') };
}

function readSearch(r: Reader, at: Located | undefined): SearchConfig | undefined {
  if (!at || at.node === null) return undefined;
  const m = r.map(at, SEARCH_KEYS);
  if (!m) return undefined;
  const v = m.get('vocabulary');
  const vocabulary = (v && r.oneOf(v, VOCABULARIES)) ?? 'none';
  return { vocabulary };
}

/** File checks, default names and collections, duplicate names: the steps that need every entry. */
async function finishSpecs(
  drafts: readonly DraftSpec[],
  specsDir: string,
  dir: string,
  problems: ConfigProblem[],
  relativeBase = "svc.yaml's folder",
): Promise<SpecConfig[]> {
  const at = (d: DraftSpec, key = d.key): Pick<ConfigProblem, 'key' | 'line'> => (d.line !== undefined ? { key, line: d.line } : { key });
  await Promise.all(
    drafts.map(async (d) => {
      const where = d.pathAt ? { key: d.pathAt.key, ...(d.pathAt.line !== undefined ? { line: d.pathAt.line } : {}) } : at(d);
      try {
        const info = await stat(d.path);
        if (!info.isFile()) problems.push({ ...where, message: `${d.path} is not a file; list each API description file on its own` });
      } catch {
        problems.push({ ...where, message: `${d.path} does not exist; fix the path (relative paths start at ${relativeBase})` });
      }
      for (const folder of d.allowRefsFrom) {
        // Stryker disable next-line ArrowFunction: undefined and false are both "not a folder" below
        const ok = await stat(folder).then((s) => s.isDirectory(), () => false);
        if (!ok) problems.push({ ...at(d, `${d.key}.refs.allowFrom`), message: `${folder} is not a folder` });
      }
    }),
  );

  const byName = new Map<string, DraftSpec>();
  const out: SpecConfig[] = [];
  for (const d of drafts) {
    const name = d.name ?? defaultSpecName(d.path);
    const first = byName.get(name);
    if (first) {
      problems.push({
        ...at(d),
        message:
          `spec name \`${name}\` is already used by ${relativeTo(dir, first.path)}${first.line !== undefined ? ` (line ${first.line})` : ''}; ` +
          'names must be unique: give one of them a different `name:`',
      });
      continue;
    }
    byName.set(name, d);
    const { key: _key, pathAt: _pathAt, ...rest } = d;
    out.push({ ...rest, name, collection: d.collection ?? collectionFromFolder(d.path, specsDir) });
  }
  return out;
}

/** The sub-folder of `specsDir` the file sits in (`specs/payments/stripe.yaml` -> `payments`), else `default`. */
export function collectionFromFolder(file: string, specsDir: string): string {
  const rel = relative(specsDir, file);
  if (rel.startsWith('..') || isAbsolute(rel)) return 'default';
  const parts = rel.split(sep);
  return parts.length > 1 ? safeName(parts[0]!) : 'default';
}

function relativeTo(dir: string, file: string): string {
  const rel = relative(dir, file);
  return rel.startsWith('..') ? file : rel;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}


function sortProblems(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
