// One HTTP exchange on the wire (ky, no retries of its own, no redirects followed), and what to
// say when it fails: timeouts, cancellations and network errors, with secrets redacted.
import ky from 'ky';
import type { EncodedBody } from './body.ts';
import { InvokeError } from './errors.ts';
import { redactText } from './redact.ts';
import type { SpecSettings } from './settings.ts';

export interface Sent {
  readonly res: Response;
  /** Fires when the attempt's deadline passes; reading the body stays under it. */
  readonly timeout: AbortSignal;
}

export async function send(
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
export function failure(
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
export function retryDelay(header: string | null, attempt: number): number {
  if (header !== null) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return Math.min(250 * 2 ** attempt, 2000);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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

