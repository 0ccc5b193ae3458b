// OpenAPI parameter serialization: path (simple/label/matrix), query (form, spaceDelimited,
// pipeDelimited, deepObject), header (simple) and cookie (form).
// A path value is always exactly one segment: it can never add `/`, `..`, `?` or `#`.
import type { Parameter } from '../model/index.ts';
import { InvalidArgumentsError, InvokeError } from './errors.ts';
import type { BoundParam } from './validate.ts';

export interface SerializedParams {
  /** The path with every placeholder filled, percent-encoded. */
  readonly path: string;
  /** `a=1&b=2`, without the `?`; empty when there is no query. */
  readonly query: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** `name=value` pairs for the Cookie header. */
  readonly cookies: readonly string[];
}

/** Percent-encodes everything but RFC 3986 unreserved characters. */
export function encodeStrict(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  // Numbers as their text (JSON would write Infinity as null, and throws on a bigint); JSON writes
  // booleans, objects and arrays.
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function explodeOf(p: Parameter, style: string): boolean {
  return p.explode ?? style === 'form';
}

// ---- path ---------------------------------------------------------------------------------------

function pathValue(p: Parameter, value: unknown): string {
  const style = p.style; // (absent: simple)
  const explode = p.explode ?? false;
  const e = encodeStrict;
  if (style === 'label') {
    if (Array.isArray(value)) return '.' + value.map((v) => e(scalar(v))).join(explode ? '.' : ',');
    if (isPlainObject(value)) {
      const pairs = Object.entries(value).map(([k, v]) => (explode ? `${e(k)}=${e(scalar(v))}` : `${e(k)},${e(scalar(v))}`));
      return '.' + pairs.join(explode ? '.' : ',');
    }
    return '.' + e(scalar(value));
  }
  if (style === 'matrix') {
    const n = e(p.name);
    if (Array.isArray(value)) {
      return explode ? value.map((v) => `;${n}=${e(scalar(v))}`).join('') : `;${n}=${value.map((v) => e(scalar(v))).join(',')}`;
    }
    if (isPlainObject(value)) {
      const entries = Object.entries(value);
      return explode
        ? entries.map(([k, v]) => `;${e(k)}=${e(scalar(v))}`).join('')
        : `;${n}=${entries.map(([k, v]) => `${e(k)},${e(scalar(v))}`).join(',')}`;
    }
    return `;${n}=${e(scalar(value))}`;
  }
  // simple
  if (Array.isArray(value)) return value.map((v) => e(scalar(v))).join(',');
  if (isPlainObject(value)) {
    return Object.entries(value)
      .map(([k, v]) => (explode ? `${e(k)}=${e(scalar(v))}` : `${e(k)},${e(scalar(v))}`))
      .join(',');
  }
  return e(scalar(value));
}

const PLACEHOLDER = /\{([^{}]+)\}/g;

function isEmpty(v: unknown): boolean {
  return v === '' || v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);
}

/** A list whose every item is empty text, null or missing: it says nothing however it is styled. */
function emptyItems(v: unknown): boolean {
  return Array.isArray(v) && v.every((item) => item === '' || item === null || item === undefined);
}

function buildPath(template: string, params: readonly BoundParam[]): { path: string; templateQuery: string } {
  // A few specs write a fixed query into the path (`/search?type=user`): keep it as query.
  const q = template.indexOf('?');
  const pathPart = q >= 0 ? template.slice(0, q) : template;
  const templateQuery = q >= 0 ? template.slice(q + 1) : '';
  const byName = new Map<string, BoundParam>();
  for (const b of params) if (b.param.in === 'path') byName.set(b.param.name, b);
  const missing: string[] = [];
  const path = pathPart.replace(PLACEHOLDER, (_m, name: string) => {
    const b = byName.get(name);
    if (b === undefined) {
      missing.push(name);
      // Stryker disable next-line StringLiteral: a missing name throws below, so this text is never used
      return '';
    }
    const v = pathValue(b.param, b.value);
    // Empty in any style (`''`, `[]`, `{}`, a list of nothing but empty items; `.`, `,` or `;id=` once
    // styled): the path would name another resource.
    // Stryker disable next-line ConditionalExpression,StringLiteral: every value that styles to '' today is caught by isEmpty or emptyItems first; the last test guards styles to come
    if (isEmpty(b.value) || emptyItems(b.value) || v === '') {
      throw new InvalidArgumentsError(`Path parameter '${name}' of ${template} is empty; it must be a non-empty value.`, [`${name}: empty`]);
    }
    return v;
  });
  if (missing.length > 0) {
    throw new InvalidArgumentsError(
      `Path ${template} needs ${missing.map((m) => `'${m}'`).join(', ')} in params.`,
      missing.map((m) => `${m} (path): required`),
    );
  }
  // `.` and `..` segments are removed by every URL parser (even as %2E): refuse them outright.
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') {
      throw new InvokeError('invoke-unsafe-value', `A path parameter of ${template} makes the segment '${segment}', which would change the path; svc refuses it.`);
    }
  }
  return { path, templateQuery };
}

// ---- query --------------------------------------------------------------------------------------

function queryPairs(p: Parameter, value: unknown, out: string[]): void {
  const style = p.style ?? 'form';
  const explode = explodeOf(p, style);
  const e = encodeStrict;
  const n = e(p.name);
  if (style === 'deepObject') {
    // (A scalar comes out as the plain `name=value` pair.)
    deepValue(n, value, out, 0);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return;
    if (explode) {
      for (const v of value) out.push(`${n}=${e(scalar(v))}`);
    } else {
      const sep = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
      out.push(`${n}=${value.map((v) => e(scalar(v))).join(sep)}`);
    }
    return;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (explode && style === 'form') {
      for (const [k, v] of entries) out.push(`${e(k)}=${e(scalar(v))}`);
    } else {
      const sep = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
      out.push(`${n}=${entries.map(([k, v]) => `${e(k)}${sep}${e(scalar(v))}`).join(sep)}`);
    }
    return;
  }
  out.push(`${n}=${e(scalar(value))}`);
}

// OpenAPI leaves arrays under deepObject undefined; svc writes them as the bracket APIs that use
// deepObject read them (Stripe, Rails, qs): `a[]=1&a[]=2`, and `a[0][k]=v` for objects in arrays.
function deepValue(prefix: string, value: unknown, out: string[], depth: number): void {
  if (isPlainObject(value) && depth < 16) {
    for (const [k, v] of Object.entries(value)) if (v !== undefined) deepValue(`${prefix}[${encodeStrict(k)}]`, v, out, depth + 1);
  } else if (Array.isArray(value) && depth < 16) {
    const nested = value.some((v) => v !== null && typeof v === 'object');
    value.forEach((v, i) => deepValue(`${prefix}[${nested ? i : ''}]`, v, out, depth + 1));
  } else {
    out.push(`${prefix}=${encodeStrict(scalar(value))}`);
  }
}

// ---- header and cookie --------------------------------------------------------------------------

const UNSAFE_HEADER = /[\r\n\0]/;

export function assertHeaderValue(name: string, value: string): void {
  if (UNSAFE_HEADER.test(value)) {
    throw new InvokeError('invoke-unsafe-value', `Header '${name}' contains a line break (CR or LF) or NUL; svc refuses it, since it could inject headers.`);
  }
}

function hasLineBreak(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return UNSAFE_HEADER.test(v);
  if (v === null || typeof v !== 'object' || depth > 16) return false;
  for (const [k, item] of Object.entries(v)) if (UNSAFE_HEADER.test(k) || hasLineBreak(item, depth + 1)) return true;
  return false;
}

function headerValue(p: Parameter, value: unknown): string {
  const explode = p.explode ?? false;
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (isPlainObject(value)) {
    return Object.entries(value)
      .map(([k, v]) => (explode ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`))
      .join(',');
  }
  return scalar(value);
}

// Cookie values: keep RFC 6265 cookie-octets but `%`, percent-encode the rest (so every value decodes back).
function cookieOctets(s: string): string {
  return s.replace(/[^\x21\x23\x24\x26-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]/gu, (c) => encodeURIComponent(c));
}

function cookieValue(p: Parameter, value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => cookieOctets(scalar(v))).join(',');
  if (isPlainObject(value)) return Object.entries(value).map(([k, v]) => `${cookieOctets(k)},${cookieOctets(scalar(v))}`).join(',');
  return cookieOctets(scalar(value));
}

// ---- all together -------------------------------------------------------------------------------

export function serializeParams(template: string, params: readonly BoundParam[]): SerializedParams {
  const { path, templateQuery } = buildPath(template, params);
  const query: string[] = templateQuery !== '' ? [templateQuery] : [];
  const headers: Array<readonly [string, string]> = [];
  const cookies: string[] = [];
  for (const { param, value } of params) {
    if (param.in === 'query') queryPairs(param, value, query);
    else if (param.in === 'header') {
      if (hasLineBreak(value)) assertHeaderValue(param.name, '\n');
      headers.push([param.name, headerValue(param, value)]);
    } else if (param.in === 'cookie') {
      if (hasLineBreak(value)) assertHeaderValue(`Cookie '${param.name}'`, '\n');
      cookies.push(`${param.name}=${cookieValue(param, value)}`);
    }
  }
  return { path, query: query.join('&'), headers, cookies };
}
