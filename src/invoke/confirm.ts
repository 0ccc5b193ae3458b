// What the person approving a write sees: exactly what will be sent (method, full URL with query,
// the headers that are not credentials, the body), so an amount or an account cannot hide.
import type { EncodedBody } from './body.ts';
import { redactAndCut, redactText } from './redact.ts';

/** Longest body shown in a confirmation, in characters; a longer one is cut with a note. */
export const MAX_CONFIRM_BODY_CHARS = 2000;

export interface OutgoingRequest {
  readonly method: string;
  /** The full URL as sent, query included (credentials svc adds itself are left out). */
  readonly url: URL;
  /** Headers from the arguments and svc.yaml's non-secret headers. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Cookies from the arguments. */
  readonly cookies: readonly string[];
  readonly body?: EncodedBody;
  /** Where svc.yaml adds credentials (`Authorization header`), shown by name only. */
  readonly credentials: readonly string[];
}

export interface WriteConfirmation {
  /** One line: what is asked. */
  readonly question: string;
  /** The request as it will go out, line by line, secrets redacted. */
  readonly request: string;
}

export function describeWrite(req: OutgoingRequest, spec: string, operation: string, secrets: readonly string[]): WriteConfirmation {
  const lines = [`${req.method} ${req.url.href}`];
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  if (req.cookies.length > 0) lines.push(`Cookie: ${req.cookies.join('; ')}`);
  if (req.body?.contentType !== undefined) lines.push(`Content-Type: ${req.body.contentType}`);
  if (req.credentials.length > 0) lines.push(`(svc adds credentials from svc.yaml: ${req.credentials.join(', ')}; not shown)`);
  const body = bodyText(req.body);
  if (body !== undefined) {
    const { text, cut } = redactAndCut(body, secrets, MAX_CONFIRM_BODY_CHARS);
    lines.push('', text);
    if (cut) lines.push(`[body cut: showing ${MAX_CONFIRM_BODY_CHARS} of ${body.length} characters]`);
  }
  return {
    question: `Allow this ${req.method} to spec '${spec}' (${operation})?`,
    request: redactText(lines.join('\n'), secrets),
  };
}

/** The confirmation as one message (what MCP elicitation shows). */
export function confirmationMessage(c: WriteConfirmation): string {
  return `${c.question}\n\n${c.request}`;
}

function bodyText(body: EncodedBody | undefined): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body.body === 'string') return body.body;
  const parts: string[] = [];
  for (const [name, value] of body.body.entries()) {
    parts.push(typeof value === 'string' ? `${name}=${value}` : `${name}: file ${value.name || '(unnamed)'} (${value.size} bytes, ${value.type || 'application/octet-stream'})`);
  }
  return `multipart form:\n${parts.join('\n')}`;
}
