// Validators for parameter and body schemas, compiled lazily (once per parameter or body content)
// and within bounds that a hostile spec cannot break: regular expressions run on a linear-time
// engine (RE2 semantics), and a schema too large or too deep is checked to its top levels only.
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import type { ImportedSpec, SchemaLink } from '../model/index.ts';
import { dialectOf, patternsOf, schemasPerDepth, toJsonSchema, type Dialect } from './json-schema.ts';

/** Sub-schemas one validator may hold; past it, only the levels that fit are checked. */
export const MAX_SCHEMA_NODES = 2_000;
/** Nesting depth one validator checks at most. */
export const MAX_SCHEMA_DEPTH = 24;

interface RegExpLike {
  test(s: string): boolean;
  /** ajv keys compiled patterns by this string: it must differ per pattern. */
  toString(): string;
}

const compiled = new Map<string, RegExpLike | null>();
const MAX_CACHED_PATTERNS = 4096;

/** A pattern on RE2JS, or null when RE2 cannot express it (lookaround, backreferences). */
function linear(pattern: string): RegExpLike | null {
  // Stryker disable next-line ConditionalExpression: a miss compiles the same pattern again (the cache only saves work).
  if (compiled.has(pattern)) return compiled.get(pattern)!;
  let out: RegExpLike | null;
  try {
    const re = RE2JS.compile(pattern);
    // Stryker disable next-line ArrowFunction: without a text ajv keys the pattern by the object itself, one per pattern too.
    out = { test: (s: string) => re.test(s), toString: () => `re2js:${pattern}` };
  } catch {
    out = null;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: eviction bounds the cache's memory only; an evicted pattern compiles again the same.
  if (compiled.size >= MAX_CACHED_PATTERNS) compiled.delete(compiled.keys().next().value!);
  // Stryker disable next-line CallExpression: not caching compiles the same pattern again next time.
  compiled.set(pattern, out);
  return out;
}

// Never a backtracking RegExp: a pattern RE2 cannot compile accepts anything, and the answer says so.
// Stryker disable next-line ArrowFunction,StringLiteral: every unchecked pattern accepts all, so sharing a key changes nothing.
const acceptAll = (pattern: string): RegExpLike => ({ test: () => true, toString: () => `unchecked:${pattern}` });
// Stryker disable next-line ObjectLiteral,StringLiteral: ajv reads `code` only when it writes standalone code, which svc never does.
const regExp = Object.assign((pattern: string): RegExpLike => linear(pattern) ?? acceptAll(pattern), { code: 're2js' });

const AJV_OPTIONS = {
  allErrors: true,
  // Errors carry their schema, so an anyOf failure can list its alternatives in one line.
  verbose: true,
  strict: false,
  validateFormats: false,
  logger: false,
  addUsedSchema: false,
  coerceTypes: false,
  code: { regExp },
} as const;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
function ajvFor(dialect: Dialect): Ajv | Ajv2020 {
  if (dialect === '2020-12') return (draft2020 ??= new Ajv2020(AJV_OPTIONS));
  return (draft07 ??= new Ajv(AJV_OPTIONS));
}

export interface Validator {
  /** `null` = nothing to check (no schema, or one ajv could not compile). */
  readonly fn: ValidateFunction | null;
  /** What was not checked and why, for the answer. */
  readonly notes: readonly string[];
}

const NONE: Validator = { fn: null, notes: [] };
const validators = new WeakMap<object, Validator>();

/** The deepest level whose schemas, with all above it, fit the node budget. */
function depthWithinBudget(perDepth: readonly number[]): number {
  let total = 0;
  for (let d = 0; d < perDepth.length && d <= MAX_SCHEMA_DEPTH; d++) {
    total += perDepth[d] ?? 0;
    if (total > MAX_SCHEMA_NODES) return Math.max(0, d - 1);
  }
  // Stryker disable next-line ArithmeticOperator: one level more than the schema has still checks it whole (depth < levels - 1 decides).
  return Math.min(perDepth.length - 1, MAX_SCHEMA_DEPTH);
}

export function validatorFor(owner: object, link: SchemaLink | undefined, spec: ImportedSpec, request: boolean, label: string): Validator {
  const cached = validators.get(owner);
  if (cached !== undefined) return cached;
  let result = NONE;
  if (link !== undefined) {
    try {
      const resolved = spec.schemas.resolve(link);
      let schema = toJsonSchema(resolved, { format: spec.format, request });
      const notes: string[] = [];
      const perDepth = schemasPerDepth(schema);
      const nodes = perDepth.reduce((a, b) => a + b, 0);
      const depth = depthWithinBudget(perDepth);
      if (depth < perDepth.length - 1) {
        schema = toJsonSchema(resolved, { format: spec.format, request, maxDepth: depth });
        notes.push(`[${label} checked to depth ${depth} only: its schema (${nodes} sub-schemas, ${perDepth.length} levels) is larger than svc checks whole; the API checks the rest]`);
      }
      const unsupported = [...patternsOf(schema)].filter((p) => linear(p) === null);
      if (unsupported.length > 0) {
        notes.push(`[${label}: pattern${unsupported.length > 1 ? 's' : ''} ${unsupported.map((p) => JSON.stringify(p.length > 60 ? `${p.slice(0, 60)}...` : p)).join(', ')} not checked: svc's linear-time regex engine cannot run ${unsupported.length > 1 ? 'them' : 'it'}]`);
      }
      result = { fn: ajvFor(dialectOf(spec.format)).compile(schema as object), notes };
    } catch {
      // A schema svc cannot compile must not block the call (the result stays NONE): the server
      // still validates.
    }
  }
  validators.set(owner, result);
  return result;
}
