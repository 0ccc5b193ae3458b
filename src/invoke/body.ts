// Request bodies by media type: JSON, application/x-www-form-urlencoded (OpenAPI `encoding`
// styles, deepObject included), multipart/form-data, text, and raw strings for anything else.
import type { BodyContent, ImportedSpec, Parameter } from '../model/index.ts';
import { InvalidArgumentsError } from './errors.ts';
import { serializeParams } from './serialize.ts';

export interface EncodedBody {
  readonly body: string | FormData;
  /** Absent for multipart: fetch writes the boundary itself. */
  readonly contentType?: string;
}

interface PropertyEncoding {
  readonly contentType?: string;
  readonly style?: string;
  readonly explode?: boolean;
}

function encodingOf(content: BodyContent, prop: string): PropertyEncoding {
  const e = content.encoding?.[prop];
  return e !== null && typeof e === 'object' ? (e as PropertyEncoding) : {};
}

function baseType(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

export function isJsonType(mediaType: string): boolean {
  const m = baseType(mediaType);
  return m === 'application/json' || m.endsWith('+json') || m === '*/*' || m === 'application/*';
}

export function encodeBody(content: BodyContent, body: unknown, spec: ImportedSpec): EncodedBody {
  const media = baseType(content.mediaType);
  if (isJsonType(media)) {
    return { body: JSON.stringify(body), contentType: media.includes('*') ? 'application/json' : content.mediaType };
  }
  if (media === 'application/x-www-form-urlencoded') {
    if (typeof body === 'string') return { body, contentType: media };
    return { body: formUrlEncoded(content, asObject(body, media)), contentType: media };
  }
  if (media === 'multipart/form-data' || media === 'multipart/mixed') {
    return { body: multipart(content, asObject(body, media), spec) };
  }
  if (typeof body === 'string') return { body, contentType: content.mediaType };
  if (media.startsWith('text/') && (typeof body === 'number' || typeof body === 'boolean')) {
    return { body: String(body), contentType: content.mediaType };
  }
  throw new InvalidArgumentsError(
    `The body for ${content.mediaType} must be a string (svc sends it as is), got ${Array.isArray(body) ? 'an array' : typeof body}.`,
    [`body: must be a string for ${content.mediaType}`],
  );
}

function asObject(body: unknown, media: string): Record<string, unknown> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  throw new InvalidArgumentsError(`The body for ${media} must be an object of fields, got ${Array.isArray(body) ? 'an array' : typeof body}.`, [
    `body: must be an object for ${media}`,
  ]);
}

function formUrlEncoded(content: BodyContent, body: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const enc = encodingOf(content, name);
    if (enc.contentType !== undefined && isJsonType(enc.contentType) && typeof value !== 'string') {
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(JSON.stringify(value))}`);
      continue;
    }
    // A form field serializes like a query parameter with the field's style (default form, explode).
    const param: Parameter = {
      name,
      in: 'query',
      // Stryker disable next-line BooleanLiteral: serializing a value reads neither required nor type.
      required: false,
      // Stryker disable next-line StringLiteral: serializing a value reads neither required nor type.
      type: 'any',
      style: enc.style,
      explode: enc.explode,
    };
    // Stryker disable next-line StringLiteral: only the query of the result is used, not its path.
    const q = serializeParams('', [{ param, value }]).query;
    if (q !== '') pairs.push(q);
  }
  return pairs.join('&');
}

function multipart(content: BodyContent, body: Record<string, unknown>, spec: ImportedSpec): FormData {
  const binary = binaryFields(content, spec);
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    const enc = encodingOf(content, name);
    const items = Array.isArray(value) && !value.some((v) => v !== null && typeof v === 'object') ? value : [value];
    for (const item of items) {
      if (typeof item === 'string' && (binary.has(name) || (enc.contentType !== undefined && !enc.contentType.startsWith('text/')))) {
        form.append(name, new Blob([item], { type: enc.contentType ?? 'application/octet-stream' }), name);
      } else if (item !== null && typeof item === 'object') {
        form.append(name, new Blob([JSON.stringify(item)], { type: enc.contentType ?? 'application/json' }));
      } else {
        form.append(name, String(item));
      }
    }
  }
  return form;
}

/** Fields declared `format: binary` (or Swagger `type: file`): sent as file parts. */
function binaryFields(content: BodyContent, spec: ImportedSpec): Set<string> {
  const out = new Set<string>();
  // Stryker disable next-line ConditionalExpression: without a schema resolve throws, and the catch below gives the same empty set.
  if (content.schema === undefined) return out;
  try {
    const schema = spec.schemas.resolve(content.schema, { maxDepth: 5 }) as { properties?: Record<string, Record<string, unknown>> };
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const items = prop.items as Record<string, unknown> | undefined;
      if (prop.format === 'binary' || prop.type === 'file' || items?.format === 'binary') out.add(name);
    }
  } catch {
    // No schema to learn from: every string goes as a plain field.
  }
  return out;
}
