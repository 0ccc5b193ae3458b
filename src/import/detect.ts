// Which kind of API description a parsed document is: decided by content, never by file name.
import type { SpecFormat } from '../model/endpoint.ts';

export type Detection =
  | { readonly ok: true; readonly format: SpecFormat; readonly formatVersion?: string; readonly warning?: string }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly hint: string };

const SUPPORTED = 'OpenAPI 3.0/3.1, Swagger 2.0 or a Postman collection v2.0/v2.1';

export function detectFormat(doc: unknown): Detection {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    const kind = doc === null ? 'null' : Array.isArray(doc) ? 'a list' : `a ${typeof doc}`;
    return { ok: false, code: 'not-an-api-description', message: `not an API description: the document is ${kind}, not an object`, hint: `Point svc at ${SUPPORTED} document.` };
  }
  const d = doc as Record<string, unknown>;
  if (d.openapi !== undefined) {
    // Unquoted `openapi: 3.0` in YAML is the number 3: read it back as written.
    const v = typeof d.openapi === 'number' ? d.openapi.toFixed(Number.isInteger(d.openapi) ? 1 : String(d.openapi).split('.')[1]!.length) : String(d.openapi);
    if (/^3\.0(\.|$)/.test(v)) return { ok: true, format: 'openapi-3.0', formatVersion: v };
    if (/^3\.1(\.|$)/.test(v)) return { ok: true, format: 'openapi-3.1', formatVersion: v };
    if (/^3\.\d+(\.|$)/.test(v)) {
      return { ok: true, format: 'openapi-3.1', formatVersion: v, warning: `OpenAPI ${v} is read as OpenAPI 3.1; newer features are ignored` };
    }
    return { ok: false, code: 'format-unsupported', message: `OpenAPI version "${v}" is not supported`, hint: `svc reads ${SUPPORTED}.` };
  }
  if (d.swagger !== undefined) {
    const v = String(d.swagger);
    if (v === '2.0' || v === '2') return { ok: true, format: 'swagger-2.0', formatVersion: '2.0' };
    return { ok: false, code: 'format-unsupported', message: `Swagger version "${v}" is not supported`, hint: 'Convert it to OpenAPI 3 (e.g. with swagger2openapi) or Swagger 2.0.' };
  }
  const info = d.info;
  if (info !== null && typeof info === 'object' && !Array.isArray(info)) {
    const schema = (info as Record<string, unknown>).schema;
    if (typeof schema === 'string') {
      if (schema.includes('v2.0.0')) return { ok: true, format: 'postman-2.0', formatVersion: 'v2.0.0' };
      if (schema.includes('v2.1.0')) return { ok: true, format: 'postman-2.1', formatVersion: 'v2.1.0' };
      if (/getpostman\.com|postman/i.test(schema) && Array.isArray(d.item)) {
        return { ok: true, format: 'postman-2.1', warning: `unknown Postman schema "${schema}"; read as v2.1` };
      }
    }
    if (Array.isArray(d.item)) return { ok: true, format: 'postman-2.1' };
  }
  if (Array.isArray(d.requests) && (Array.isArray(d.order) || typeof d.name === 'string')) {
    return { ok: false, code: 'format-unsupported', message: 'Postman collection format v1 is not supported', hint: 'Export the collection from Postman as Collection v2.1.' };
  }
  return {
    ok: false,
    code: 'not-an-api-description',
    message: 'not an API description: no "openapi", "swagger" or Postman "info"/"item" at the top',
    hint: `Point svc at ${SUPPORTED} document.`,
  };
}
