// OAuth2 client credentials: the token is fetched once, cached until shortly before it
// expires, and fetched again (once) when the API answers 401. Concurrent calls share one fetch.
import ky from 'ky';
import { InvokeError } from './errors.ts';
import { readText } from './read.ts';
import { redactAndCut, redactText } from './redact.ts';

export interface ClientCredentials {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  readonly timeoutMs: number;
  /** Where this auth is configured, e.g. `specs[0].auth[1]`, for messages. */
  readonly key: string;
}

interface Entry {
  token: Promise<string>;
  /** ms since epoch; Infinity when the server gave no `expires_in`. */
  expiresAt: number;
}

// Renew a little early so a token does not expire between the check and the request.
const SKEW_MS = 30_000;
/** A token response is small; more than this is not read (nor kept). */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  /** Every token this cache has handed out, so any echo of one can be redacted. */
  readonly #issued = new Set<string>();

  /** Tokens issued so far (bounded: old ones drop out as new ones arrive). */
  issued(): readonly string[] {
    return [...this.#issued];
  }

  async get(c: ClientCredentials): Promise<string> {
    const key = cacheKey(c);
    const hit = this.#entries.get(key);
    if (hit !== undefined && Date.now() < hit.expiresAt) return hit.token;
    const entry = { expiresAt: Infinity } as Entry;
    entry.token = fetchToken(c).then(
      ({ token, expiresIn }) => {
        if (expiresIn !== undefined) entry.expiresAt = Date.now() + Math.max(0, expiresIn * 1000 - SKEW_MS);
        this.#issued.add(token);
        if (this.#issued.size > 64) this.#issued.delete(this.#issued.values().next().value!);
        return token;
      },
      (err: unknown) => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
        throw err;
      },
    );
    this.#entries.set(key, entry);
    return entry.token;
  }

  /** Forget `token` after a 401, unless a newer token has already replaced it. */
  async invalidate(c: ClientCredentials, token: string): Promise<void> {
    const key = cacheKey(c);
    const hit = this.#entries.get(key);
    if (hit === undefined) return;
    const current = await hit.token.catch(() => undefined);
    if (current === token && this.#entries.get(key) === hit) this.#entries.delete(key);
  }
}

function cacheKey(c: ClientCredentials): string {
  return `${c.tokenUrl}\u0000${c.clientId}\u0000${c.scopes.join(' ')}`;
}

async function fetchToken(c: ClientCredentials): Promise<{ token: string; expiresIn?: number }> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret });
  if (c.scopes.length > 0) form.set('scope', c.scopes.join(' '));
  const secrets = [c.clientSecret];
  let res: Response;
  try {
    res = await ky.post(c.tokenUrl, {
      body: form,
      headers: { accept: 'application/json' },
      throwHttpErrors: false,
      retry: 0,
      timeout: c.timeoutMs,
      redirect: 'manual',
    });
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new InvokeError('invoke-auth', `OAuth2 token request to ${c.tokenUrl} failed: ${redactText(why, secrets)}`, {
      hint: `check ${c.key}.tokenUrl in svc.yaml`,
    });
  }
  const text = await readText(res, MAX_TOKEN_RESPONSE_BYTES);
  if (!res.ok) {
    throw new InvokeError(
      'invoke-auth',
      `OAuth2 token request to ${c.tokenUrl} failed: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${text ? `: ${shortened(text, secrets)}` : ''}`,
      { hint: `check ${c.key} (tokenUrl, clientId, clientSecret, scopes) in svc.yaml and the environment variables it names` },
    );
  }
  let parsed: { access_token?: unknown; expires_in?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    parsed = Object.fromEntries(new URLSearchParams(text)) as typeof parsed;
  }
  if (typeof parsed.access_token !== 'string' || parsed.access_token === '') {
    throw new InvokeError('invoke-auth', `OAuth2 token response from ${c.tokenUrl} has no access_token.`, {
      hint: `check ${c.key}.tokenUrl in svc.yaml`,
    });
  }
  const expiresIn = Number(parsed.expires_in);
  return Number.isFinite(expiresIn) && expiresIn > 0 ? { token: parsed.access_token, expiresIn } : { token: parsed.access_token };
}

/** Redact first, then cut: the shown part of an error body never holds the start of a secret. */
function shortened(text: string, secrets: readonly string[]): string {
  const { text: shown, cut } = redactAndCut(text, secrets, 300);
  return cut ? `${shown}...` : shown;
}
