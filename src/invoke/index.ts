// Public surface of invoke: endpoint + arguments -> a real HTTP request -> a compact answer.
// The only place in svc that sends HTTP requests to APIs (and the only one that imports ky).
import type { Config } from '../config/types.ts';
import type { Endpoint, ImportedSpec } from '../model/index.ts';
import { SvcError } from '../model/errors.ts';
import type { ToolResult } from '../tools/types.ts';
import { applyAuth, chooseAuth, configuredSecrets, isAvailable, secret, type AppliedAuth } from './auth.ts';
import { resolveBaseUrl, resolveSpecBaseUrl, withinBase, type BaseUrl } from './base-url.ts';
import { encodeBody, type EncodedBody } from './body.ts';
import { confirmationMessage, describeWrite } from './confirm.ts';
import { assertNoShadowing, credentialParameters, credentialSlots, reservedParameters, type CredentialSlot } from './credentials.ts';
import { InvokeError } from './errors.ts';
import { TokenCache } from './oauth2.ts';
import { allowedOrigins, askToConfirmWrite, checkOrigin, checkWrite, effectiveMethod, isSafeMethod } from './policy.ts';
import { discard } from './read.ts';
import { redactText } from './redact.ts';
import { formatResponse } from './response.ts';
import { assertHeaderValue, serializeParams } from './serialize.ts';
import { specSettings, type SpecSettings } from './settings.ts';
import { bindArguments, type BoundParam } from './validate.ts';
import { failure, retryDelay, send, sleep } from './wire.ts';

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
export { authMatches, schemeFit, type SchemeFit, type SchemeMatch } from './auth-match.ts';
export { credentialBase, type CredentialBase } from './base-url.ts';
export { confirmationMessage, describeWrite, type WriteConfirmation } from './confirm.ts';
export { svcFilledParameters } from './credentials.ts';

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
        // Stryker disable next-line ConditionalExpression: computing the settings again gives the same (the map only saves work).
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
  let needsConfirm = checkWrite(endpoint, settings, ctx.confirm);

  const slots = credentialSlots(settings.spec, settings.key);
  const bound = bindArguments(endpoint, spec, args.params, args.body, args.contentType, reservedParameters(endpoint, slots));
  const base = resolveBaseUrl(endpoint, spec, settings);
  const params = serializeParams(endpoint.path, bound.params);
  // Nothing the model gives may reach a credential's header, query key or cookie.
  assertNoShadowing(params, slots);
  const path = params.path.startsWith('/') || params.path === '' ? params.path : `/${params.path}`;
  const urlWith = (query: string): URL => new URL(`${base.href}${path}${query !== '' ? `?${query}` : ''}`);
  // Credentials go only to the spec's base URL (svc.yaml's baseUrl, else the spec's first server).
  let scope: BaseUrl = base;
  try {
    scope = resolveSpecBaseUrl(spec, settings);
  } catch {
    // The document's servers are unusable (relative, say) but this endpoint's are: trust those.
  }
  const credentialed = withinBase(urlWith(params.query), scope);
  const ownBound = credentialed ? credentialParameters(endpoint, settings, secrets) : [];
  // Stryker disable next-line StringLiteral: only the query, headers and cookies of svc.yaml's own values are used, not a path.
  const own = serializeParams('', ownBound);
  const target = urlWith([params.query, own.query].filter((q) => q !== '').join('&'));
  const allowed = allowedOrigins(scope.origin, settings);
  // The final URL is checked after serialization: nothing a value does may leave the origin.
  checkOrigin(target, allowed, settings);
  if (!withinBase(target, base)) {
    throw new InvokeError(
      // Stryker disable next-line StringLiteral: the answer shows the message and hint, not the code.
      'invoke-unsafe-value',
      `The URL ${target.origin}${target.pathname} leaves the base path of spec '${spec.name}'; svc refuses it.`,
    );
  }
  const encoded = bound.content !== undefined ? encodeBody(bound.content, bound.body, spec) : undefined;

  const fixedHeaders: Array<[string, string]> = [];
  const shownHeaders: Array<readonly [string, string]> = [];
  for (const [name, ref] of Object.entries(settings.spec.headers)) {
    // A secret header is a credential: it goes only where credentials go.
    if (typeof ref !== 'string' && !credentialed) continue;
    const value = secret(ref, `${settings.key}.headers.${name}`, settings);
    // Stryker disable next-line CallExpression: configuredSecrets already lists every secret header's value.
    if (typeof ref !== 'string') secrets.push(value);
    else shownHeaders.push([name, value]);
    assertHeaderValue(name, value);
    fixedHeaders.push([name, value]);
  }
  for (const [name, value] of [...params.headers, ...own.headers]) fixedHeaders.push([name, value]);
  shownHeaders.push(...params.headers);
  const cookies = [...params.cookies, ...own.cookies];

  // A method-override header makes the request the method it names, for deny and confirm alike.
  const method = effectiveMethod(endpoint.method, fixedHeaders);
  // Stryker disable next-line ConditionalExpression: checking the same method again gives the same answer as the check above.
  if (method !== endpoint.method) needsConfirm = checkWrite(endpoint, settings, ctx.confirm, method) || needsConfirm;

  const notes: string[] = [...bound.notes];
  if (!credentialed && slots.length > 0) notes.push(`[svc sent no credentials: ${target.origin}${target.pathname} is outside ${scope.href}, the only base URL svc.yaml's credentials go to]`);
  if (needsConfirm) {
    const confirmation = describeWrite(
      { method: endpoint.method, url: target, headers: shownHeaders, cookies: params.cookies, body: encoded, credentials: credentialed ? credentialNames(endpoint, spec, settings, ownBound) : [] },
      settings.spec.name,
      `${endpoint.method} ${endpoint.path}${method !== endpoint.method ? `, overridden to ${method}` : ''}`,
      secrets,
    );
    await askToConfirmWrite(endpoint, ctx.confirm, confirmationMessage(confirmation));
  }

  const noAuth: AppliedAuth = { headers: [], query: [], cookies: [], secrets: [], sensitiveHeaders: new Set(), oauth: [], unmet: [], notes: [] };
  let auth = credentialed ? await applyAuth(endpoint, spec, settings, tokens, scope.href) : noAuth;
  secrets.push(...auth.secrets);
  notes.push(...auth.notes);

  const withQuery = (url: URL, extra: readonly string[]): URL => (extra.length > 0 ? new URL(`${url.href}${url.search !== '' ? '&' : '?'}${extra.join('&')}`) : url);
  let url = withQuery(target, auth.query);
  let sendCredentials = true;
  let body: EncodedBody | undefined = encoded;
  let sentMethod: string = endpoint.method;
  let redirects = 0;
  let retries = 0;
  let refreshed = false;
  const retryLimit = isSafeMethod(method) ? settings.spec.retries : 0;

  for (;;) {
    const headers = sendCredentials
      ? buildHeaders(fixedHeaders, cookies, auth, body)
      : buildHeaders(fixedHeaders.filter(([n]) => !isCredentialHeader(n, slots)), params.cookies, noAuth, body);
    const { res, timeout } = await send(url, sentMethod, headers, body, settings, ctx.signal, secrets);
    const finish = async (): Promise<InvokeResult> => {
      try {
        return await formatFinal(res, sentMethod, auth, secrets, notes, config, settings, endpoint);
      } catch (cause) {
        await discard(res);
        throw failure(cause, sentMethod, url, timeout, ctx.signal, settings, secrets);
      }
    };

    if (res.status >= 300 && res.status < 400 && res.headers.has('location')) {
      const location = res.headers.get('location')!;
      const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      // The same origin only. That origin passed the checks before the first request (an http or
      // https URL, an allowed origin), and an origin includes its scheme: a redirect that keeps the
      // origin needs no other check, and one to any other scheme or origin is not followed.
      if (next === undefined || next.origin !== url.origin) {
        notes.push(`[redirect to ${next?.origin ?? location} not followed: svc only follows redirects within ${url.origin}]`);
        return finish();
      }
      if (redirects >= MAX_REDIRECTS) {
        notes.push(`[stopped after ${MAX_REDIRECTS} redirects]`);
        return finish();
      }
      const keepsMethod = !(res.status === 303 || ((res.status === 301 || res.status === 302) && sentMethod === 'POST'));
      // A write is re-sent (with its body) only to the same path: a redirect must not move it.
      if (keepsMethod && !isSafeMethod(sentMethod) && next.pathname !== url.pathname) {
        notes.push(`[redirect of ${sentMethod} to ${next.pathname} not followed: svc re-sends a write only to the same path]`);
        return finish();
      }
      await discard(res);
      redirects++;
      if (!keepsMethod) {
        if (sentMethod !== 'HEAD') sentMethod = 'GET';
        body = undefined;
      }
      // The credential stays only within the base path it belongs to.
      if (!withinBase(next, scope)) sendCredentials = false;
      url = next;
      continue;
    }

    if (res.status === 401 && auth.oauth.length > 0 && !refreshed && sendCredentials) {
      // The token may have been revoked or expired early: fetch a new one, once.
      refreshed = true;
      await discard(res);
      for (const { creds, token } of auth.oauth) await tokens.invalidate(creds, token);
      auth = await applyAuth(endpoint, spec, settings, tokens, scope.href);
      secrets.push(...auth.secrets);
      url = withQuery(target, auth.query);
      continue;
    }

    if (RETRY_STATUSES.has(res.status) && retries < retryLimit) {
      const retryAfter = res.headers.get('retry-after');
      const wait = retryDelay(retryAfter, retries);
      if (retryAfter !== null && wait > MAX_RETRY_AFTER_MS) {
        notes.push(`[not retried: Retry-After asks for ${Math.ceil(wait / 1000)} s, more than svc waits]`);
        return finish();
      }
      await discard(res);
      await sleep(wait, ctx.signal);
      retries++;
      continue;
    }
    if (retries > 0) notes.push(`[after ${retries} retr${retries === 1 ? 'y' : 'ies'}]`);
    return finish();
  }
}

/** Where svc.yaml adds credentials to this request, by name only, for the confirmation. */
function credentialNames(endpoint: Endpoint, spec: ImportedSpec, settings: SpecSettings, own: readonly BoundParam[]): string[] {
  const names = Object.entries(settings.spec.headers).filter(([, ref]) => typeof ref !== 'string').map(([name]) => `${name} header`);
  for (const { auth } of chooseAuth(endpoint, spec, settings.spec.auth, isAvailable).chosen) {
    names.push(auth.type === 'apiKey' ? `${auth.in === 'header' ? 'header' : auth.in === 'query' ? 'query key' : 'cookie'} ${auth.name}` : 'Authorization header');
  }
  for (const { param } of own) names.push(`${param.in === 'query' ? 'query key' : param.in} ${param.name}`);
  return names;
}

function isCredentialHeader(name: string, slots: readonly CredentialSlot[]): boolean {
  const n = name.toLowerCase();
  return slots.some((s) => s.in === 'header' && s.name === n);
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
