// Public surface of invoke: endpoint + arguments -> a real HTTP request -> a compact answer.
// The only place in svc that sends HTTP requests to APIs (and the only one that imports ky).
import ky from 'ky';
import type { Config, SecretRef } from '../config/types.ts';
import type { Endpoint, ImportedSpec } from '../model/index.ts';
import { SvcError } from '../model/errors.ts';
import type { ToolResult } from '../tools/types.ts';
import { applyAuth, configuredSecrets, type AppliedAuth } from './auth.ts';
import { resolveBaseUrl, resolveSpecBaseUrl } from './base-url.ts';
import { encodeBody, type EncodedBody } from './body.ts';
import { InvokeError } from './errors.ts';
import { TokenCache } from './oauth2.ts';
import { allowedOrigins, askToConfirmWrite, checkOrigin, checkWrite, isSafeMethod } from './policy.ts';
import { redactText } from './redact.ts';
import { formatResponse } from './response.ts';
import { assertHeaderValue, serializeParams } from './serialize.ts';
import { specSettings, type SpecSettings } from './settings.ts';
import { bindArguments } from './validate.ts';

export interface InvokeArgs {
  /** By parameter name; `query.name`, `header.name`... where two parameters share a name. */
  readonly params?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  /**
   * Media type of the body when the endpoint accepts several (e.g. `application/x-www-form-urlencoded`);
   * default: JSON, else form, multipart, text, else the first listed. (Additive to the first contract.)
   */
  readonly contentType?: string;
}

export interface InvokeContext {
  readonly confirm?: (message: string) => Promise<boolean>;
  readonly signal?: AbortSignal;
}

/** ToolResult whose `structured` is `{status, headers, body, truncated}` whenever a response arrived. */
export type InvokeResult = ToolResult;

export interface Invoker {
  invoke(endpoint: Endpoint, spec: ImportedSpec, args: InvokeArgs, ctx: InvokeContext): Promise<InvokeResult>;
}

export { InvokeError, InvalidArgumentsError, OriginRefusedError, WriteRefusedError } from './errors.ts';

/** Same-origin redirects followed per call, at most. */
const MAX_REDIRECTS = 5;
/** A Retry-After longer than this is not waited for: the response goes back to the LLM. */
const MAX_RETRY_AFTER_MS = 10_000;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const DEFAULT_ACCEPT = 'application/json, */*;q=0.8';
const USER_AGENT = 'svc (+MCP bridge)';

/** One invoker per daemon: it caches OAuth2 tokens per spec. */
export function createInvoker(config: Config): Invoker {
  const tokens = new TokenCache();
  const settings = new Map<string, SpecSettings>();
  return {
    async invoke(endpoint, spec, args, ctx) {
      const secrets: string[] = [];
      try {
        let s = settings.get(spec.name);
        if (s === undefined) settings.set(spec.name, (s = specSettings(config, spec.name)));
        secrets.push(...configuredSecrets(s), ...tokens.issued());
        return await invoke(config, s, tokens, endpoint, spec, args, ctx, secrets);
      } catch (err) {
        return errorResult(err, secrets);
      }
    },
  };
}

function errorResult(err: unknown, secrets: readonly string[]): InvokeResult {
  let text: string;
  if (err instanceof SvcError) text = err.hint !== undefined ? `${err.message}\nHint: ${err.hint}` : err.message;
  else text = `Invoke failed: ${err instanceof Error ? err.message : String(err)}`;
  return { text: redactText(text, secrets), isError: true };
}

function secretValue(ref: SecretRef | string, key: string): string {
  if (typeof ref === 'string') return ref;
  const v = process.env[ref.env];
  if (v === undefined) {
    throw new InvokeError('invoke-auth', `Environment variable ${ref.env} (named by ${key} in svc.yaml) is not set.`, {
      hint: `set ${ref.env} in the environment svc runs in`,
    });
  }
  return v;
}

async function invoke(
  config: Config,
  settings: SpecSettings,
  tokens: TokenCache,
  endpoint: Endpoint,
  spec: ImportedSpec,
  args: InvokeArgs,
  ctx: InvokeContext,
  secrets: string[],
): Promise<InvokeResult> {
  // A write the policy refuses is refused first: no argument fixing will help.
  const needsConfirm = checkWrite(endpoint, settings, ctx.confirm);

  const bound = bindArguments(endpoint, spec, args.params, args.body, args.contentType);
  const base = resolveBaseUrl(endpoint, spec, settings);
  const params = serializeParams(endpoint.path, bound.params);
  const path = params.path.startsWith('/') || params.path === '' ? params.path : `/${params.path}`;
  const target = new URL(`${base.href}${path}${params.query !== '' ? `?${params.query}` : ''}`);
  // Requests may go to the spec's own origin; an operation-level server elsewhere must be listed.
  let specOrigin = base.origin;
  try {
    specOrigin = resolveSpecBaseUrl(spec, settings).origin;
  } catch {
    // The document's servers are unusable (relative, say) but this endpoint's are: trust those.
  }
  const allowed = allowedOrigins(specOrigin, settings);
  // The final URL is checked after serialization: nothing a value does may leave the origin.
  checkOrigin(target, allowed, settings);
  if (!target.pathname.startsWith(new URL(base.href).pathname)) {
    throw new InvokeError('invoke-unsafe-value', `The URL ${target.origin}${target.pathname} leaves the base path of spec '${spec.name}'; svc refuses it.`);
  }
  const encoded = bound.content !== undefined ? encodeBody(bound.content, bound.body, spec) : undefined;
  if (needsConfirm) await askToConfirmWrite(endpoint, settings, ctx.confirm, `${target.origin}${target.pathname}`);

  const fixedHeaders: Array<[string, string]> = [];
  for (const [name, ref] of Object.entries(settings.spec.headers)) {
    const value = secretValue(ref, `${settings.key}.headers.${name}`);
    if (typeof ref !== 'string') secrets.push(value);
    assertHeaderValue(name, value);
    fixedHeaders.push([name, value]);
  }
  for (const [name, value] of params.headers) fixedHeaders.push([name, value]);

  let auth = await applyAuth(endpoint, spec, settings, tokens, base.href);
  secrets.push(...auth.secrets);

  const notes: string[] = [];
  let url = target;
  if (auth.query.length > 0) url = new URL(`${target.href}${target.search !== '' ? '&' : '?'}${auth.query.join('&')}`);
  let method: string = endpoint.method;
  let body: EncodedBody | undefined = encoded;
  let redirects = 0;
  let retries = 0;
  let refreshed = false;
  const retryLimit = isSafeMethod(endpoint.method) ? settings.spec.retries : 0;

  for (;;) {
    const headers = buildHeaders(fixedHeaders, params.cookies, auth, body);
    const { res, timeout } = await send(url, method, headers, body, settings, ctx.signal, secrets);
    const finish = async (): Promise<InvokeResult> => {
      try {
        return await formatFinal(res, method, auth, secrets, notes, config, settings, endpoint);
      } catch (cause) {
        throw failure(cause, method, url, timeout, ctx.signal, settings, secrets);
      }
    };

    if (res.status >= 300 && res.status < 400 && res.headers.has('location')) {
      const location = res.headers.get('location')!;
      let next: URL | undefined;
      try {
        next = new URL(location, url);
      } catch {
        next = undefined;
      }
      if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:') || next.origin !== url.origin || !allowed.has(next.origin)) {
        notes.push(`[redirect to ${next?.origin ?? location} not followed: svc only follows redirects within ${url.origin}]`);
        return finish();
      }
      if (redirects >= MAX_REDIRECTS) {
        notes.push(`[stopped after ${MAX_REDIRECTS} redirects]`);
        return finish();
      }
      await res.body?.cancel().catch(() => undefined);
      redirects++;
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
      }
      url = next;
      continue;
    }

    if (res.status === 401 && auth.oauth.length > 0 && !refreshed) {
      // The token may have been revoked or expired early: fetch a new one, once.
      refreshed = true;
      await res.body?.cancel().catch(() => undefined);
      for (const { creds, token } of auth.oauth) await tokens.invalidate(creds, token);
      auth = await applyAuth(endpoint, spec, settings, tokens, base.href);
      secrets.push(...auth.secrets);
      continue;
    }

    if (RETRY_STATUSES.has(res.status) && retries < retryLimit) {
      const retryAfter = res.headers.get('retry-after');
      const wait = retryDelay(retryAfter, retries);
      if (retryAfter !== null && wait > MAX_RETRY_AFTER_MS) {
        notes.push(`[not retried: Retry-After asks for ${Math.ceil(wait / 1000)} s, more than svc waits]`);
        return finish();
      }
      await res.body?.cancel().catch(() => undefined);
      await sleep(wait, ctx.signal);
      retries++;
      continue;
    }
    if (retries > 0) notes.push(`[after ${retries} retr${retries === 1 ? 'y' : 'ies'}]`);
    return finish();
  }
}

function buildHeaders(fixed: ReadonlyArray<readonly [string, string]>, cookies: readonly string[], auth: AppliedAuth, body: EncodedBody | undefined): Headers {
  const h = new Headers();
  h.set('accept', DEFAULT_ACCEPT);
  h.set('user-agent', USER_AGENT);
  for (const [name, value] of fixed) h.set(name, value);
  for (const [name, value] of auth.headers) {
    assertHeaderValue(name, value);
    h.set(name, value);
  }
  const allCookies = [...cookies, ...auth.cookies];
  if (allCookies.length > 0) h.set('cookie', allCookies.join('; '));
  if (body?.contentType !== undefined) h.set('content-type', body.contentType);
  return h;
}

interface Sent {
  readonly res: Response;
  /** Fires when the attempt's deadline passes; reading the body stays under it. */
  readonly timeout: AbortSignal;
}

async function send(
  url: URL,
  method: string,
  headers: Headers,
  body: EncodedBody | undefined,
  settings: SpecSettings,
  outer: AbortSignal | undefined,
  secrets: readonly string[],
): Promise<Sent> {
  const timeout = AbortSignal.timeout(settings.spec.timeoutMs);
  const signal = outer !== undefined ? AbortSignal.any([outer, timeout]) : timeout;
  try {
    const res = await ky(url, {
      method,
      headers,
      ...(body !== undefined ? { body: body.body } : {}),
      throwHttpErrors: false,
      retry: 0,
      timeout: false,
      redirect: 'manual',
      signal,
    });
    return { res, timeout };
  } catch (cause) {
    throw failure(cause, method, url, timeout, outer, settings, secrets);
  }
}

/** What went wrong on the wire, and where, as an InvokeError. */
function failure(
  cause: unknown,
  method: string,
  url: URL,
  timeout: AbortSignal,
  outer: AbortSignal | undefined,
  settings: SpecSettings,
  secrets: readonly string[],
): InvokeError {
  if (cause instanceof InvokeError) return cause;
  const where = `${method} ${redactText(`${url.origin}${url.pathname}`, secrets)}`;
  if (timeout.aborted) {
    return new InvokeError('invoke-timeout', `Timed out after ${formatMs(settings.spec.timeoutMs)} waiting for ${where}.`, {
      hint: `the API did not answer in time; retry later, or raise ${settings.key}.timeoutMs in svc.yaml`,
    });
  }
  if (outer?.aborted) return new InvokeError('invoke-aborted', `Cancelled: ${where}.`);
  return new InvokeError('invoke-network', `Network error on ${where}: ${redactText(describeCause(cause), secrets)}`, { cause });
}

function describeCause(err: unknown): string {
  // fetch wraps the socket error: the innermost cause says what happened (ECONNREFUSED, ENOTFOUND...).
  let e: unknown = err;
  let last = err instanceof Error ? err.message : String(err);
  for (let i = 0; i < 5 && e instanceof Error; i++) {
    last = e.message;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !e.message.includes(code)) last = `${code} ${e.message}`;
    e = e.cause;
  }
  return last;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Retry-After (seconds or an HTTP date), else exponential backoff from 250 ms. */
function retryDelay(header: string | null, attempt: number): number {
  if (header !== null) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return Math.min(250 * 2 ** attempt, 2000);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new InvokeError('invoke-aborted', 'Cancelled while waiting to retry.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function formatFinal(
  res: Response,
  method: string,
  auth: AppliedAuth,
  secrets: readonly string[],
  notes: string[],
  config: Config,
  settings: SpecSettings,
  endpoint: Endpoint,
): Promise<InvokeResult> {
  if ((res.status === 401 || res.status === 403) && auth.headers.length + auth.query.length + auth.cookies.length === 0) {
    const needed = auth.unmet.length > 0 ? `security scheme ${auth.unmet.map((s) => `'${s}'`).join(' + ')}` : 'credentials';
    notes.push(
      `[svc sent no credentials: ${endpoint.method} ${endpoint.path} needs ${needed}; configure ${settings.key}.auth in svc.yaml${auth.unmet.length > 0 ? ` with scheme: ${auth.unmet[0]}` : ''}]`,
    );
  }
  return formatResponse(res, {
    method,
    secrets,
    sensitiveHeaders: auth.sensitiveHeaders,
    notes,
    maxResponseBytes: config.limits.maxResponseBytes,
    maxImageBytes: config.limits.maxImageBytes,
  });
}
