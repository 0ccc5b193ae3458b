// A request's `url` -> path template, host (for the server) and path/query parameters.
//
// `url` comes as a plain string (v2.0 files) or an object. In the object form the structured
// fields (`host`, `path`, `query`, ...) are what Postman itself uses; `raw` is read only when
// they are absent (some exporters write `raw` alone).
import type { Parameter } from '../../model/endpoint.ts';
import { addressParts, parseRawUrl, type UrlParts } from './raw-url.ts';
import { convertVariables, escapeBraces, type CollectionVariables } from './variables.ts';
import { descriptionOf, isRecord, keyValues, looksLikeCredential, text } from './shapes.ts';

export interface HostTemplate {
  /** Server URL with `{name}` placeholders: `https://api.x.com`, `{baseUrl}`, `http://localhost:4041`. */
  readonly url: string;
  readonly variables: readonly string[];
}

export interface RequestUrl {
  readonly path: string;
  readonly host?: HostTemplate;
  readonly pathParameters: readonly Parameter[];
  readonly queryParameters: readonly Parameter[];
  /** Nested or unbalanced `{{` `}}` were found and kept as escaped literal text. */
  readonly strayBraces: boolean;
}

interface QueryEntry {
  readonly key: string | undefined;
  readonly value: string | undefined;
  readonly disabled: boolean;
  readonly description?: string;
}

/** The raw-URL parts, with the object form's richer query entries and its `variable` list. */
interface Parts extends Omit<UrlParts, 'query'> {
  readonly query: readonly QueryEntry[];
  readonly variables: readonly unknown[];
}

/** `undefined` when the request has no usable URL. */
export function readUrl(url: unknown, collectionVariables: CollectionVariables): RequestUrl | undefined {
  const parts = urlParts(url);
  if (parts === undefined) return undefined;
  let stray = false;

  // Path: `:name` segments and `{{name}}` variables become placeholders.
  const placeholders: string[] = [];
  const fromVariables = new Set<string>();
  const segments = parts.segments.map((segment) => {
    if (segment.length > 1 && segment.startsWith(':')) {
      const name = segment.slice(1);
      placeholders.push(name);
      return `{${escapeBraces(name)}}`;
    }
    const converted = convertVariables(segment);
    if (converted.strayBraces) stray = true;
    for (const name of converted.variables) {
      placeholders.push(name);
      fromVariables.add(name);
    }
    return converted.text;
  });
  const path = `/${segments.join('/')}`;

  const declared = new Map<string, Record<string, unknown>>();
  for (const entry of parts.variables) {
    if (!isRecord(entry)) continue;
    const key = text(entry['key']) ?? text(entry['id']);
    if (key !== undefined && !declared.has(key)) declared.set(key, entry);
  }
  const pathParameters: Parameter[] = [];
  const seen = new Set<string>();
  for (const name of placeholders) {
    if (seen.has(name)) continue;
    seen.add(name);
    const entry = declared.get(name);
    const description = entry ? descriptionOf(entry['description']) : undefined;
    const example = entry ? text(entry['value']) : fromVariables.has(name) ? collectionVariables.get(name) : undefined;
    pathParameters.push(parameter(name, 'path', true, description, example));
  }

  const queryParameters: Parameter[] = [];
  const seenQuery = new Set<string>();
  for (const q of parts.query) {
    if (q.key === undefined || q.key === '' || seenQuery.has(q.key)) continue;
    seenQuery.add(q.key);
    queryParameters.push(parameter(q.key, 'query', !q.disabled, q.description, q.value));
  }

  let host: HostTemplate | undefined;
  if (parts.host !== undefined && parts.host !== '') {
    const h = convertVariables(parts.host);
    const p = parts.port !== undefined && parts.port !== '' ? convertVariables(parts.port) : undefined;
    const s = parts.protocol !== undefined && parts.protocol !== '' ? convertVariables(parts.protocol) : undefined;
    if (h.strayBraces || p?.strayBraces || s?.strayBraces) stray = true;
    // Postman's default scheme is http. A host that is one variable (`{{baseUrl}}`) or already
    // holds a scheme is a whole base URL and gets none.
    const wholeBase = /^\{\{[^{}]+\}\}$/.test(parts.host) || parts.host.includes('://');
    const scheme = s !== undefined ? `${s.text}://` : wholeBase ? '' : 'http://';
    host = {
      url: `${scheme}${h.text}${p !== undefined ? `:${p.text}` : ''}`,
      variables: [...new Set([...(s?.variables ?? []), ...h.variables, ...(p?.variables ?? [])])],
    };
  }

  return { path, ...(host ? { host } : {}), pathParameters, queryParameters, strayBraces: stray };
}

/** A Postman parameter: always a string; credential-like names lose their example value. */
function parameter(
  name: string,
  location: 'path' | 'query' | 'header',
  required: boolean,
  description: string | undefined,
  example: string | undefined,
): Parameter {
  return {
    name,
    in: location,
    required,
    type: 'string',
    ...(description !== undefined ? { description } : {}),
    // A collection's example value for `api_key` or `X-Session-Token` is somebody's credential.
    ...(example !== undefined && example !== '' && !looksLikeCredential(name) ? { example } : {}),
  };
}

export { parameter };

function urlParts(url: unknown): Parts | undefined {
  if (typeof url === 'string') {
    if (url.trim() === '') return undefined;
    return fromRaw(url, []);
  }
  if (!isRecord(url)) return undefined;
  const variables = Array.isArray(url['variable']) ? url['variable'] : [];
  const hasStructure = url['host'] !== undefined || url['path'] !== undefined;
  if (!hasStructure) {
    const raw = text(url['raw']);
    if (raw === undefined || raw.trim() === '') return undefined;
    return fromRaw(raw, variables);
  }
  const host = Array.isArray(url['host'])
    ? url['host'].map((h) => text(h) ?? '').join('.')
    : text(url['host']);
  let segments: string[];
  const path = url['path'];
  if (Array.isArray(path)) {
    segments = path.map((s) => (isRecord(s) ? text(s['value']) : text(s)) ?? '');
  } else if (typeof path === 'string') {
    segments = (path.startsWith('/') ? path.slice(1) : path).split('/');
    if (segments.length === 1 && segments[0] === '') segments = [];
  } else {
    segments = [];
  }
  const query: QueryEntry[] = [];
  if (Array.isArray(url['query'])) {
    for (const q of url['query']) {
      if (!isRecord(q)) continue;
      const description = descriptionOf(q['description']);
      query.push({
        key: text(q['key']),
        value: text(q['value']),
        disabled: q['disabled'] === true,
        ...(description !== undefined ? { description } : {}),
      });
    }
  } else if (isRecord(url['query'])) {
    for (const [key, value] of keyValues(url['query'])) query.push({ key, value: text(value), disabled: false });
  }
  const protocol = text(url['protocol']);
  const port = text(url['port']);
  return { ...addressParts(protocol, host, port), segments, query, variables };
}

function fromRaw(raw: string, variables: readonly unknown[]): Parts {
  const p = parseRawUrl(raw);
  return {
    ...p,
    query: p.query.map((q) => ({ key: q.key, value: q.value, disabled: false })),
    variables,
  };
}
