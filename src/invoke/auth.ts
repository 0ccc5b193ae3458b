// Credentials per spec from svc.yaml, secrets from environment variables, matched to the
// spec's security schemes: bearer, basic, API key (header, query, cookie), OAuth2 client credentials.
import type { AuthConfig, SecretRef } from '../config/types.ts';
import type { Endpoint, ImportedSpec, SecurityScheme } from '../model/index.ts';
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
}

interface Chosen {
  readonly auth: AuthConfig;
  readonly index: number;
}

function fits(auth: AuthConfig, scheme: SecurityScheme | undefined): boolean {
  if (scheme === undefined) return false;
  switch (auth.type) {
    case 'bearer':
      return (scheme.type === 'http' && scheme.scheme.toLowerCase() === 'bearer') || scheme.type === 'oauth2' || scheme.type === 'openIdConnect';
    case 'basic':
      return scheme.type === 'http' && scheme.scheme.toLowerCase() === 'basic';
    case 'apiKey':
      return scheme.type === 'apiKey';
    case 'oauth2':
      return scheme.type === 'oauth2' || scheme.type === 'openIdConnect';
  }
}

/** Which configured auths this endpoint gets. */
export function chooseAuth(endpoint: Endpoint, spec: ImportedSpec, auths: readonly AuthConfig[]): { chosen: Chosen[]; unmet: string[] } {
  const all = auths.map((auth, index) => ({ auth, index }));
  const security = endpoint.security;
  // The spec says nothing: send what the user configured.
  if (security === undefined) return { chosen: all, unmet: [] };
  // `security: []`: the endpoint is public.
  if (security.length === 0) return { chosen: [], unmet: [] };
  let anonymous = false;
  for (const alternative of security) {
    const names = Object.keys(alternative);
    if (names.length === 0) {
      anonymous = true;
      continue;
    }
    const picked: Chosen[] = [];
    for (const name of names) {
      const scheme = spec.securitySchemes[name];
      const hit =
        all.find((c) => c.auth.scheme === name && !picked.includes(c)) ??
        all.find((c) => c.auth.scheme === undefined && fits(c.auth, scheme) && !picked.includes(c));
      if (hit === undefined) break;
      picked.push(hit);
    }
    if (picked.length === names.length) return { chosen: picked, unmet: [] };
  }
  if (anonymous) return { chosen: [], unmet: [] };
  // No alternative can be met: send nothing the spec did not ask for, and say what is missing.
  return { chosen: [], unmet: Object.keys(security[0] ?? {}) };
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
  for (const auth of settings.spec.auth) {
    if (auth.type === 'bearer') add(auth.token);
    else if (auth.type === 'basic') {
      add(auth.username);
      add(auth.password);
    } else if (auth.type === 'apiKey') add(auth.value);
    else {
      add(auth.clientId);
      add(auth.clientSecret);
    }
  }
  for (const ref of Object.values(settings.spec.headers)) add(ref);
  return out;
}

function secret(ref: SecretRef | string, key: string, settings: SpecSettings): string {
  if (typeof ref === 'string') return ref;
  const value = process.env[ref.env];
  if (value === undefined || value === '') {
    throw new InvokeError('invoke-auth', `Environment variable ${ref.env} (named by ${key} in svc.yaml) is not set, so svc cannot authenticate to '${settings.spec.name}'.`, {
      hint: `set ${ref.env} in the environment svc runs in`,
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
  const out: AppliedAuth = { headers: [], query: [], cookies: [], secrets: [], sensitiveHeaders: new Set(), oauth: [], unmet: [] };
  const { chosen, unmet } = chooseAuth(endpoint, spec, settings.spec.auth);
  (out as { unmet: readonly string[] }).unmet = unmet;
  for (const { auth, index } of chosen) {
    const key = `${settings.key}.auth[${index}]`;
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
