// How a configured auth entry maps onto a spec's security schemes. Pure: `svc check` uses it to
// report mismatches, invoke uses it to choose credentials.
import type { AuthConfig } from '../config/types.ts';
import type { SecurityScheme } from '../model/index.ts';

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

function sameName(place: string, a: string, b: string): boolean {
  return place === 'header' ? a.toLowerCase() === b.toLowerCase() : a === b;
}
