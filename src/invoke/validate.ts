// Binds the caller's `params` to the endpoint's parameters and checks them, and the body,
// against their schemas before anything is sent (validators: compile.ts).
import type { ErrorObject } from 'ajv';
import type { BodyContent, Endpoint, ImportedSpec, Parameter, SchemaLink } from '../model/index.ts';
import { InvalidArgumentsError } from './errors.ts';
import { validatorFor } from './compile.ts';
import { toJsonSchema } from './json-schema.ts';

export interface BoundParam {
  readonly param: Parameter;
  readonly value: unknown;
}

export interface BoundArgs {
  readonly params: readonly BoundParam[];
  /** The chosen body content, when a body is sent. */
  readonly content?: BodyContent;
  readonly body?: unknown;
  /** What svc could not check (patterns RE2 cannot run, schemas past the budget), for the answer. */
  readonly notes: readonly string[];
}

/** `query.limit`, `header.X-Trace`: the qualified form of a parameter's key. */
function qualified(p: Parameter): string {
  return `${p.in}.${p.name}`;
}

function sameName(p: Parameter, name: string): boolean {
  return p.in === 'header' ? p.name.toLowerCase() === name.toLowerCase() : p.name === name;
}

export function bindArguments(
  endpoint: Endpoint,
  spec: ImportedSpec,
  params: Readonly<Record<string, unknown>> | undefined,
  body: unknown,
  contentType: string | undefined,
  /** Parameters svc fills or guards (credentials), with the svc.yaml key that does: never from the model. */
  reserved: ReadonlyMap<Parameter, string> = new Map(),
): BoundArgs {
  const problems: string[] = [];
  const bound = new Map<Parameter, unknown>();
  const all = endpoint.parameters;

  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    problems.push(`params: must be an object keyed by parameter name, got ${describe(params)}`);
  } else if (params !== undefined) {
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined) continue;
      let matches = all.filter((p) => sameName(p, key));
      if (matches.length === 0) {
        // `query.limit`: the name qualified by its location. A part before the dot that is no
        // location matches no parameter, and without a dot the name is the whole key, which was
        // just looked for.
        const dot = key.indexOf('.');
        const loc = key.slice(0, dot);
        const name = key.slice(dot + 1);
        matches = all.filter((p) => p.in === loc && sameName(p, name));
      }
      if (matches.length === 0) {
        problems.push(`'${key}': unknown parameter`);
        continue;
      }
      if (matches.length > 1) {
        problems.push(`'${key}': ambiguous, use ${matches.map((m) => `'${qualified(m)}'`).join(' or ')}`);
        continue;
      }
      const param = matches[0]!;
      const owner = reserved.get(param);
      if (owner !== undefined) {
        problems.push(`'${key}': svc sends this credential itself (${owner} in svc.yaml); leave it out`);
        continue;
      }
      if (bound.has(param)) {
        problems.push(`'${key}': given twice`);
        continue;
      }
      // null for an optional parameter means "leave it out".
      if (value === null && !param.required) continue;
      bound.set(param, value);
    }
  }

  const label = (p: Parameter): string => (all.some((o) => o !== p && o.name === p.name) ? qualified(p) : p.name);
  // A Postman request carries its own values (`:id` = 7, `?verbose=true`): they are what the
  // collection sends, so they stand in for required values the caller left out.
  const postman = spec.format === 'postman-2.0' || spec.format === 'postman-2.1';
  for (const p of all) {
    if (!p.required || bound.has(p) || reserved.has(p)) continue;
    // (The importer keeps no empty example.)
    if (postman && p.example !== undefined) bound.set(p, p.example);
    else problems.push(`${label(p)} (${p.in}, ${p.type}): required`);
  }
  const notes: string[] = [];
  for (const [p, value] of bound) {
    const { fn, notes: unchecked } = validatorFor(p, p.schema, spec, false, label(p));
    notes.push(...unchecked);
    if (fn !== null && !fn(value)) problems.push(...ajvProblems(label(p), fn.errors));
  }

  // Body.
  let content: BodyContent | undefined;
  const rb = endpoint.requestBody;
  if (body !== undefined && body !== null) {
    if (rb === undefined) {
      problems.push(`body: ${endpoint.method} ${endpoint.path} takes no request body`);
    } else if (rb.contents.length === 0) {
      // A body the source describes without a media type: JSON is the only honest guess.
      content = { mediaType: contentType ?? 'application/json' };
    } else {
      content = chooseContent(rb.contents, contentType);
      if (content === undefined) {
        problems.push(`contentType '${contentType}': not one of ${rb.contents.map((c) => c.mediaType).join(', ')}`);
      } else {
        const { fn, notes: unchecked } = validatorFor(content, content.schema, spec, true, 'body');
        notes.push(...unchecked);
        if (fn !== null && !fn(body)) problems.push(...ajvProblems('body', fn.errors));
      }
    }
  } else if (rb?.required === true) {
    problems.push(`body (${rb.contents.map((c) => c.mediaType).join(' or ')}): required`);
  }

  if (problems.length > 0) {
    throw new InvalidArgumentsError(
      `Invalid arguments for ${endpoint.method} ${endpoint.path}:\n${problems.map((p) => `- ${p}`).join('\n')}\n${expected(endpoint, spec, reserved)}`,
      problems,
    );
  }
  const out: { params: BoundParam[]; content?: BodyContent; body?: unknown; notes: string[] } = {
    params: [...bound].map(([param, value]) => ({ param, value })),
    notes,
  };
  if (content !== undefined) {
    out.content = content;
    out.body = body;
  }
  return out;
}

const BODY_PREFERENCE = [
  (m: string) => m === 'application/json' || m.endsWith('+json') || m === '*/*',
  (m: string) => m === 'application/x-www-form-urlencoded',
  (m: string) => m === 'multipart/form-data',
  (m: string) => m.startsWith('text/'),
];

/** The body media type: the one asked for, else JSON, form, multipart, text, then the first listed. */
export function chooseContent(contents: readonly BodyContent[], wanted: string | undefined): BodyContent | undefined {
  const base = (m: string): string => m.split(';')[0]!.trim().toLowerCase();
  if (wanted !== undefined) return contents.find((c) => base(c.mediaType) === base(wanted));
  for (const test of BODY_PREFERENCE) {
    const hit = contents.find((c) => test(base(c.mediaType)));
    if (hit !== undefined) return hit;
  }
  return contents[0];
}

function ajvProblems(where: string, errors: ErrorObject[] | null | undefined): string[] {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration,StringLiteral: ajv sets errors whenever a validation fails; this is only a fallback.
  if (!errors) return [`${where}: invalid`];
  // An anyOf/oneOf failure is told once, with its alternatives; its branches' errors at the same
  // place would only repeat it piecemeal.
  const alternatives = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && alternatives.has(e.instancePath) && e.keyword !== 'required') continue;
    // Stryker disable next-line StringLiteral: ajv gives every error a message (messages are on); this is only a fallback.
    let msg = e.message ?? 'invalid';
    if (e.keyword === 'enum') msg = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    if (e.keyword === 'additionalProperties') msg = `unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`;
    if ((e.keyword === 'anyOf' || e.keyword === 'oneOf') && Array.isArray(e.schema)) {
      const labels = [...new Set((e.schema as Array<Record<string, unknown>>).map((b) => (Array.isArray(b.enum) && b.enum.length === 1 ? JSON.stringify(b.enum[0]) : typeLabel(b))))];
      msg = `must be ${e.keyword === 'oneOf' ? 'exactly one' : 'one'} of: ${labels.join(', ')}`;
    }
    const line = `${where}${e.instancePath}: ${msg}`;
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
    if (out.length >= 8) break;
  }
  return out;
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** What the endpoint takes, so the next call can be right. */
function expected(endpoint: Endpoint, spec: ImportedSpec, reserved: ReadonlyMap<Parameter, string>): string {
  const lines: string[] = [];
  const params = endpoint.parameters.filter((p) => !reserved.has(p)).map((p) => {
    const name = endpoint.parameters.some((o) => o !== p && o.name === p.name) ? qualified(p) : p.name;
    return `${name} (${p.in}, ${p.type}${p.required ? ', required' : ''})`;
  });
  lines.push(`Expected params: ${params.length > 0 ? params.join(', ') : 'none'}`);
  const rb = endpoint.requestBody;
  if (rb !== undefined && rb.contents.length > 0) {
    const c = chooseContent(rb.contents, undefined)!;
    lines.push(`Expected body${rb.required ? ' (required)' : ''}: ${c.mediaType}${shape(c, spec)}`);
  }
  return lines.join('\n');
}

function shape(content: BodyContent, spec: ImportedSpec): string {
  if (content.schema === undefined) return '';
  try {
    const s = toJsonSchema(spec.schemas.resolve(content.schema, { maxDepth: 5 }), { format: spec.format, request: true }) as Record<string, unknown>;
    const props = s.properties as Record<string, Record<string, unknown>> | undefined;
    if (props === undefined) return typeof s.type === 'string' ? ` ${s.type}` : '';
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const names = Object.keys(props);
    const listed = names.slice(0, 20).map((n) => `${n} (${typeLabel(props[n]!)}${required.has(n) ? ', required' : ''})`);
    return ` object with ${listed.join(', ')}${names.length > 20 ? `, and ${names.length - 20} more` : ''}`;
  } catch {
    return '';
  }
}

function typeLabel(s: Record<string, unknown>): string {
  const t = s.type;
  if (t === 'array') {
    const items = s.items as Record<string, unknown> | undefined;
    return `${items !== undefined && typeof items.type === 'string' ? items.type : 'any'}[]`;
  }
  if (Array.isArray(t)) return t.join('|');
  const branches = (s.anyOf ?? s.oneOf) as Array<Record<string, unknown>> | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    return [...new Set(branches.map((b) => (Array.isArray(b.enum) && b.enum.length === 1 ? JSON.stringify(b.enum[0]) : typeLabel(b))))].join('|');
  }
  if (typeof t === 'string') return Array.isArray(s.enum) ? `${t}: ${s.enum.map((v) => JSON.stringify(v)).join('|')}` : t;
  return 'any';
}
