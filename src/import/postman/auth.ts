// Postman auth -> security schemes and per-endpoint security requirements.
//
// Auth is set on the collection, on folders and on requests; the nearest one that says
// something wins. `type: "inherit"` (or no auth at all) defers to the parent; `noauth` stops
// the chain and means "no authentication" (`security: []`). Credential values (tokens,
// passwords, keys) are never read into the catalogue: only the shape of the scheme is kept.
import type { SecurityRequirement } from '../../model/endpoint.ts';
import type { SecurityScheme } from '../../model/spec.ts';
import { isRecord, keyValues, text } from './shapes.ts';

/** What an auth block says: `inherit` (ask the parent), `none` (noauth), or a scheme to use. */
export type AuthDecision =
  | { readonly kind: 'inherit' }
  | { readonly kind: 'none' }
  | { readonly kind: 'scheme'; readonly requirement: readonly SecurityRequirement[] };

export const INHERIT: AuthDecision = { kind: 'inherit' };
const NONE: AuthDecision = { kind: 'none' };

/** Collects the schemes a collection uses, naming each after its Postman type. */
export class SecuritySchemes {
  readonly schemes: Record<string, SecurityScheme> = {};
  readonly #byShape = new Map<string, string>();
  readonly #cache = new WeakMap<object, AuthDecision>();
  readonly #fromHeader = new Map<string, AuthDecision>();

  /** Reads one auth block; `problem` is called when it cannot be understood. */
  decide(auth: unknown, problem: (message: string) => void): AuthDecision {
    if (auth === undefined || auth === null) return INHERIT;
    if (!isRecord(auth)) {
      problem('auth is not an object; it is ignored and the parent auth applies');
      return INHERIT;
    }
    const cached = this.#cache.get(auth);
    if (cached) return cached;
    const decision = this.#decide(auth, problem);
    this.#cache.set(auth, decision);
    return decision;
  }

  #decide(auth: Record<string, unknown>, problem: (message: string) => void): AuthDecision {
    const type = text(auth['type']);
    if (type === undefined) {
      problem('auth has no `type`; it is ignored and the parent auth applies');
      return INHERIT;
    }
    if (type === 'inherit') return INHERIT;
    if (type === 'noauth') return NONE;
    const fields = keyValues(auth[type]);
    const { scheme, scopes } = schemeFor(type, fields);
    const name = this.#register(type, scheme);
    return { kind: 'scheme', requirement: [{ [name]: scopes }] };
  }

  /** A scheme seen in an `Authorization` header written by hand (no auth block). */
  fromHeader(value: string): AuthDecision | undefined {
    const match = /^(Bearer|Basic)\s/i.exec(value.trim());
    if (!match) return undefined;
    const scheme = (match[1] as string).toLowerCase();
    let decision = this.#fromHeader.get(scheme);
    if (!decision) {
      const name = this.#register(scheme, { type: 'http', scheme });
      decision = { kind: 'scheme', requirement: [{ [name]: [] }] };
      this.#fromHeader.set(scheme, decision);
    }
    return decision;
  }

  /** Same type and same shape share a name; a different shape of the same type gets `type_2`, ... */
  #register(type: string, scheme: SecurityScheme): string {
    const shape = JSON.stringify(scheme);
    const known = this.#byShape.get(shape);
    if (known !== undefined) return known;
    let name = type;
    for (let n = 2; name in this.schemes; n++) name = `${type}_${n}`;
    this.schemes[name] = scheme;
    this.#byShape.set(shape, name);
    return name;
  }
}

function schemeFor(type: string, fields: Map<string, unknown>): { scheme: SecurityScheme; scopes: string[] } {
  switch (type) {
    case 'bearer':
      return { scheme: { type: 'http', scheme: 'bearer' }, scopes: [] };
    case 'basic':
      return { scheme: { type: 'http', scheme: 'basic' }, scopes: [] };
    case 'apikey': {
      const name = text(fields.get('key'));
      const where = text(fields.get('in'));
      if (name === undefined || name === '') {
        return { scheme: { type: 'other', description: 'Postman apikey auth without a key name' }, scopes: [] };
      }
      return { scheme: { type: 'apiKey', in: where === 'query' ? 'query' : 'header', name }, scopes: [] };
    }
    case 'oauth2': {
      const tokenUrl = text(fields.get('accessTokenUrl'));
      const scopes = (text(fields.get('scope')) ?? '').split(/\s+/).filter((s) => s !== '');
      return {
        scheme: {
          type: 'oauth2',
          ...(tokenUrl !== undefined && tokenUrl !== '' ? { tokenUrl } : {}),
          ...(scopes.length > 0 ? { scopes } : {}),
        },
        scopes,
      };
    }
    default:
      return { scheme: { type: 'other', description: `Postman ${type} auth` }, scopes: [] };
  }
}

const headerNamesCache = new WeakMap<AuthDecision, ReadonlySet<string>>();
const queryNamesCache = new WeakMap<AuthDecision, ReadonlySet<string>>();
const NO_NAMES: ReadonlySet<string> = new Set();

/** The header an auth scheme sets by itself, which is therefore not a parameter of its own. */
export function authHeaderNames(decision: AuthDecision, schemes: Record<string, SecurityScheme>): ReadonlySet<string> {
  if (decision.kind !== 'scheme') return NO_NAMES;
  const cached = headerNamesCache.get(decision);
  if (cached) return cached;
  const names = new Set<string>();
  headerNamesCache.set(decision, names);
  names.add('authorization');
  for (const alternative of decision.requirement) {
    for (const name of Object.keys(alternative)) {
      const scheme = schemes[name];
      if (scheme?.type === 'apiKey' && scheme.in === 'header') names.add(scheme.name.toLowerCase());
    }
  }
  return names;
}

/** The query parameter an apiKey-in-query scheme sets by itself. */
export function authQueryNames(decision: AuthDecision, schemes: Record<string, SecurityScheme>): ReadonlySet<string> {
  if (decision.kind !== 'scheme') return NO_NAMES;
  const cached = queryNamesCache.get(decision);
  if (cached) return cached;
  const names = new Set<string>();
  queryNamesCache.set(decision, names);
  for (const alternative of decision.requirement) {
    for (const name of Object.keys(alternative)) {
      const scheme = schemes[name];
      if (scheme?.type === 'apiKey' && scheme.in === 'query') names.add(scheme.name);
    }
  }
  return names;
}
