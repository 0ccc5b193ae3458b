// How a credential from svc.yaml maps onto a spec's security schemes, as plain data: which scheme
// an `auth` entry serves, whether it serves one only by a clear reading (a bearer token for an
// apiKey scheme in the Authorization header), and which schemes an endpoint needs that nothing
// configured serves. Pure functions over the config and the imported spec: `svc check` reports
// with them, and invoke's choice of credentials must agree with them.
import type { AuthConfig } from '../config/types.ts';
import type { Endpoint, SecurityScheme } from '../model/index.ts';

export type AuthMatch =
  /** `scheme:` names a scheme of the spec that takes this type of credential. */
  | { readonly kind: 'named'; readonly scheme: string }
  /** `scheme:` names a scheme of the spec, but one of another kind (a basic entry for an apiKey scheme). */
  | { readonly kind: 'named-mismatch'; readonly scheme: string }
  /** `scheme:` names no scheme of the spec. */
  | { readonly kind: 'unknown-scheme'; readonly scheme: string; readonly closest?: string }
  /** No `scheme:`; the entry's type serves these schemes directly. */
  | { readonly kind: 'fits'; readonly schemes: readonly string[] }
  /**
   * No `scheme:` and no direct fit, but the meaning is clear: a bearer entry for an apiKey scheme
   * in the `Authorization` header (Kubernetes' `BearerToken`) is sent as `Authorization: Bearer <token>`.
   */
  | { readonly kind: 'mapped'; readonly scheme: string; readonly header: string }
  /** Serves no scheme of the spec: it is never sent to an endpoint that declares its security. */
  | { readonly kind: 'none' };

/** How a credential of this type serves the scheme: directly, by the clear bearer reading, or not at all. */
export function authFits(auth: AuthConfig, scheme: SecurityScheme | undefined): 'direct' | 'mapped' | false {
  if (scheme === undefined) return false;
  switch (auth.type) {
    case 'bearer':
      if ((scheme.type === 'http' && scheme.scheme.toLowerCase() === 'bearer') || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'direct';
      return scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization' ? 'mapped' : false;
    case 'basic':
      return scheme.type === 'http' && scheme.scheme.toLowerCase() === 'basic' ? 'direct' : false;
    case 'apiKey':
      return scheme.type === 'apiKey' ? 'direct' : false;
    case 'oauth2':
      return scheme.type === 'oauth2' || scheme.type === 'openIdConnect' ? 'direct' : false;
  }
}

/** Which of the spec's schemes one configured credential serves. */
export function matchAuth(auth: AuthConfig, schemes: Readonly<Record<string, SecurityScheme>>, closest: (name: string, known: readonly string[]) => string | undefined = () => undefined): AuthMatch {
  const names = Object.keys(schemes);
  if (auth.scheme !== undefined) {
    const scheme = schemes[auth.scheme];
    if (scheme === undefined) {
      const near = closest(auth.scheme, names);
      return { kind: 'unknown-scheme', scheme: auth.scheme, ...(near !== undefined ? { closest: near } : {}) };
    }
    return authFits(auth, scheme) === false ? { kind: 'named-mismatch', scheme: auth.scheme } : { kind: 'named', scheme: auth.scheme };
  }
  const direct = names.filter((name) => authFits(auth, schemes[name]) === 'direct');
  if (direct.length > 0) return { kind: 'fits', schemes: direct };
  const mapped = names.find((name) => authFits(auth, schemes[name]) === 'mapped');
  if (mapped !== undefined) return { kind: 'mapped', scheme: mapped, header: (schemes[mapped] as { name: string }).name };
  return { kind: 'none' };
}

/** One line naming a scheme for people: `BearerToken (apiKey in header Authorization)`. */
export function describeScheme(rawName: string, scheme: SecurityScheme | undefined): string {
  // Names and words from the spec, cut short: a message line, not a copy of the spec.
  const short = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
  const name = short(rawName);
  if (scheme === undefined) return name;
  switch (scheme.type) {
    case 'http':
      return `${name} (http ${short(scheme.scheme.toLowerCase())})`;
    case 'apiKey':
      return `${name} (apiKey in ${scheme.in} ${short(scheme.name)})`;
    case 'oauth2':
      return `${name} (oauth2)`;
    case 'openIdConnect':
      return `${name} (openIdConnect)`;
    case 'other':
      return `${name} (${short(scheme.description)})`;
  }
}

/**
 * The scheme names an endpoint needs that no configured credential serves (`named`, `fits` or
 * `mapped`), from its first security alternative; empty when some alternative is met, when the
 * endpoint is public (`security: []` or an empty alternative) or when the spec says nothing.
 */
export function unmetSchemes(endpoint: Endpoint, schemes: Readonly<Record<string, SecurityScheme>>, auths: readonly AuthConfig[]): readonly string[] {
  const security = endpoint.security;
  if (security === undefined || security.length === 0) return [];
  const serves = (auth: AuthConfig, name: string): boolean =>
    auth.scheme !== undefined ? auth.scheme === name : authFits(auth, schemes[name]) !== false;
  for (const alternative of security) {
    const names = Object.keys(alternative);
    if (names.length === 0) return [];
    const used = new Set<AuthConfig>();
    const met = names.every((name) => {
      const auth = auths.find((a) => !used.has(a) && serves(a, name));
      if (auth !== undefined) used.add(auth);
      return auth !== undefined;
    });
    if (met) return [];
  }
  return Object.keys(security[0] ?? {});
}
