// Saved example responses -> Response entries (one per status code, first example wins).
import type { Response } from '../../model/endpoint.ts';
import { isRecord, text } from './shapes.ts';
import { readHeaders } from './headers.ts';

const PREVIEW_LANGUAGES: Readonly<Record<string, string>> = {
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  text: 'text/plain',
};

export function readResponses(list: unknown): Response[] {
  if (!Array.isArray(list)) return [];
  const out: Response[] = [];
  const seen = new Set<string>();
  for (const r of list) {
    if (!isRecord(r)) continue;
    const code = r['code'];
    if (typeof code !== 'number' && typeof code !== 'string') continue;
    const status = String(code);
    if (status === '' || seen.has(status)) continue;
    seen.add(status);
    const label = firstLine(text(r['name'])) ?? firstLine(text(r['status'])) ?? '';
    const contentType = readHeaders(r['header']).find((h) => h.key.toLowerCase() === 'content-type')?.value;
    const mediaType =
      contentType !== undefined
        ? (contentType.split(';')[0] ?? '').trim()
        : PREVIEW_LANGUAGES[text(r['_postman_previewlanguage']) ?? ''];
    out.push({ status, label, ...(mediaType ? { contentTypes: [mediaType] } : {}) });
  }
  return out;
}

function firstLine(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  // Stryker disable next-line StringLiteral: split always returns a first element, so the fallback is never read
  const line = (s.split(/\r?\n/)[0] ?? '').trim();
  return line === '' ? undefined : line;
}
