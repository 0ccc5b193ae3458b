// Where svc.yaml puts credentials (headers, query keys, cookies), so that nothing the model
// supplies can set, replace or duplicate one, and the values svc.yaml gives for credentials a
// spec declares as ordinary parameters.
import type { SpecConfig } from '../config/types.ts';
import type { Endpoint, Parameter } from '../model/index.ts';
import { secret } from './auth.ts';
import { InvokeError } from './errors.ts';
import type { SerializedParams } from './serialize.ts';
import type { SpecSettings } from './settings.ts';
import type { BoundParam } from './validate.ts';

type Place = 'header' | 'query' | 'cookie';

export interface CredentialSlot {
  readonly in: Place;
  /** Lower-cased for headers (their names are case-insensitive). */
  readonly name: string;
  /** The svc.yaml key that puts a credential there, for messages. */
  readonly key: string;
}

function slot(place: Place, name: string, key: string): CredentialSlot {
  return { in: place, name: place === 'header' ? name.toLowerCase() : name, key };
}

/** The header, query keys and cookies that svc.yaml fills for this spec, whether this call uses them or not. */
export function credentialSlots(spec: SpecConfig, key: string): CredentialSlot[] {
  const out: CredentialSlot[] = [];
  for (const name of Object.keys(spec.headers)) out.push(slot('header', name, `${key}.headers.${name}`));
  spec.auth.forEach((auth, i) => {
    const at = `${key}.auth[${i}]`;
    if (auth.type === 'apiKey') out.push(slot(auth.in, auth.name, at));
    else out.push(slot('header', 'authorization', at));
  });
  for (const name of Object.keys(spec.parameters ?? {})) {
    const { place, bare } = splitKey(name);
    const places: readonly Place[] = place !== undefined ? [place] : ['header', 'query', 'cookie'];
    for (const p of places) out.push(slot(p, bare, `${key}.parameters.${name}`));
  }
  return out;
}

function splitKey(key: string): { place?: Place; bare: string } {
  const dot = key.indexOf('.');
  const head = key.slice(0, dot);
  // Stryker disable next-line EqualityOperator: with the dot first the head is empty, which names no place either.
  if (dot > 0 && (head === 'header' || head === 'query' || head === 'cookie')) return { place: head, bare: key.slice(dot + 1) };
  return { bare: key };
}

function slotOf(slots: readonly CredentialSlot[], place: string, name: string): CredentialSlot | undefined {
  const n = place === 'header' ? name.toLowerCase() : name;
  return slots.find((s) => s.in === place && s.name === n);
}

/**
 * The endpoint's parameters that svc fills or guards itself, with the svc.yaml key that does: the
 * model may not give them, and they are not required of it.
 */
export function reservedParameters(endpoint: Pick<Endpoint, 'parameters'>, slots: readonly CredentialSlot[]): Map<Parameter, string> {
  const out = new Map<Parameter, string>();
  for (const p of endpoint.parameters) {
    const s = slotOf(slots, p.in, p.name);
    if (s !== undefined) out.set(p, s.key);
  }
  return out;
}

/** The values svc.yaml `parameters:` gives for this endpoint's parameters (secrets added to `secrets`). */
export function credentialParameters(endpoint: Pick<Endpoint, 'parameters'>, settings: SpecSettings, secrets: string[]): BoundParam[] {
  const out: BoundParam[] = [];
  const configured = settings.spec.parameters ?? {};
  for (const p of endpoint.parameters) {
    if (p.in === 'path') continue;
    const key = `${p.in}.${p.name}` in configured ? `${p.in}.${p.name}` : p.name in configured ? p.name : undefined;
    if (key === undefined) continue;
    const value = secret(configured[key]!, `${settings.key}.parameters.${key}`, settings);
    // Stryker disable next-line CallExpression: configuredSecrets already lists every value svc.yaml's parameters give.
    secrets.push(value);
    out.push({ param: p, value });
  }
  return out;
}

/** Names of the query keys in `a=1&b%5Bx%5D=2`, decoded, up to a `[` (so `key[x]` counts as `key`). */
function queryKeys(query: string): string[] {
  return query.split('&').map((pair) => {
    const raw = pair.split('=')[0]!;
    let name: string;
    try {
      name = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      name = raw;
    }
    const bracket = name.indexOf('[');
    // Stryker disable next-line EqualityOperator: a name that starts with `[` would be cut to the empty name, which no credential has.
    return bracket > 0 ? name.slice(0, bracket) : name;
  });
}

/**
 * Refuses serialized model parameters that would reach a credential's place: a header of the
 * same name, the same query key (whatever object or free-form parameter produced it), the same
 * cookie, or a whole Cookie header when a credential goes in a cookie.
 */
export function assertNoShadowing(params: SerializedParams, slots: readonly CredentialSlot[]): void {
  const refuse = (what: string, s: CredentialSlot): never => {
    throw new InvokeError('invoke-unsafe-value', `Refused: the arguments set ${what}, which svc.yaml fills with a credential (${s.key}); leave it out, svc sends it itself.`);
  };
  for (const [name] of params.headers) {
    const s = slotOf(slots, 'header', name);
    if (s !== undefined) refuse(`the header '${name}'`, s);
    const cookie = name.toLowerCase() === 'cookie' ? slots.find((x) => x.in === 'cookie') : undefined;
    if (cookie !== undefined) refuse(`a Cookie header`, cookie);
  }
  for (const key of queryKeys(params.query)) {
    const s = slotOf(slots, 'query', key);
    if (s !== undefined) refuse(`the query key '${key}'`, s);
  }
  for (const pair of params.cookies) {
    const name = pair.slice(0, pair.indexOf('='));
    const s = slotOf(slots, 'cookie', name);
    if (s !== undefined) refuse(`the cookie '${name}'`, s);
  }
}

/**
 * For listings and inspect: the endpoint's parameters svc fills or guards from svc.yaml (the model
 * must not supply them), each with the svc.yaml key that does.
 */
export function svcFilledParameters(endpoint: Pick<Endpoint, 'parameters'>, spec: SpecConfig, key: string): Map<Parameter, string> {
  return reservedParameters(endpoint, credentialSlots(spec, key));
}
