// What invoke may do: safe methods always, writes only as svc.yaml allows; requests only to the
// spec's own origin (or origins svc.yaml lists).
import type { Endpoint } from '../model/index.ts';
import { OriginRefusedError, WriteRefusedError } from './errors.ts';
import type { SpecSettings } from './settings.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method);
}

/**
 * Throws the refusal (saying which key to set) when the policy forbids this write outright;
 * returns true when the person must confirm it first.
 */
export function checkWrite(
  endpoint: Pick<Endpoint, 'method' | 'path'>,
  settings: SpecSettings,
  confirm: ((message: string) => Promise<boolean>) | undefined,
  /** The method the request really asks for, when a method-override header names another. */
  method: string = endpoint.method,
): boolean {
  if (isSafeMethod(method)) return false;
  const policy = settings.spec.writes;
  const what = method === endpoint.method ? `${endpoint.method} ${endpoint.path}` : `${endpoint.method} ${endpoint.path} with a method override to ${method}`;
  if (policy === 'allow') return false;
  if (policy === 'deny') {
    throw new WriteRefusedError(
      `Refused: ${what} is a write, and writes to spec '${settings.spec.name}' are off (svc is read-only by default).`,
      `to allow them set ${settings.key}.writes: allow (or confirm, to ask the person each time) in svc.yaml${settings.where}`,
    );
  }
  if (confirm === undefined) {
    throw new WriteRefusedError(
      `Refused: ${what} needs the person's confirmation (${settings.key}.writes: confirm), but this MCP client cannot ask (it does not support elicitation).`,
      `use a client with elicitation, or set ${settings.key}.writes: allow in svc.yaml${settings.where}`,
    );
  }
  return true;
}

// Headers by which a client asks a server to treat a request as another method.
const METHOD_OVERRIDE_HEADERS = new Set(['x-http-method-override', 'x-http-method', 'x-method-override']);

/** The method a request really asks for: the one a method-override header names, else its own. */
export function effectiveMethod(method: string, headers: Iterable<readonly [string, string]>): string {
  for (const [name, value] of headers) {
    if (!METHOD_OVERRIDE_HEADERS.has(name.toLowerCase())) continue;
    const named = value.trim().toUpperCase();
    // Any override that names a write makes the request a write (a write overridden to GET stays a write).
    if (named !== '' && !isSafeMethod(named)) return named;
  }
  return method;
}

/** Asks the person (MCP elicitation) whether this one write may go ahead, showing what will be sent. */
export async function askToConfirmWrite(
  endpoint: Pick<Endpoint, 'method' | 'path'>,
  confirm: ((message: string) => Promise<boolean>) | undefined,
  message: string,
): Promise<void> {
  const what = `${endpoint.method} ${endpoint.path}`;
  if (confirm === undefined) return;
  let ok: boolean;
  try {
    ok = await confirm(message);
  } catch (cause) {
    throw new WriteRefusedError(`Refused: asking the person to confirm ${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (!ok) throw new WriteRefusedError(`Refused: the person declined ${what}.`);
}

export function allowedOrigins(baseOrigin: string, settings: SpecSettings): Set<string> {
  const set = new Set([baseOrigin]);
  for (const o of settings.spec.allowedOrigins) {
    try {
      set.add(new URL(o).origin);
    } catch {
      // The config loader validates these; an unparseable one simply allows nothing.
    }
  }
  return set;
}

export function checkOrigin(url: URL, allowed: ReadonlySet<string>, settings: SpecSettings): void {
  if (allowed.has(url.origin)) return;
  throw new OriginRefusedError(
    `Refused: ${url.origin} is not the origin of spec '${settings.spec.name}' (${[...allowed].join(', ')}).`,
    `to allow it list it in ${settings.key}.allowedOrigins in svc.yaml${settings.where}`,
  );
}
