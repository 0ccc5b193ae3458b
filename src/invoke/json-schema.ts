// Turns a resolved source schema (OpenAPI 3.0 / Swagger 2.0 / OpenAPI 3.1) into plain JSON Schema
// that ajv compiles. Works on a copy; the resolver's output stays untouched.
import type { SpecFormat } from '../model/index.ts';

export type Dialect = 'draft-07' | '2020-12';

export function dialectOf(format: SpecFormat): Dialect {
  return format === 'openapi-3.1' ? '2020-12' : 'draft-07';
}

// Keywords whose value is one schema, a map of schemas, or a list of schemas.
const ONE = new Set([
  'items', 'additionalItems', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
]);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
// Identity keywords would make ajv register or look up schemas; a resolved schema needs none.
const DROP = new Set(['$id', 'id', '$schema', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', '$comment', 'discriminator', 'xml', 'externalDocs', 'example', 'examples']);

export interface ConvertOptions {
  readonly format: SpecFormat;
  /** A request body: `readOnly` properties are not sent, so they are not required. */
  readonly request?: boolean;
  /** Sub-schemas nested deeper than this accept anything (default 64). */
  readonly maxDepth?: number;
}

export function toJsonSchema(node: unknown, options: ConvertOptions): unknown {
  return convert(node, options.format !== 'openapi-3.1', options.request === true, 0, options.maxDepth ?? 64);
}

/** How many (sub-)schemas a converted schema has at each nesting depth: `[1, 12, 40, ...]`. */
export function schemasPerDepth(schema: unknown): number[] {
  const counts: number[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    counts[depth] = (counts[depth] ?? 0) + 1;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (ONE.has(key)) {
        if (Array.isArray(value)) for (const v of value) walk(v, depth + 1);
        else walk(value, depth + 1);
      } else if (MAP.has(key) && value !== null && typeof value === 'object') {
        for (const sub of Object.values(value as Record<string, unknown>)) walk(sub, depth + 1);
      } else if (LIST.has(key) && Array.isArray(value)) {
        for (const v of value) walk(v, depth + 1);
      }
    }
  };
  walk(schema, 0);
  return counts;
}

/** Every regular expression a converted schema uses (`pattern` values, `patternProperties` keys). */
export function patternsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return out;
  if (Array.isArray(schema)) {
    for (const v of schema) patternsOf(v, out);
    return out;
  }
  const node = schema as Record<string, unknown>;
  if (typeof node.pattern === 'string') out.add(node.pattern);
  const pp = node.patternProperties;
  if (pp !== null && typeof pp === 'object' && !Array.isArray(pp)) for (const k of Object.keys(pp)) out.add(k);
  for (const [key, value] of Object.entries(node)) if (key !== 'enum' && key !== 'const' && key !== 'default') patternsOf(value, out);
  return out;
}

function convert(node: unknown, legacy: boolean, request: boolean, depth: number, maxDepth: number): unknown {
  if (typeof node === 'boolean') return node;
  if (node === null || typeof node !== 'object' || Array.isArray(node) || depth > maxDepth) return {};
  const src = node as Record<string, unknown>;
  // Cycles and depth cuts from the resolver, and any `$ref` it could not follow: accept anything.
  if ('$circular' in src || '$truncated' in src || '$unresolved' in src || typeof src.$ref === 'string') return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(src)) {
    if (DROP.has(key) || key.startsWith('x-')) continue;
    if (ONE.has(key)) {
      out[key] = Array.isArray(value) ? value.map((v) => convert(v, legacy, request, depth + 1, maxDepth)) : convert(value, legacy, request, depth + 1, maxDepth);
    } else if (MAP.has(key)) {
      if (value !== null && typeof value === 'object') {
        const map: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(value as Record<string, unknown>)) map[name] = convert(sub, legacy, request, depth + 1, maxDepth);
        out[key] = map;
      }
    } else if (LIST.has(key)) {
      if (Array.isArray(value)) out[key] = value.map((v) => convert(v, legacy, request, depth + 1, maxDepth));
    } else {
      out[key] = value;
    }
  }
  if (legacy) legacyKeywords(out);
  // Swagger 2.0 `type: file` and unknown type names: no constraint ajv could check.
  if (typeof out.type === 'string' && !JSON_TYPES.has(out.type)) delete out.type;
  if (Array.isArray(out.type)) out.type = out.type.filter((t) => typeof t === 'string' && JSON_TYPES.has(t));
  if (request && Array.isArray(out.required) && out.properties !== null && typeof out.properties === 'object') {
    const props = src.properties as Record<string, unknown>;
    out.required = (out.required as unknown[]).filter((name) => {
      const p = typeof name === 'string' ? props[name] : undefined;
      return !(p !== null && typeof p === 'object' && (p as Record<string, unknown>).readOnly === true);
    });
  }
  return out;
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** OpenAPI 3.0 / Swagger 2.0 keywords that differ from JSON Schema. */
function legacyKeywords(out: Record<string, unknown>): void {
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  delete out.nullable;
  // Draft 4 style booleans: `exclusiveMinimum: true` with `minimum: n`.
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] === true && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else {
        delete out[flag];
      }
    }
  }
}
