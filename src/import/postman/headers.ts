// Request headers (`[{ key, value, disabled, description }]`, or in old v2.0 files one string of
// `Key: value` lines).
import { descriptionOf, isRecord, text } from './shapes.ts';

export interface HeaderEntry {
  readonly key: string;
  readonly value: string | undefined;
  readonly disabled: boolean;
  readonly description?: string;
}

export function readHeaders(header: unknown): HeaderEntry[] {
  const out: HeaderEntry[] = [];
  if (typeof header === 'string') {
    for (const line of header.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      out.push({ key: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim(), disabled: false });
    }
    return out;
  }
  if (!Array.isArray(header)) return out;
  for (const h of header) {
    if (!isRecord(h)) continue;
    const key = text(h['key'])?.trim();
    if (key === undefined || key === '') continue;
    const description = descriptionOf(h['description']);
    out.push({ key, value: text(h['value']), disabled: h['disabled'] === true, ...(description !== undefined ? { description } : {}) });
  }
  return out;
}
