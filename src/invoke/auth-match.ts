// How a configured auth entry maps onto a spec's security schemes, as plain data. Pure: invoke uses
// `schemeFit`/`authMatches` to choose credentials, and `svc check` reports with `matchAuth` and
// `unmetSchemes`, which are built on the same `schemeFit`, so the two always agree.
import type { AuthConfig } from '../config/types.ts';
import type { Endpoint, SecurityScheme } from '../model/index.ts';

/**
 * `exact`: the entry is the kind of credential the scheme asks for.
 * `inferred`: not the same kind, but the meaning is clear and svc applies it (a bearer token for
 * an apiKey scheme in the Authorization header, as Kubernetes describes its `BearerToken`).
 * `none`: the entry cannot serve this scheme.
 */
export type SchemeFit = 'exact' | 'inferred' | 'none';

export function schemeFit(auth: AuthConfig, scheme: SecurityScheme | undefined): SchemeFit {
  if (scheme === undefined) return 'none';
  switch (auth.type) {
    case 'bearer':
      if ((scheme.type === 'http' && scheme.scheme.toLowerCase() === 'bearer') || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'exact';
      return scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization' ? 'inferred' : 'none';
    case 'basic':
      return scheme.type === 'http' && scheme.scheme.toLowerCase() === 'basic' ? 'exact' : 'none';
    case 'apiKey':
      // The key goes where the entry says: it serves a scheme that expects it in that very place.
      return scheme.type === 'apiKey' && scheme.in === auth.in && sameName(scheme.in, scheme.name, auth.name) ? 'exact' : 'none';
    case 'oauth2':
      return scheme.type === 'oauth2' || scheme.type === 'openIdConnect' ? 'exact' : 'none';
  }
}

export interface SchemeMatch {
  readonly scheme: string;
  readonly fit: Exclude<SchemeFit, 'none'>;
}

/**
 * The spec's schemes this auth entry can serve. An entry that names its `scheme:` serves that
 * scheme alone (when the spec has it), whatever its kind, since the user said so.
 */
export function authMatches(auth: AuthConfig, schemes: Readonly<Record<string, SecurityScheme>>): SchemeMatch[] {
  if (auth.scheme !== undefined) {
    const scheme = schemes[auth.scheme];
    if (scheme === undefined) return [];
    const fit = schemeFit(auth, scheme);
    return [{ scheme: auth.scheme, fit: fit === 'none' ? 'exact' : fit }];
  }
  const out: SchemeMatch[] = [];
  for (const [name, scheme] of Object.entries(schemes)) {
    const fit = schemeFit(auth, scheme);
    if (fit !== 'none') out.push({ scheme: name, fit });
  }
  return out;
}

/** One line for answers and logs when svc applies an inferred match. */
export function describeInferred(auth: AuthConfig, schemeName: string, scheme: SecurityScheme | undefined, key: string): string {
  const what = scheme?.type === 'apiKey' ? `an apiKey in the ${scheme.in} '${scheme.name}'` : (scheme?.type ?? 'unknown');
  return `[svc applied ${key} (type ${auth.type}) as 'Authorization: Bearer ...' to scheme '${schemeName}', which the spec declares as ${what}]`;
}

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
  const fit = schemeFit(auth, scheme);
  return fit === 'exact' ? 'direct' : fit === 'inferred' ? 'mapped' : false;
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
  // `security: []` has no alternative: the loop below finds nothing to meet, and security[0] is absent.
  if (security === undefined) return [];
  const serves = (auth: AuthConfig, name: string): boolean =>
    auth.scheme !== undefined ? auth.scheme === name : authFits(auth, schemes[name]) !== false;
  // One distinct entry per name (all of an AND), backtracking as invoke's choice does: the first
  // entry that fits two names must not starve the other. The requirement comes from the spec, so
  // the search is bounded like invoke's.
  // An empty alternative (`{}`) is met at once: the endpoint may be called without credentials.
  const meets = (names: readonly string[], taken: ReadonlySet<number>, budget: { steps: number }): boolean => {
    if (names.length === 0) return true;
    // Stryker disable next-line EqualityOperator: one step more or less of a 10,000-step budget.
    if (--budget.steps < 0) return false;
    const [name, ...rest] = names as [string, ...string[]];
    return auths.some((auth, i) => !taken.has(i) && serves(auth, name) && meets(rest, new Set([...taken, i]), budget));
  };
  for (const alternative of security) {
    if (meets(Object.keys(alternative), new Set(), { steps: 10_000 })) return [];
  }
  return Object.keys(security[0] ?? {});
}

function sameName(place: string, a: string, b: string): boolean {
  return place === 'header' ? a.toLowerCase() === b.toLowerCase() : a === b;
}
