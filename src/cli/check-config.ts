// `svc check`'s config-against-spec findings: what svc.yaml says about calling a spec that the spec
// contradicts. Credentials that serve none of its security schemes (with the schemes they could
// mean), a `scheme:` it does not have, endpoints that need credentials nothing configured serves,
// a baseUrl that none of its servers matches. Only warnings (the spec still serves), and notes for
// what svc applies by a clear reading (a bearer token for an apiKey scheme in the Authorization header).
import type { SpecConfig } from '../config/index.ts';
import { closestKey } from '../config/suggest.ts';
import { describeScheme, matchAuth, unmetSchemes } from '../invoke/auth-match.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
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
  const s = `scheme: ${name}`;
  if (scheme?.type === 'http' && scheme.scheme.toLowerCase() === 'basic') return `{ type: basic, username: \${${envName(spec, 'USER')}}, password: \${${envName(spec, 'PASSWORD')}}, ${s} }`;
  if (scheme?.type === 'apiKey') return `{ type: apiKey, in: ${scheme.in}, name: ${scheme.name}, value: \${${envName(spec, 'KEY')}}, ${s} }`;
  if (scheme?.type === 'oauth2' && scheme.tokenUrl) return `{ type: oauth2, tokenUrl: ${scheme.tokenUrl}, clientId: \${${envName(spec, 'CLIENT_ID')}}, clientSecret: \${${envName(spec, 'CLIENT_SECRET')}}, ${s} }`;
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
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const trimSlash = (text: string): string => text.replace(/\/+$/, '');

/**
 * A server URL template as a pattern: `{var}` matches its enum values (else any one segment),
 * a Postman `{{var}}` anything (it often stands for the whole origin). Relative server URLs match
 * the path of the baseUrl only.
 */
function serverMatches(server: Server, base: URL): boolean {
  const template = trimSlash(server.url.trim());
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(template) || template.startsWith('{{');
  const target = absolute ? trimSlash(`${base.origin}${base.pathname}`) : trimSlash(base.pathname);
  const relative = absolute || template === '' || template.startsWith('/') ? template : `/${template}`;
  let pattern = '';
  let last = 0;
  for (const m of relative.matchAll(PLACEHOLDER)) {
    pattern += escape(relative.slice(last, m.index));
    const name = m[1]?.trim();
    const values = name !== undefined ? server.variables?.[name]?.enum : undefined;
    pattern += m[1] === undefined ? '.+' : values && values.length > 0 ? `(?:${values.map(escape).join('|')})` : '[^/]+';
    last = m.index + m[0].length;
  }
  pattern += escape(relative.slice(last));
  return new RegExp(`^${pattern}/?$`, 'i').test(target);
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
    message: `matches none of the servers of spec ${imported.name}: ${listed(servers.map((s) => s.url))}`,
    hint: pathMatches
      ? "fine for a proxy or a local copy of the API; otherwise use one of the servers' URLs"
      : `invoke appends each endpoint's path to the baseUrl; its path is ${trimSlash(base.pathname) || '/'}, the servers' ${listed(paths)}: use the servers' base path if the API serves it there`,
  };
}
