// Small readers for the loosely typed shapes Postman files use. Collections come from many
// exporters (Postman itself, SDKs, Insomnia, openapi-to-postman), so every field is checked,
// never trusted.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or `undefined` for anything else (numbers and booleans become text). */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * A Postman description: a plain string, or `{ content, type }` (SDK exports, openapi-to-postman).
 * Carried over unchanged; an empty description counts as none.
 */
export function descriptionOf(value: unknown): string | undefined {
  const content = isRecord(value) ? text(value['content']) : text(value);
  return content === undefined || content === '' ? undefined : content;
}

/**
 * Key/value lists: v2.1 writes `[{ key, value, type }]`, v2.0 (and Insomnia's v2.0 exports) an
 * object map `{ key: value }`. Both become a map; the first entry for a key wins.
 */
export function keyValues(value: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (Array.isArray(value)) {
    for (const entry of value) {
      if (!isRecord(entry)) continue;
      const key = text(entry['key']);
      if (key !== undefined && !out.has(key)) out.set(key, entry['value']);
    }
  } else if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) out.set(key, v);
  }
  return out;
}

/** Parameter names whose values are credentials (`Authorization`, `api_key`, `X-Session-Token`): never kept as examples. */
export function looksLikeCredential(name: string): boolean {
  return /auth|token|secret|key|cookie|session|password|signature/i.test(name);
}
