// Secrets never leave svc: every text and value that goes out passes through here.

export const REDACTED = '[redacted]';

// Header names whose values are credentials whatever the spec says.
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token']);

export function isSensitiveHeader(name: string, extra?: ReadonlySet<string>): boolean {
  const n = name.toLowerCase();
  return SENSITIVE_HEADERS.has(n) || (extra?.has(n) ?? false);
}

/** Every form a secret may take on the wire: as is, percent-encoded, form-encoded. */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)]);
  return [...forms].filter((s) => s.length >= 3);
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) for (const form of secretForms(s)) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
  return out;
}

/** Redacts secrets in every string of a JSON value (keys included). */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactText(k, secrets)] = redactValue(v, secrets);
    return out;
  }
  return value;
}
