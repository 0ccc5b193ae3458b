// One `specs:` entry of svc.yaml: its path and every per-spec setting (refs, base URL, writes,
// credentials, headers, parameters, time-outs), before the checks that need every entry.
import { resolve } from 'node:path';
import type { Located, Reader } from './reader.ts';
import { DEFAULTS, type AuthConfig, type SecretRef, type SpecConfig, type WritePolicy } from './types.ts';
import { readHttpUrl, readName, readOrigins, readStringMap } from './values.ts';

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

/** Spec settings before the file checks and the name/collection decisions that need every entry. */
export type DraftSpec = Omit<SpecConfig, 'name' | 'collection'> & { name?: string; collection?: string; key: string; pathAt?: Located };

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

export function readSpec(r: Reader, at: Located, dir: string): DraftSpec | undefined {
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
