// Secrets never leave svc: every text and value that goes out passes through here.
// A secret is matched in every form it may take on the way back: as sent, percent- or
// form-encoded (any hex case, encoded twice), JSON-escaped (any number of times, \uXXXX included),
// HTML-escaped. Texts are redacted before they are cut, and a cut that ends inside a secret
// loses that partial secret too (see redactTail).

export const REDACTED = '[redacted]';
import { MIN_SECRET_LENGTH } from '../config/types.ts';

export { MIN_SECRET_LENGTH };
/** A secret's prefix of this many characters at the end of a cut text is redacted. */
export const MIN_PARTIAL = 4;

// Header names whose values are credentials whatever the spec says.
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token']);

export function isSensitiveHeader(name: string, extra?: ReadonlySet<string>): boolean {
  const n = name.toLowerCase();
  return SENSITIVE_HEADERS.has(n) || (extra?.has(n) ?? false);
}

// JSON's short escapes (after the backslash) and HTML's named entities.
const JSON_SHORT: Readonly<Record<string, string>> = { '"': '"', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
const HTML: Readonly<Record<string, string>> = { '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;|&#x27;|&apos;' };

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Two hex digits in either case. */
function hex(n: number, digits: number): string {
  return [...n.toString(16).padStart(digits, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}

/** Every way one character of a secret may be written (a regex alternation). */
function charPattern(ch: string): string {
  const alts = [escapeRegExp(ch)];
  // Percent-encoded UTF-8, possibly encoded again (%25XX).
  alts.push([...Buffer.from(ch)].map((b) => `%(?:25){0,2}${hex(b, 2)}`).join(''));
  if (ch === ' ') alts.push('\\+');
  // JSON \uXXXX per UTF-16 unit; the backslash itself may have been escaped again and again.
  const units: string[] = [];
  for (let i = 0; i < ch.length; i++) units.push(`\\\\{1,16}u${hex(ch.charCodeAt(i), 4)}`);
  alts.push(units.join(''));
  // A backslash, escaped any number of times, is only backslashes.
  if (ch === '\\') alts.push('\\\\{1,16}');
  const short = JSON_SHORT[ch];
  if (short !== undefined) alts.push(`\\\\{1,16}${escapeRegExp(short)}`);
  const html = HTML[ch];
  if (html !== undefined) alts.push(html);
  return `(?:${alts.join('|')})`;
}

interface Matcher {
  /** Every full occurrence, in any form. */
  readonly all: RegExp;
  /** One sticky pattern per character of the secret, for prefixes at the end of a text. */
  readonly chars: readonly RegExp[];
}

// Built per call: a few secrets of a few dozen characters compile in microseconds.
function matcherFor(secret: string): Matcher {
  const parts = [...secret].map(charPattern);
  return { all: new RegExp(parts.join(''), 'g'), chars: parts.map((p) => new RegExp(p, 'y')) };
}

function usable(secrets: readonly string[]): string[] {
  // Longest first: a secret that contains another is replaced whole.
  return [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of usable(secrets)) out = out.replace(matcherFor(s).all, REDACTED);
  return out;
}

/** Redacts secrets in every string of a JSON value (keys included). */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  // Stryker disable next-line ConditionalExpression: a shortcut; the walk below returns an equal value.
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own keys: a `__proto__` key (JSON.parse makes it an own key) stays a key
    // instead of becoming the copy's prototype and vanishing from the output, as assignment would.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k, secrets), redactValue(v, secrets)]));
  }
  return value;
}

// A cut may also fall inside an escape sequence (`tok\` or `%2`): such an unfinished escape may follow.
const PARTIAL_ESCAPE = /^(?:\\{1,16}(?:u[0-9a-fA-F]{0,3})?|(?:%(?:25){0,2}[0-9a-fA-F]{0,2})+|&#?[a-zA-Z0-9]{0,5})?$/;
// Longest form one character can take (16 backslashes + u + 4 hex digits, twice for surrogates).
const MAX_FORM = 44;

/**
 * For a text that was cut: when it ends with the first MIN_PARTIAL or more characters of a secret
 * (in any form), that tail is replaced too.
 */
export function redactTail(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of usable(secrets)) {
    const { chars } = matcherFor(s);
    // Stryker disable next-line MethodExpression: scanning from 0 or one step further finds the same tail; the window only saves time.
    const from = Math.max(0, out.length - chars.length * MAX_FORM);
    // Stryker disable next-line EqualityOperator: an empty tail matches no character.
    for (let start = from; start < out.length; start++) {
      let at = start;
      let n = 0;
      // At the end of the text no character pattern matches: the loop stops there by itself.
      while (n < chars.length) {
        const re = chars[n]!;
        re.lastIndex = at;
        if (!re.test(out)) break;
        at = re.lastIndex;
        n++;
      }
      if (n >= MIN_PARTIAL && PARTIAL_ESCAPE.test(out.slice(at))) {
        out = `${out.slice(0, start)}${REDACTED}`;
        break;
      }
    }
  }
  return out;
}

/** Redact first, then cut to `maxChars` (on a character boundary), then redact a partial secret at the cut. */
export function redactAndCut(text: string, secrets: readonly string[], maxChars: number): { text: string; cut: boolean } {
  const redacted = redactText(text, secrets);
  if (redacted.length <= maxChars) return { text: redacted, cut: false };
  let end = maxChars;
  // Never split a surrogate pair, nor a redaction marker (show it whole).
  const last = redacted.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const marker = redacted.lastIndexOf(REDACTED, end - 1);
  // Stryker disable next-line EqualityOperator: a marker that ends exactly at the cut leaves `end` as it is either way.
  if (marker >= 0 && marker + REDACTED.length > end) end = marker + REDACTED.length;
  return { text: redactTail(redacted.slice(0, end), secrets), cut: true };
}
