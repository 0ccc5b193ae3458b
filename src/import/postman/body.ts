// A request `body` -> RequestBody. The media type comes from the request's own Content-Type
// header when it has one, else from the body mode (and for raw bodies from
// `options.raw.language`, else from the content: JSON-looking text is JSON, the rest plain text).
// Form bodies get an inline object schema listing their fields, so `inspect` can show them.
import type { RequestBody } from '../../model/endpoint.ts';
import { descriptionOf, isRecord, text } from './shapes.ts';

const RAW_LANGUAGES: Readonly<Record<string, string>> = {
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  javascript: 'application/javascript',
  text: 'text/plain',
  graphql: 'application/graphql',
};

export type BodyResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'body'; readonly body: RequestBody }
  | { readonly kind: 'unknown-mode'; readonly mode: string };

/**
 * @param file the collection file (schemas are inline, so they resolve against it)
 * @param contentType the request's Content-Type header value, if it set one
 */
export function readBody(body: unknown, file: string, contentType: string | undefined): BodyResult {
  if (!isRecord(body) || body['disabled'] === true) return { kind: 'none' };
  const mode = text(body['mode']);
  if (mode === undefined || mode === '') return { kind: 'none' };
  const declared = mediaTypeOf(contentType);
  switch (mode) {
    case 'raw': {
      const raw = text(body['raw']) ?? '';
      const options = isRecord(body['options']) && isRecord(body['options']['raw']) ? body['options']['raw'] : undefined;
      const language = options ? text(options['language']) : undefined;
      const mediaType =
        declared ?? (language !== undefined ? RAW_LANGUAGES[language] : undefined) ?? (looksLikeJson(raw) ? 'application/json' : 'text/plain');
      return result({ mediaType }, raw.trim() !== '');
    }
    case 'urlencoded':
    case 'formdata': {
      const fields = Array.isArray(body[mode]) ? (body[mode] as unknown[]) : [];
      const mediaType = declared ?? (mode === 'urlencoded' ? 'application/x-www-form-urlencoded' : 'multipart/form-data');
      return result({ mediaType, schema: { file, node: formSchema(fields) } }, fields.length > 0);
    }
    case 'file':
      return result({ mediaType: declared ?? 'application/octet-stream' }, true);
    case 'graphql':
      return result(
        {
          mediaType: 'application/json',
          schema: {
            file,
            node: { type: 'object', properties: { query: { type: 'string' }, variables: { type: 'object' } }, required: ['query'] },
          },
        },
        true,
      );
    default:
      return { kind: 'unknown-mode', mode };
  }
}

function result(content: RequestBody['contents'][number], required: boolean): BodyResult {
  return { kind: 'body', body: { required, contents: [content] } };
}

function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined || header.includes('{{')) return undefined;
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return type.includes('/') ? type : undefined;
}

function looksLikeJson(raw: string): boolean {
  const t = raw.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/** `{ type: object, properties }` from form fields; `file` fields are binary strings. */
function formSchema(fields: readonly unknown[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of fields) {
    if (!isRecord(field)) continue;
    const key = text(field['key']);
    if (key === undefined || key === '' || Object.hasOwn(properties, key)) continue;
    const description = descriptionOf(field['description']);
    const value = {
      type: 'string',
      ...(field['type'] === 'file' ? { format: 'binary' } : {}),
      ...(description !== undefined ? { description } : {}),
    };
    // defineProperty: a field named `__proto__` must stay a field.
    Object.defineProperty(properties, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return { type: 'object', properties };
}
