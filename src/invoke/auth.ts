// Credentials per spec from svc.yaml, secrets from environment variables, matched to the
// spec's security schemes: bearer, basic, API key (header, query, cookie), OAuth2 client credentials.
import { MIN_SECRET_LENGTH, type AuthConfig, type SecretRef } from '../config/types.ts';
import type { Endpoint, ImportedSpec, SecurityScheme } from '../model/index.ts';
import { describeInferred, schemeFit } from './auth-match.ts';
import { InvokeError } from './errors.ts';
import type { ClientCredentials, TokenCache } from './oauth2.ts';
import type { SpecSettings } from './settings.ts';

export interface AppliedAuth {
  readonly headers: Array<[string, string]>;
  readonly query: string[];
  readonly cookies: string[];
  /** Every secret value used, so outputs can be redacted. */
  readonly secrets: string[];
  /** Lower-cased header names that carry credentials (API keys in headers), redacted when echoed. */
  readonly sensitiveHeaders: Set<string>;
  /** OAuth2 credentials used, so a 401 can refresh the token once. */
  readonly oauth: Array<{ creds: ClientCredentials; token: string }>;
  /** Scheme names the endpoint asks for that svc.yaml does not configure (for 401/403 hints). */
  readonly unmet: readonly string[];
  /** Lines for the answer: credentials svc applied by inference. */
  readonly notes: string[];
}

export interface Chosen {
  readonly auth: AuthConfig;
  readonly index: number;
  /** The scheme it serves when the fit is only inferred (a bearer token for an apiKey Authorization header). */
  readonly inferred?: string;
}

/** Whether an auth entry can be used now: all its secrets set and non-empty. */
export type Availability = (auth: AuthConfig) => boolean;

/**
 * Which configured auths this endpoint gets: the first alternative of its security requirement
 * whose every scheme (an AND) has a credential, preferring credentials that are available now.
 * An alternative met only in part sends nothing of it.
 */
export function chooseAuth(
  endpoint: Pick<Endpoint, 'security'>,
  spec: Pick<ImportedSpec, 'securitySchemes'>,
  auths: readonly AuthConfig[],
  available: Availability = () => true,
): { chosen: Chosen[]; unmet: string[] } {
  const security = endpoint.security;
  const all = auths.map((auth, index) => ({ auth, index }));
  // The spec says nothing: send what the user configured (and can send).
  if (security === undefined) return { chosen: all.filter((c) => available(c.auth)), unmet: [] };
  // `security: []` (the endpoint is public) has no alternative to meet: nothing is chosen below.
  const usable = all.filter((c) => available(c.auth));
  const pick = (pool: ReadonlyArray<{ auth: AuthConfig; index: number }>): Chosen[] | undefined => {
    for (const alternative of security) {
      const names = Object.keys(alternative);
      if (names.length === 0) continue;
      const picked = assign(names, pool, spec.securitySchemes, [], { steps: 10_000 });
      if (picked !== undefined) return picked;
    }
    return undefined;
  };
  const anonymous = security.some((alternative) => Object.keys(alternative).length === 0);
  const now = pick(usable);
  if (now !== undefined) return { chosen: now, unmet: [] };
  // An optional (`{}`) alternative: go without credentials rather than with a missing one.
  if (anonymous) return { chosen: [], unmet: [] };
  // Configured but not set in the environment: choose it anyway, so the error names the variable.
  const configured = pick(all);
  if (configured !== undefined) return { chosen: configured, unmet: [] };
  // No alternative can be met: send nothing the spec did not ask for, and say what is missing.
  return { chosen: [], unmet: Object.keys(security[0] ?? {}) };
}

/**
 * One distinct credential per scheme name (all of an AND), or undefined. Tries the preferred
 * candidate first (an entry naming the scheme, then an exact fit, then an inferred one) and
 * backtracks, so one entry that fits two schemes does not starve the other.
 */
function assign(
  names: readonly string[],
  pool: ReadonlyArray<{ auth: AuthConfig; index: number }>,
  schemes: Readonly<Record<string, SecurityScheme>>,
  taken: readonly number[],
  budget: { steps: number },
): Chosen[] | undefined {
  if (names.length === 0) return [];
  // A spec's requirement is untrusted input: bound the search.
  // Stryker disable next-line EqualityOperator: one step more or less of a 10,000-step budget.
  if (--budget.steps < 0) return undefined;
  const [name, ...rest] = names as [string, ...string[]];
  const scheme = schemes[name];
  const free = pool.filter((c) => !taken.includes(c.index));
  const candidates: Chosen[] = [
    ...free.filter((c) => c.auth.scheme === name),
    ...free.filter((c) => c.auth.scheme === undefined && schemeFit(c.auth, scheme) === 'exact'),
    ...free.filter((c) => c.auth.scheme === undefined && schemeFit(c.auth, scheme) === 'inferred').map((c) => ({ ...c, inferred: name })),
  ];
  for (const c of candidates) {
    const others = assign(rest, pool, schemes, [...taken, c.index], budget);
    if (others !== undefined) return [c, ...others];
  }
  return undefined;
}

/** Every secret of an auth entry is set, and not empty. */
export function isAvailable(auth: AuthConfig): boolean {
  return secretRefs(auth).every((ref) => {
    if (typeof ref === 'string') return true;
    const v = process.env[ref.env];
    return v !== undefined && v !== '';
  });
}

function secretRefs(auth: AuthConfig): Array<SecretRef | string> {
  switch (auth.type) {
    case 'bearer':
      return [auth.token];
    case 'basic':
      return [auth.username, auth.password];
    case 'apiKey':
      return [auth.value];
    case 'oauth2':
      return [auth.clientId, auth.clientSecret];
  }
}

/**
 * Every secret svc.yaml gives this spec that is set in the environment, used by this call or not:
 * an API may echo any of them (in a body, a Link header), and none may reach the LLM.
 */
export function configuredSecrets(settings: SpecSettings): string[] {
  const out: string[] = [];
  const add = (ref: SecretRef | string): void => {
    if (typeof ref === 'string') return;
    const v = process.env[ref.env];
    if (v !== undefined && v !== '') out.push(v);
  };
  for (const auth of settings.spec.auth) for (const ref of secretRefs(auth)) add(ref);
  for (const ref of Object.values(settings.spec.headers)) add(ref);
  for (const ref of Object.values(settings.spec.parameters ?? {})) add(ref);
  return out;
}

/** The value of a secret reference; an unset or empty variable is an error that names it, never an empty credential. */
export function secret(ref: SecretRef | string, key: string, settings: SpecSettings): string {
  if (typeof ref === 'string') return ref;
  const value = process.env[ref.env];
  if (value === undefined || value === '') {
    throw new InvokeError('invoke-auth', `Environment variable ${ref.env} (named by ${key} in svc.yaml) is not set, so svc cannot authenticate to '${settings.spec.name}'.`, {
      hint: `set ${ref.env} in the environment svc runs in`,
    });
  }
  if (value.length < MIN_SECRET_LENGTH) {
    throw new InvokeError('invoke-auth', `Environment variable ${ref.env} (named by ${key} in svc.yaml) is shorter than ${MIN_SECRET_LENGTH} characters; svc refuses to send a secret it could not redact.`, {
      hint: `set ${ref.env} to the real credential`,
    });
  }
  return value;
}

export async function applyAuth(
  endpoint: Endpoint,
  spec: ImportedSpec,
  settings: SpecSettings,
  tokens: TokenCache,
  /** The request's base URL: a relative `tokenUrl` resolves against it. */
  baseHref: string,
): Promise<AppliedAuth> {
  const { chosen, unmet } = chooseAuth(endpoint, spec, settings.spec.auth, isAvailable);
  const out: AppliedAuth = { headers: [], query: [], cookies: [], secrets: [], sensitiveHeaders: new Set(), oauth: [], unmet, notes: [] };
  for (const { auth, index, inferred } of chosen) {
    const key = `${settings.key}.auth[${index}]`;
    if (inferred !== undefined) out.notes.push(describeInferred(auth, inferred, spec.securitySchemes[inferred], key));
    switch (auth.type) {
      case 'bearer': {
        const token = secret(auth.token, `${key}.token`, settings);
        out.secrets.push(token);
        out.headers.push(['authorization', `Bearer ${token}`]);
        break;
      }
      case 'basic': {
        const user = secret(auth.username, `${key}.username`, settings);
        const password = secret(auth.password, `${key}.password`, settings);
        const encoded = Buffer.from(`${user}:${password}`).toString('base64');
        out.secrets.push(password, encoded);
        if (typeof auth.username !== 'string') out.secrets.push(user);
        out.headers.push(['authorization', `Basic ${encoded}`]);
        break;
      }
      case 'apiKey': {
        const value = secret(auth.value, `${key}.value`, settings);
        out.secrets.push(value);
        if (auth.in === 'header') {
          out.headers.push([auth.name, value]);
          out.sensitiveHeaders.add(auth.name.toLowerCase());
        } else if (auth.in === 'query') {
          out.query.push(`${encodeURIComponent(auth.name)}=${encodeURIComponent(value)}`);
        } else {
          out.cookies.push(`${auth.name}=${encodeURIComponent(value)}`);
        }
        break;
      }
      case 'oauth2': {
        const clientSecret = secret(auth.clientSecret, `${key}.clientSecret`, settings);
        const clientId = secret(auth.clientId, `${key}.clientId`, settings);
        out.secrets.push(clientSecret);
        if (typeof auth.clientId !== 'string') out.secrets.push(clientId);
        const creds: ClientCredentials = {
          tokenUrl: new URL(auth.tokenUrl, `${baseHref}/`).href,
          clientId,
          clientSecret,
          scopes: auth.scopes,
          timeoutMs: settings.spec.timeoutMs,
          key,
        };
        const token = await tokens.get(creds);
        out.secrets.push(token);
        out.headers.push(['authorization', `Bearer ${token}`]);
        out.oauth.push({ creds, token });
        break;
      }
    }
  }
  return out;
}
