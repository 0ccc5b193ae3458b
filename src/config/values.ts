// Readers of svc.yaml values that several sections share: names, environment variable names,
// http(s) URLs, origins and plain text maps, each reporting a problem at its key and line.
import { NAME_PATTERN, safeName } from './names.ts';
import type { Located, Reader } from './reader.ts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function readName(r: Reader, at: Located, what: string): string | undefined {
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

export function readEnvName(r: Reader, at: Located): string | undefined {
  const value = r.scalar(at);
  if (typeof value === 'string') {
    const name = /^\$\{(.*)\}$/.exec(value.trim())?.[1] ?? value.trim();
    if (ENV_NAME.test(name)) return name;
  }
  return r.problem(at, 'must be the NAME of an environment variable (letters, digits, `_`), e.g. SVC_TOKEN; the value itself never goes in svc.yaml');
}

export function readHttpUrl(r: Reader, at: Located): string | undefined {
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

export function readOrigins(r: Reader, at: Located): string[] | undefined {
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

export function readStringMap(r: Reader, at: Located): Record<string, string> {
  const out: Record<string, string> = {};
  const m = r.mapAny(at);
  for (const [key, value] of m ?? []) {
    const scalar = r.scalar(value);
    if (typeof scalar === 'string' || typeof scalar === 'number' || typeof scalar === 'boolean') out[key] = String(scalar);
    else r.problem(value, 'must be text');
  }
  return out;
}
