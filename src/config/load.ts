// svc.yaml -> Config: parse once, validate everything, fill every default, report all problems together.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError, type ConfigProblem } from '../model/errors.ts';
import { defaultSpecName, NAME_PATTERN, safeName } from './names.ts';
import { Reader, type Located } from './reader.ts';
import {
  DEFAULTS,
  type AuthConfig,
  type Config,
  type LimitsConfig,
  type SearchConfig,
  type SecretRef,
  type ServeConfig,
  type SpecConfig,
  type WritePolicy,
} from './types.ts';

export const TOP_KEYS = ['specsDir', 'socket', 'serve', 'limits', 'search', 'specs'] as const;
export const SEARCH_KEYS = ['vocabulary'] as const;
/** `search.vocabulary`: English lexical resources search may load (see src/vocabulary). */
const VOCABULARIES: readonly SearchConfig['vocabulary'][] = ['none', 'wordnet'];
export const SERVE_KEYS = ['transport', 'host', 'port', 'auth', 'tokenEnv', 'allowedOrigins', 'maxBodyBytes', 'maxSessions', 'sessionIdleMs'] as const;
export const LIMITS_KEYS = ['maxSpecBytes', 'maxResponseBytes', 'maxImageBytes'] as const;
export const SPEC_KEYS = [
  'path', 'name', 'collection', 'refs', 'baseUrl', 'serverVariables', 'allowedOrigins',
  'writes', 'auth', 'headers', 'parameters', 'timeoutMs', 'retries',
] as const;
export const REFS_KEYS = ['remote', 'allowFrom'] as const;
export const AUTH_KEYS: Readonly<Record<AuthConfig['type'], readonly string[]>> = {
  bearer: ['type', 'scheme', 'token'],
  basic: ['type', 'scheme', 'username', 'password'],
  apiKey: ['type', 'scheme', 'in', 'name', 'value'],
  oauth2: ['type', 'scheme', 'tokenUrl', 'clientId', 'clientSecret', 'scopes'],
};
const AUTH_TYPES = Object.keys(AUTH_KEYS) as AuthConfig['type'][];
const WRITE_POLICIES: readonly WritePolicy[] = ['deny', 'allow', 'confirm'];
const MAX_TIMEOUT_MS = 10 * 60_000;
const MAX_RETRIES = 10;
/** Header names whose values are credentials: a literal value there is a secret in a file. */
const SECRET_HEADER = /authorization|cookie|token|secret|api[-_]?key|password|credential/i;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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

/** Spec settings before the file checks and the name/collection decisions that need every entry. */
type DraftSpec = Omit<SpecConfig, 'name' | 'collection'> & { name?: string; collection?: string; key: string; pathAt?: Located };

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

/** A spec entry's settings when svc.yaml says nothing but its path: the safe defaults. */
export function specDefaults(path: string): Omit<SpecConfig, 'name' | 'collection'> {
  return {
    path,
    allowRemoteRefs: false,
    allowRefsFrom: [],
    serverVariables: {},
    allowedOrigins: [],
    writes: 'deny',
    auth: [],
    headers: {},
    parameters: {},
    timeoutMs: DEFAULTS.timeoutMs,
    retries: DEFAULTS.retries,
  };
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
  const host = get('host', (v) => r.string(v, 'a host name or IP address'), DEFAULT_SERVE.host);
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

function readSpec(r: Reader, at: Located, dir: string): DraftSpec | undefined {
  // Shorthand: `- specs/petstore.yaml`.
  if (typeof r.scalar(at) === 'string') {
    const path = r.string(at, 'a file path');
    return path === undefined ? undefined : { ...specDefaults(resolve(dir, path)), key: at.key, ...(at.line !== undefined ? { line: at.line } : {}) };
  }
  const m = r.map(at, SPEC_KEYS, "this spec's endpoints");
  if (!m) return undefined;
  const pathAt = m.get('path');
  const path = pathAt ? r.string(pathAt, 'a file path') : r.problem({ key: `${at.key}.path`, line: at.line }, 'missing: the API description file of this spec');
  const defaults = specDefaults(path === undefined ? '' : resolve(dir, path));

  const nameAt = m.get('name');
  const name = nameAt && readName(r, nameAt, 'spec name');
  const collectionAt = m.get('collection');
  const collection = collectionAt && readName(r, collectionAt, 'collection');

  let allowRemoteRefs = defaults.allowRemoteRefs;
  let allowRefsFrom = defaults.allowRefsFrom;
  const refsAt = m.get('refs');
  if (refsAt && refsAt.node !== null) {
    const refs = r.map(refsAt, REFS_KEYS);
    const remoteAt = refs?.get('remote');
    allowRemoteRefs = (remoteAt && r.boolean(remoteAt)) ?? allowRemoteRefs;
    const fromAt = refs?.get('allowFrom');
    allowRefsFrom = ((fromAt && r.stringList(fromAt, 'a folder path')) ?? []).map((d) => resolve(dir, d));
  }

  const baseUrlAt = m.get('baseUrl');
  const baseUrl = baseUrlAt && readHttpUrl(r, baseUrlAt);
  const varsAt = m.get('serverVariables');
  const serverVariables = varsAt && varsAt.node !== null ? readStringMap(r, varsAt) : defaults.serverVariables;
  const originsAt = m.get('allowedOrigins');
  const allowedOrigins = (originsAt && readOrigins(r, originsAt)) ?? defaults.allowedOrigins;
  const writesAt = m.get('writes');
  const writes = (writesAt && r.oneOf(writesAt, WRITE_POLICIES)) ?? defaults.writes;
  const authAt = m.get('auth');
  const auth = authAt && authAt.node !== null ? readAuthList(r, authAt) : defaults.auth;
  const headersAt = m.get('headers');
  const headers = headersAt && headersAt.node !== null ? readHeaders(r, headersAt) : defaults.headers;
  const parametersAt = m.get('parameters');
  const parameters = parametersAt && parametersAt.node !== null ? readCredentialParameters(r, parametersAt) : defaults.parameters;
  const timeoutAt = m.get('timeoutMs');
  const timeoutMs = (timeoutAt && r.integer(timeoutAt, 1, MAX_TIMEOUT_MS)) ?? defaults.timeoutMs;
  const retriesAt = m.get('retries');
  const retries = (retriesAt && r.integer(retriesAt, 0, MAX_RETRIES)) ?? defaults.retries;

  if (path === undefined) return undefined;
  const draft: DraftSpec = {
    ...defaults,
    allowRemoteRefs,
    allowRefsFrom,
    serverVariables,
    allowedOrigins,
    writes,
    auth,
    headers,
    parameters,
    timeoutMs,
    retries,
    key: at.key,
    ...(at.line !== undefined ? { line: at.line } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(collection !== undefined ? { collection } : {}),
  };
  return pathAt ? { ...draft, pathAt } : draft;
}

function readName(r: Reader, at: Located, what: string): string | undefined {
  const value = r.string(at, `a ${what}`);
  if (value === undefined) return undefined;
  if (!NAME_PATTERN.test(value)) {
    return r.problem(
      at,
      `\`${value}\` cannot be a ${what}: use 1-64 letters, digits, \`.\`, \`_\` or \`-\`, starting with a letter or digit ` +
        `(it becomes part of endpoint ids like \`name:GET:/path\`, so \`:\`, \`/\` and spaces are out); e.g. \`${safeName(value)}\``,
    );
  }
  return value;
}

function readEnvName(r: Reader, at: Located): string | undefined {
  const value = r.scalar(at);
  if (typeof value === 'string') {
    const name = /^\$\{(.*)\}$/.exec(value.trim())?.[1] ?? value.trim();
    if (ENV_NAME.test(name)) return name;
  }
  return r.problem(at, 'must be the NAME of an environment variable (letters, digits, `_`), e.g. SVC_TOKEN; the value itself never goes in svc.yaml');
}

function readHttpUrl(r: Reader, at: Located): string | undefined {
  const value = r.string(at, 'an http(s) URL');
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return r.problem(at, `\`${value}\` is not an http(s) URL; write it like https://api.example.com/v1`);
  }
  if (url.username || url.password) {
    return r.problem(at, 'must not carry a user name or password; use `auth` with ${ENV_VAR} references');
  }
  return value.replace(/\/+$/, '');
}

function readOrigins(r: Reader, at: Located): string[] | undefined {
  const values = r.stringList(at, 'an origin like https://api.example.com');
  if (!values) return undefined;
  const out: string[] = [];
  values.forEach((value, index) => {
    const item = { key: `${at.key}[${index}]`, line: at.line };
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin === 'null') {
      r.problem(item, `\`${value}\` is not an origin; write scheme, host and optional port, like https://api.example.com:8443`);
    } else if (url.pathname !== '/' || url.search || url.hash) {
      r.problem(item, `\`${value}\` has a path; an origin is only scheme, host and port: ${url.origin}`);
    } else {
      out.push(url.origin);
    }
  });
  return out;
}

function readStringMap(r: Reader, at: Located): Record<string, string> {
  const out: Record<string, string> = {};
  const m = r.mapAny(at);
  for (const [key, value] of m ?? []) {
    const scalar = r.scalar(value);
    if (typeof scalar === 'string' || typeof scalar === 'number' || typeof scalar === 'boolean') out[key] = String(scalar);
    else r.problem(value, 'must be text');
  }
  return out;
}

function readHeaders(r: Reader, at: Located): Record<string, SecretRef | string> {
  const out: Record<string, SecretRef | string> = {};
  const m = r.mapAny(at);
  for (const [name, valueAt] of m ?? []) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      r.problem(valueAt, `\`${name}\` is not a valid HTTP header name`);
      continue;
    }
    const value = SECRET_HEADER.test(name) ? r.secret(valueAt) : r.textOrSecret(valueAt);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** `parameters:` maps a parameter (`token`, or `query.token`, `header.X-Key`, `cookie.sid`) to a `${ENV}` reference. */
function readCredentialParameters(r: Reader, at: Located): Record<string, SecretRef> {
  const out: Record<string, SecretRef> = {};
  for (const [key, valueAt] of r.mapAny(at) ?? []) {
    const dot = key.indexOf('.');
    const where = dot > 0 ? key.slice(0, dot) : undefined;
    const name = dot > 0 && (where === 'header' || where === 'query' || where === 'cookie' || where === 'path') ? key.slice(dot + 1) : key;
    if (where === 'path') {
      r.problem(valueAt, `\`${key}\` is a path parameter; svc.yaml gives values only for header, query and cookie parameters`);
      continue;
    }
    if (name === '' || /[\s\0]/.test(name)) {
      r.problem(valueAt, `\`${key}\` is not a parameter name; write \`name\` or \`query.name\`, \`header.name\`, \`cookie.name\``);
      continue;
    }
    const value = r.secret(valueAt);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function readAuthList(r: Reader, at: Located): AuthConfig[] {
  // One credential (a mapping) or several (a list), one per security scheme.
  const items = r.isMap(at) ? [at] : (r.list(at) ?? []);
  const out: AuthConfig[] = [];
  for (const item of items) {
    const auth = readAuth(r, item);
    // Stryker disable next-line ConditionalExpression: an undefined auth comes with a recorded problem, so the config is refused
    if (auth) out.push(auth);
  }
  return out;
}

function readAuth(r: Reader, at: Located): AuthConfig | undefined {
  const loose = r.mapAny(at);
  if (!loose) return undefined;
  const typeAt = loose.get('type');
  if (!typeAt) return r.problem({ key: `${at.key}.type`, line: at.line }, `missing: one of ${AUTH_TYPES.join(', ')}`);
  const type = r.oneOf(typeAt, AUTH_TYPES);
  if (!type) return undefined;
  const m = r.map(at, AUTH_KEYS[type]);
  if (!m) return undefined;
  const need = (key: string): Located | undefined =>
    m.get(key) ?? r.problem({ key: `${at.key}.${key}`, line: at.line }, `missing (required for ${type} auth)`);
  const schemeAt = m.get('scheme');
  const scheme = schemeAt && r.string(schemeAt, 'the name of a security scheme in the spec');
  const withScheme = <T extends object>(value: T): T => (scheme !== undefined ? { ...value, scheme } : value);
  switch (type) {
    case 'bearer': {
      const tokenAt = need('token');
      const token = tokenAt && r.secret(tokenAt);
      return token && withScheme({ type, token });
    }
    case 'basic': {
      const userAt = need('username');
      const passAt = need('password');
      const username = userAt && r.textOrSecret(userAt);
      const password = passAt && r.secret(passAt);
      // Stryker disable next-line ConditionalExpression,LogicalOperator: every undefined part recorded a problem, so the config is refused and this value is never seen
      return username !== undefined && password ? withScheme({ type, username, password }) : undefined;
    }
    case 'apiKey': {
      const inAt = m.get('in');
      const where = inAt ? r.oneOf(inAt, ['header', 'query', 'cookie'] as const) : 'header';
      const nameAt = need('name');
      const name = nameAt && r.string(nameAt, 'the header, query or cookie name');
      const valueAt = need('value');
      const value = valueAt && r.secret(valueAt);
      // Stryker disable next-line ConditionalExpression,LogicalOperator: every undefined part recorded a problem, so the config is refused and this value is never seen
      return where && name && value ? withScheme({ type, in: where, name, value }) : undefined;
    }
    case 'oauth2': {
      const urlAt = need('tokenUrl');
      const tokenUrl = urlAt && readHttpUrl(r, urlAt);
      const idAt = need('clientId');
      const clientId = idAt && r.textOrSecret(idAt);
      const secretAt = need('clientSecret');
      const clientSecret = secretAt && r.secret(secretAt);
      const scopesAt = m.get('scopes');
      const scopes = (scopesAt && r.stringList(scopesAt, 'a scope')) ?? [];
      // Stryker disable next-line ConditionalExpression,LogicalOperator: every undefined part recorded a problem, so the config is refused and this value is never seen
      return tokenUrl && clientId !== undefined && clientSecret ? withScheme({ type, tokenUrl, clientId, clientSecret, scopes }) : undefined;
    }
  }
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
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function sortProblems(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
