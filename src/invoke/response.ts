// A response as the LLM should read it: `HTTP <status> <reason>`, the few headers that matter,
// then the body (JSON compacted, text as is), cut at a clean boundary when it is too long.
import { STATUS_CODES } from 'node:http';
import type { ImageContent } from '../tools/types.ts';
import type { InvokeResult } from './index.ts';
import { readBody } from './read.ts';
import { isSensitiveHeader, redactTail, redactText, redactValue, REDACTED } from './redact.ts';

export interface ResponseLimits {
  readonly maxResponseBytes: number;
  readonly maxImageBytes: number;
}

export interface FormatOptions extends ResponseLimits {
  readonly method: string;
  readonly secrets: readonly string[];
  readonly sensitiveHeaders: ReadonlySet<string>;
  /** Extra lines after the body: redirects not followed, retries, auth hints. */
  readonly notes: readonly string[];
}

// Bodies up to this size are read whole so JSON can be parsed and compacted before it is cut.
const PARSE_LIMIT = 8 * 1024 * 1024;

const KEPT_HEADERS = new Set([
  'content-type', 'location', 'link', 'retry-after', 'www-authenticate', 'x-total-count', 'x-total', 'x-total-pages',
  'x-next-page', 'x-next-cursor', 'x-page', 'x-per-page', 'deprecation', 'sunset',
]);

function keepHeader(name: string): boolean {
  return KEPT_HEADERS.has(name) || /^(x-)?rate-?limit/.test(name) || name.startsWith('x-pagination');
}

export function pickHeaders(headers: Headers, sensitive: ReadonlySet<string>, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!keepHeader(name)) return;
    out[name] = isSensitiveHeader(name, sensitive) ? REDACTED : redactText(value, secrets);
  });
  return out;
}

type Kind = 'json' | 'text' | 'image' | 'binary' | 'unknown';

function kindOf(contentType: string): Kind {
  const m = contentType.split(';')[0]!.trim().toLowerCase();
  if (m === '') return 'unknown';
  if (m === 'application/json' || m.endsWith('+json') || m === 'text/json') return 'json';
  if (m === 'image/svg+xml') return 'text';
  if (m.startsWith('image/')) return 'image';
  if (
    m.startsWith('text/') || m.endsWith('+xml') || m === 'application/xml' || m === 'application/javascript' ||
    m === 'application/x-www-form-urlencoded' || m.includes('yaml') || m === 'application/graphql' || m === 'application/x-ndjson'
  ) {
    return 'text';
  }
  if (m === 'application/octet-stream') return 'unknown';
  return 'binary';
}

function charsetOf(contentType: string): string {
  // TextDecoder reads a label in any case.
  // Stryker disable next-line StringLiteral: TextDecoder refuses an empty label, and decode() then falls back to UTF-8
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? 'utf-8';
}

function decode(bytes: Uint8Array, charset: string, fatal: boolean): string | undefined {
  try {
    return new TextDecoder(charset, { fatal }).decode(bytes);
  } catch {
    if (fatal) return undefined;
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function sizeLabel(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The end of the last complete JSON value at or before `limit` (below the length): after a `,` outside strings. */
function jsonCut(bytes: Uint8Array, limit: number): number {
  let inString = false;
  let escaped = false;
  let best = 0;
  for (let i = 0; i < limit; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (b === 0x5c) escaped = true;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x2c) best = i; // cut before the comma: `[1,2` then the note
    else if (b === 0x7d || b === 0x5d) best = i + 1;
  }
  return best > 0 ? best : utf8Boundary(bytes, limit);
}

/**
 * Back off from `at` to the start of a UTF-8 character. The bytes are a string's UTF-8, whose first
 * byte is never a continuation byte, and past the end reads undefined, which is none either.
 */
function utf8Boundary(bytes: Uint8Array, at: number): number {
  let i = Math.min(at, bytes.length);
  while ((bytes[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** A text cut: at a line end near the limit, else a space, else a character boundary. */
function textCut(bytes: Uint8Array, limit: number): number {
  const end = utf8Boundary(bytes, limit);
  for (let i = end - 1; i > end * 0.75; i--) if (bytes[i] === 0x0a) return i + 1;
  for (let i = end - 1; i > end * 0.9; i--) if (bytes[i] === 0x20) return i + 1;
  return end;
}

export async function formatResponse(res: Response, opts: FormatOptions): Promise<InvokeResult> {
  const status = res.status;
  const reason = res.statusText || STATUS_CODES[status] || '';
  const headers = pickHeaders(res.headers, opts.sensitiveHeaders, opts.secrets);
  const contentType = res.headers.get('content-type') ?? '';
  let kind = kindOf(contentType);
  const limit = opts.maxResponseBytes;
  const noBody =
    opts.method === 'HEAD' ||
    // Stryker disable next-line ConditionalExpression: a Response with a 204 or 304 has a null body (fetch and the constructor see to it), which reads as 0 bytes anyway
    status === 204 || status === 304;

  // Text is read well past the limit so a secret that straddles the cut is seen whole and redacted.
  const textWindow = Math.max(2 * limit + 4096, 64 * 1024);
  const keep = noBody
    ? 0
    : kind === 'json'
      ? PARSE_LIMIT
      : kind === 'image'
        ? opts.maxImageBytes + 1
        : // Stryker disable next-line ConditionalExpression,StringLiteral: a binary body is never shown, so what is kept of it only costs memory
          kind === 'binary'
          ? 0
          : textWindow;
  // Stryker disable next-line BooleanLiteral: nothing is shown of an empty body, so its size is never said
  const read = noBody ? { bytes: new Uint8Array(0), total: 0, exact: true } : await readBody(res, keep);

  let body: unknown = null;
  let shown = '';
  let truncated = false;
  const notes: string[] = [];
  const images: ImageContent[] = [];
  const full = `${read.exact ? '' : 'more than '}${sizeLabel(read.total)}`;

  if (kind === 'unknown') {
    // No useful type: text if its first 4 KB decode as UTF-8 without NULs, else binary.
    const text = decode(read.bytes.subarray(0, 4096), 'utf-8', true);
    kind = text !== undefined && !text.includes('\u0000') ? 'text' : 'binary';
  }

  // (Each kind shows nothing of an empty body: an empty JSON body fails to parse and goes on as text.)
  if (kind === 'json') {
    let compact: string | undefined;
    if (read.bytes.length === read.total) {
      try {
        // Redact first, then cut: a cut must never fall inside a secret that is still there.
        body = redactValue(JSON.parse(decode(read.bytes, charsetOf(contentType), false)!), opts.secrets);
        compact = JSON.stringify(body);
      } catch {
        // Not JSON after all: compact stays undefined.
      }
    }
    if (compact === undefined) {
      // Not parseable (or too big to parse): show as text.
      body = undefined;
      kind = 'text';
    } else {
      const bytes = Buffer.from(compact);
      if (bytes.byteLength <= limit) {
        shown = compact;
      } else {
        const cut = jsonCut(bytes, limit);
        shown = redactTail(bytes.subarray(0, cut).toString('utf8'), opts.secrets);
        body = shown;
        truncated = true;
        notes.push(`[truncated: showing ${sizeLabel(cut)} of ${sizeLabel(bytes.byteLength)} (compacted JSON; ${full} as sent)]`);
      }
    }
  }
  if (kind === 'text' && read.total > 0) {
    const charset = charsetOf(contentType);
    // Redact what was read, then cut the redacted text, then drop a partial secret at the cut.
    const all = read.bytes.length === read.total && read.total <= textWindow;
    const redacted = redactText(decode(read.bytes.subarray(0, textWindow), charset, false)!, opts.secrets);
    const bytes = Buffer.from(redacted);
    if (all && bytes.byteLength <= limit) {
      shown = redacted;
    } else {
      const cut = textCut(bytes, limit);
      shown = redactTail(bytes.subarray(0, cut).toString('utf8'), opts.secrets);
      truncated = true;
      notes.push(`[truncated: showing ${sizeLabel(cut)} of ${full}]`);
    }
    body = shown;
  } else if (kind === 'image' && read.total > 0) {
    const mime = contentType.split(';')[0]!.trim().toLowerCase();
    if (read.exact && read.total <= opts.maxImageBytes) {
      images.push({ type: 'image', data: Buffer.from(read.bytes).toString('base64'), mimeType: mime });
      shown = `[${mime} image, ${sizeLabel(read.total)}, attached]`;
    } else {
      shown = `[${mime} image, ${full}: over the ${sizeLabel(opts.maxImageBytes)} image limit, not attached]`;
      truncated = true;
    }
  } else if (kind === 'binary' && read.total > 0) {
    shown = `[${contentType.split(';')[0]!.trim() || 'binary'} body, ${full}: not shown]`;
  }

  const headerLines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  const parts = [`HTTP ${status}${reason ? ` ${reason}` : ''}`, ...headerLines];
  let text = parts.join('\n');
  if (shown !== '') text += `\n\n${shown}`;
  const allNotes = [...notes, ...opts.notes];
  if (allNotes.length > 0) text += `\n${allNotes.join('\n')}`;

  const result: { text: string; structured: Record<string, unknown>; isError?: boolean; images?: ImageContent[] } = {
    text: redactText(text, opts.secrets),
    structured: { status, headers, body: redactValue(body ?? null, opts.secrets), truncated },
  };
  if (status >= 400) result.isError = true;
  if (images.length > 0) result.images = images;
  return result;
}
