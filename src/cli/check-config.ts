// `svc check`'s config-against-spec findings: what svc.yaml says about calling a spec that the spec
// contradicts. Credentials that serve none of its security schemes (with the schemes they could
// mean), a `scheme:` it does not have, endpoints that need credentials nothing configured serves,
// a baseUrl that none of its servers matches. Only warnings (the spec still serves), and notes for
// what svc applies by a clear reading (a bearer token for an apiKey scheme in the Authorization header).
import type { SpecConfig } from '../config/index.ts';
import { closestKey } from '../config/suggest.ts';
import { describeScheme, matchAuth, unmetSchemes } from '../invoke/auth-match.ts';
import { credentialBase } from '../invoke/base-url.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import { clip } from '../tools/text.ts';
import type { ImportedSpec, SecurityScheme, Server } from '../model/index.ts';

/** Something svc does on its own reading of the config, said so the user can check it. */
export type Note = Omit<Diagnostic, 'severity'>;

export interface ConfigFindings {
  readonly warnings: Diagnostic[];
  readonly notes: Note[];
}

/** Servers compared with a baseUrl at most: a spec may give every operation its own list. */
const MAX_SERVERS = 64;
/** Names listed in one message at most. */
const MAX_LISTED = 5;

const listed = (items: readonly string[]): string =>
  items.length <= MAX_LISTED ? items.join(', ') : `${items.slice(0, MAX_LISTED).join(', ')} and ${items.length - MAX_LISTED} more`;

/** `${BOOKSHELF_TOKEN}`-style variable name for examples in hints. */
const envName = (spec: string, what: string): string => `${spec.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${what}`;

/** The auth entry a hint suggests for a scheme, as svc.yaml would hold it. */
function exampleAuth(spec: string, name: string, scheme: SecurityScheme | undefined): string {
  const s = `scheme: ${clip(name, 60)}`;
  // Stryker disable next-line OptionalChaining: every caller passes a scheme the spec declares
  if (scheme?.type === 'http' && scheme.scheme.toLowerCase() === 'basic') return `{ type: basic, username: \${${envName(spec, 'USER')}}, password: \${${envName(spec, 'PASSWORD')}}, ${s} }`;
  // Stryker disable next-line OptionalChaining: as above
  if (scheme?.type === 'apiKey') return `{ type: apiKey, in: ${scheme.in}, name: ${clip(scheme.name, 60)}, value: \${${envName(spec, 'KEY')}}, ${s} }`;
  // Stryker disable next-line OptionalChaining: as above
  if (scheme?.type === 'oauth2' && scheme.tokenUrl) return `{ type: oauth2, tokenUrl: ${clip(scheme.tokenUrl, 120)}, clientId: \${${envName(spec, 'CLIENT_ID')}}, clientSecret: \${${envName(spec, 'CLIENT_SECRET')}}, ${s} }`;
  return `{ type: bearer, token: \${${envName(spec, 'TOKEN')}}, ${s} }`;
}

export function configFindings(spec: SpecConfig, index: number, imported: ImportedSpec, configFile: string): ConfigFindings {
  const place = { file: configFile, ...(spec.line !== undefined ? { line: spec.line } : {}) };
  const warnings: Diagnostic[] = [];
  const notes: Note[] = [];
  const warn = (code: string, message: string, hint: string): void => void warnings.push({ severity: 'warning', code, message, ...place, hint });
  const schemes = imported.securitySchemes;
  const names = Object.keys(schemes);
  const described = names.map((name) => describeScheme(name, schemes[name]));
  const declaresSecurity = imported.endpoints.some((e) => e.security !== undefined && e.security.length > 0);

  spec.auth.forEach((auth, j) => {
    const key = `specs[${index}].auth${spec.auth.length > 1 ? `[${j}]` : ''}`;
    const match = matchAuth(auth, schemes, closestKey);
    switch (match.kind) {
      case 'unknown-scheme':
        warn(
          'auth-unknown-scheme',
          `${key}.scheme "${match.scheme}" is not a security scheme of spec ${spec.name}, so this credential is never sent`,
          names.length === 0
            ? `the spec declares no security schemes: remove ${key}.scheme and the credential is sent with every request`
            : `${match.closest !== undefined ? `did you mean "${match.closest}"? ` : ''}the spec's schemes: ${listed(described)}`,
        );
        break;
      case 'named-mismatch':
        warn(
          'auth-scheme-mismatch',
          `${key} is a ${auth.type} credential, but scheme ${describeScheme(match.scheme, schemes[match.scheme])} of spec ${spec.name} takes another kind`,
          `write it as ${exampleAuth(spec.name, match.scheme, schemes[match.scheme])}`,
        );
        break;
      case 'mapped':
        notes.push({
          code: 'auth-mapped',
          message: `${key} (${auth.type}) is applied to scheme ${describeScheme(match.scheme, schemes[match.scheme])} of spec ${spec.name} as "${match.header}: Bearer <token>"`,
          ...place,
          hint: `to say so in svc.yaml, add scheme: ${match.scheme}`,
        });
        break;
      case 'none':
        if (declaresSecurity) {
          warn(
            'auth-matches-no-scheme',
            `${key} (${auth.type}) serves none of the security schemes of spec ${spec.name}, so invoke never sends it to the endpoints that declare their security`,
            `the spec's schemes: ${listed(described)}; ${firstSchemeExample(spec.name, schemes)}`,
          );
        }
        break;
      default:
        break;
    }
  });

  // Endpoints that need a scheme nothing configured serves, counted per scheme.
  const unmet = new Map<string, number>();
  for (const endpoint of imported.endpoints) {
    for (const name of unmetSchemes(endpoint, schemes, spec.auth)) unmet.set(name, (unmet.get(name) ?? 0) + 1);
  }
  for (const [name, count] of [...unmet].slice(0, MAX_LISTED)) {
    warn(
      'credentials-missing',
      `${count} of ${imported.endpoints.length} endpoints of spec ${spec.name} need credentials for ${describeScheme(name, schemes[name])}, and svc.yaml configures none that serves it; invoke calls them without credentials`,
      `add to specs[${index}].auth: ${exampleAuth(spec.name, name, schemes[name])}`,
    );
  }

  // No baseUrl: credentials go to the spec's first server, an address the spec's authors chose.
  const holdsCredentials = spec.auth.length > 0 || Object.keys(spec.parameters ?? {}).length > 0;
  if (spec.baseUrl === undefined && holdsCredentials) {
    let href: string | undefined;
    try {
      // Stryker disable next-line StringLiteral: the key names the entry in an error that is caught below
      href = credentialBase(imported, spec, `specs[${index}]`).href;
    } catch {
      href = undefined; // no usable server: invoke says so on the first call
    }
    if (href !== undefined) {
      warn(
        'credentials-to-spec-server',
        `specs[${index}] (${spec.name}) sets no baseUrl: its credentials go to ${clip(href, 200)}, the first server the spec names`,
        `if that is the API you trust with them, say so: specs[${index}].baseUrl: ${clip(href, 200)}`,
      );
    }
  }

  // Stryker disable next-line ConditionalExpression: no baseUrl is no URL, which baseUrlFinding answers with no finding too
  const unmatched = spec.baseUrl !== undefined ? baseUrlFinding(spec.baseUrl, imported) : undefined;
  if (unmatched) warn('base-url-unmatched', `specs[${index}].baseUrl ${spec.baseUrl} ${unmatched.message}`, unmatched.hint);
  return { warnings, notes };
}

/** The hint for a credential that serves no scheme: the entry that would serve the spec's first scheme. */
function firstSchemeExample(spec: string, schemes: Readonly<Record<string, SecurityScheme>>): string {
  const [name] = Object.keys(schemes);
  return name === undefined ? 'the spec declares no schemes' : `for ${name} write ${exampleAuth(spec, name, schemes[name])}`;
}

// ---- baseUrl against the spec's servers -------------------------------------------------------

const PLACEHOLDER = /\{\{\s*[^{}]+?\s*\}\}|\{([^{}]+)\}/g;
/** Without trailing slashes (a loop, not a regular expression: the text may be the spec's). */
function trimSlash(text: string): string {
  let end = text.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: before the first character there is no slash either
  while (end > 0 && text[end - 1] === '/') end--;
  return text.slice(0, end);
}
/** Pieces of a template compared at most: a longer one is not judged (no finding rather than a slow one). */
const MAX_TOKENS = 200;
const MAX_URL_CHARS = 2048;

/** A template piece: literal text, one of a variable's enum values, or a placeholder (one segment, or anything). */
type Token = { readonly text: string } | { readonly oneOf: readonly string[] } | { readonly wild: 'segment' | 'any' };

/**
 * Does `text` match the template pieces? Dynamic programming over (piece, position), each state
 * computed once in constant steps, so a spec's template costs pieces x length steps whatever it
 * holds: no backtracking regular expression is built from the spec's text.
 */
function matchTokens(tokens: readonly Token[], text: string): boolean {
  const width = text.length + 1;
  // 0 unknown, 1 false, 2 true; `at` / `inside` are "piece i starts at" / "piece i (a placeholder) has taken text up to".
  // Stryker disable next-line ArithmeticOperator: speed only (a memo too small drops the states past its end, which are worked out again)
  const at = new Uint8Array((tokens.length + 1) * width);
  const inside = new Uint8Array((tokens.length + 1) * width);
  const allowed = (token: Token, pos: number): boolean => pos < text.length && !('wild' in token && token.wild === 'segment' && text[pos] === '/');
  const from = (i: number, pos: number): boolean => {
    if (i === tokens.length) return pos === text.length;
    // Stryker disable next-line ArithmeticOperator: speed only (a key off the memo reads and writes nothing, and the state is worked out again)
    const key = i * width + pos;
    // Stryker disable next-line ConditionalExpression: speed only (the memo's answer is the one worked out again)
    if (at[key]) return at[key] === 2;
    const token = tokens[i]!;
    let ok: boolean;
    if ('text' in token) ok = text.startsWith(token.text, pos) && from(i + 1, pos + token.text.length);
    else if ('oneOf' in token) ok = token.oneOf.some((v) => text.startsWith(v, pos) && from(i + 1, pos + v.length));
    else ok = allowed(token, pos) && more(i, pos + 1); // a placeholder takes at least one character
    at[key] = ok ? 2 : 1;
    return ok;
  };
  // Placeholder i has taken text up to `pos`: stop here, or take one more character.
  const more = (i: number, pos: number): boolean => {
    // Stryker disable next-line ArithmeticOperator: as above
    const key = i * width + pos;
    // Stryker disable next-line ConditionalExpression: as above
    if (inside[key]) return inside[key] === 2;
    const ok = from(i + 1, pos) || (allowed(tokens[i]!, pos) && more(i, pos + 1));
    inside[key] = ok ? 2 : 1;
    return ok;
  };
  return from(0, 0);
}

/**
 * Does the server URL template match the baseUrl? `{var}` matches its enum values (else any one
 * segment), a Postman `{{var}}` anything (it often stands for the whole origin). A relative server
 * URL is compared with the baseUrl's path only. Case does not count; trailing slashes neither.
 */
function serverMatches(server: Server, base: URL): boolean {
  if (server.url.length > MAX_URL_CHARS) return true;
  const template = trimSlash(server.url.trim()).toLowerCase();
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//.test(template) || template.startsWith('{{');
  const target = (absolute ? trimSlash(`${base.origin}${base.pathname}`) : trimSlash(base.pathname)).toLowerCase();
  const relative = absolute || template === '' || template.startsWith('/') ? template : `/${template}`;
  const tokens: Token[] = [];
  let last = 0;
  for (const m of relative.matchAll(PLACEHOLDER)) {
    if (m.index > last) tokens.push({ text: relative.slice(last, m.index) });
    const name = m[1]?.trim();
    const values = name !== undefined ? Object.entries(server.variables ?? {}).find(([k]) => k.toLowerCase() === name)?.[1].enum : undefined;
    tokens.push(m[1] === undefined ? { wild: 'any' } : values && values.length > 0 ? { oneOf: values.map((v) => v.toLowerCase()) } : { wild: 'segment' });
    last = m.index + m[0].length;
  }
  if (last < relative.length) tokens.push({ text: relative.slice(last) });
  if (tokens.length > MAX_TOKENS) return true;
  return matchTokens(tokens, target);
}

/** The path part of a server template, for the hint (`/api/v1`), or undefined when it has none. */
function serverPath(url: string): string | undefined {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/^\{\{[^{}]*\}\}/, '');
  const path = trimSlash(rest);
  return path === '' ? undefined : path.startsWith('/') ? path : `/${path}`;
}

function baseUrlFinding(baseUrl: string, imported: ImportedSpec): { message: string; hint: string } | undefined {
  const seen = new Map<string, Server>();
  for (const server of imported.servers) seen.set(server.url, server);
  for (const endpoint of imported.endpoints) {
    if (seen.size >= MAX_SERVERS) break;
    for (const server of endpoint.servers) if (seen.size < MAX_SERVERS) seen.set(server.url, server);
  }
  const servers = [...seen.values()];
  if (servers.length === 0) return undefined;
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return undefined; // the config loader already refuses a baseUrl that is not a URL
  }
  if (servers.some((server) => serverMatches(server, base))) return undefined;
  const paths = [...new Set(servers.map((s) => serverPath(s.url) ?? '/'))];
  // Does any server's path (its host aside) match? Then only the host differs: a proxy or a local copy.
  const pathMatches = servers.some((s) => serverMatches({ url: serverPath(s.url) ?? '/', ...(s.variables ? { variables: s.variables } : {}) }, base));
  return {
    message: `matches none of the servers of spec ${imported.name}: ${listed(servers.map((s) => clip(s.url, 120)))}`,
    hint: pathMatches
      ? "fine for a proxy or a local copy of the API; otherwise use one of the servers' URLs"
      : `invoke appends each endpoint's path to the baseUrl; its path is ${trimSlash(base.pathname) || '/'}, the servers' ${listed(paths)}: use the servers' base path if the API serves it there`,
  };
}
