// The text `inspect` returns. Order is fixed: `METHOD /path`; a deprecation line; Summary;
// Description; Parameters, one line each; the request body; Responses, one line each, with the
// top-level fields of the success response under its line. Summary and description are the
// source's text unchanged; everything else is compact. Defaults, examples and formats stand on
// the line of their field; `depth` shows more levels of body and response fields (bounded).
import type { BodyContent, Endpoint, ImportedSpec, Parameter, Response } from '../model/index.ts';
import { safeLine } from '../model/safe-text.ts';
import { DEFAULT_FIELD_DEPTH, MAX_FIELD_DEPTH, enumLabel, fieldLines, valueFlags, valueText, withFormat } from './schema-text.ts';
import { clip, firstSentence, oneLine } from './text.ts';

/** JSON nesting followed when resolving a schema: enough for the deepest field list `depth` can ask for. */
const RESOLVE_DEPTH = 24;
/** Levels of the success response's fields shown by default: its top-level fields. */
const DEFAULT_RESPONSE_DEPTH = 1;

export interface InspectOptions {
  /** Levels of body and response fields to show (1-6); default: body 3, response 1. */
  readonly depth?: number;
  /** Parameters svc fills from svc.yaml (credentials declared as parameters), with the key that does. */
  readonly filled?: ReadonlyMap<Parameter, string>;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parameter's schema node (top-level refs followed only: cheap), or undefined. */
function parameterSchema(p: Parameter, spec: ImportedSpec): Node | undefined {
  if (!p.schema) return undefined;
  try {
    const node = spec.schemas.shallow(p.schema).node;
    if (!isNode(node)) return undefined;
    if (isNode(node['items'])) {
      const items = spec.schemas.shallow({ file: p.schema.file, node: node['items'] }).node;
      return isNode(items) ? { ...node, items } : node;
    }
    return node;
  }
  // Stryker disable next-line BlockStatement: an empty catch returns undefined all the same
  catch {
    return undefined;
  }
}

/** A parameter's type: its allowed values when the schema lists them, its format when it has one. */
function parameterType(p: Parameter, node: Node | undefined): string {
  if (node) {
    if (Array.isArray(node['enum'])) return enumLabel(node['enum']);
    const items = node['items'];
    if (isNode(items) && Array.isArray(items['enum'])) return `(${enumLabel(items['enum'])})[]`;
    return withFormat(p.type || 'any', node['format']);
  }
  return p.type || 'any';
}

export function parameterLine(p: Parameter, spec: ImportedSpec, filledBy?: string): string {
  const node = parameterSchema(p, spec);
  const flags = [p.in, parameterType(p, node)];
  // The model neither supplies nor sees a parameter svc fills from svc.yaml: say so instead of `required`.
  if (filledBy !== undefined) flags.push(`filled by svc from ${filledBy}`);
  else if (p.required) flags.push('required');
  if (p.deprecated) flags.push('deprecated');
  // The importer keeps the parameter's own example in `example`, or else the schema's default or
  // example: only a value of its own takes the place of the schema's example.
  const own = p.example !== undefined && !isNode(p.example) && ![node?.['default'], node?.['example']].some((v) => v !== undefined && valueText(v) === valueText(p.example));
  flags.push(...valueFlags(own ? { ...node, example: p.example } : node));
  const description = firstSentence(p.description, 100);
  return `  ${safeLine(`${p.name} (${flags.join(', ')})`)}${description ? `: ${description}` : ''}`;
}

/** JSON first: it is what `invoke` sends best; other media types are named. */
function preferredContent(contents: readonly BodyContent[]): BodyContent | undefined {
  return contents.find((c) => /[/+]json\b/i.test(c.mediaType)) ?? contents[0];
}

/** The lines of a resolved schema's fields, or one line saying why they cannot be shown. */
function schemaLines(link: BodyContent['schema'], spec: ImportedSpec, indent: string, depth: number, direction: 'request' | 'response'): string[] {
  if (!link) return [`${indent}(no schema given: the spec does not describe this content)`];
  let resolved: unknown;
  try {
    resolved = spec.schemas.resolve(link, { maxDepth: RESOLVE_DEPTH });
  } catch (error) {
    return [`${indent}(schema could not be resolved: ${clip(oneLine(error instanceof Error ? error.message : String(error)), 160)})`];
  }
  return fieldLines(resolved, { indent, depth, direction });
}

function bodyLines(endpoint: Endpoint, spec: ImportedSpec, depth: number): string[] {
  const body = endpoint.requestBody;
  if (!body) return [];
  const chosen = preferredContent(body.contents);
  if (!chosen) return [`Body${body.required ? ' (required)' : ''}: the spec gives no content type or schema for it`];
  const others = body.contents.filter((c) => c !== chosen).map((c) => c.mediaType);
  const head = [chosen.mediaType];
  if (body.required) head.push('required');
  if (others.length) head.push(`also ${others.join(', ')}`);
  return [`Body (${safeLine(head.join('; '))}):`, ...schemaLines(chosen.schema, spec, '  ', depth, 'request')];
}

/** The response whose fields are shown: the first 2xx one with a schema. */
function successResponse(responses: readonly Response[]): Response | undefined {
  return responses.find((r) => /^2/.test(r.status) && r.schema !== undefined);
}

function responseLines(endpoint: Endpoint, spec: ImportedSpec, depth: number): string[] {
  if (!endpoint.responses.length) return ['Responses: none documented'];
  const success = successResponse(endpoint.responses);
  const lines = ['Responses:'];
  for (const r of endpoint.responses) {
    lines.push(`  ${safeLine(r.status)}${r.label ? ` ${clip(oneLine(r.label), 80)}` : ''}`);
    if (r === success) lines.push(...schemaLines(r.schema, spec, '    ', depth, 'response'));
  }
  return lines;
}

export function renderInspect(endpoint: Endpoint, spec: ImportedSpec, options: InspectOptions = {}): string {
  const asked = options.depth === undefined ? undefined : Math.min(Math.max(1, Math.trunc(options.depth)), MAX_FIELD_DEPTH);
  // One-line fields are made safe; summary and description are the source's text (a fixed rule).
  const lines = [safeLine(`${endpoint.method} ${endpoint.path}`)];
  if (endpoint.deprecated) lines.push('Deprecated: yes, prefer another endpoint for new work');
  // The source's text unchanged, except trailing whitespace (YAML block scalars end in a newline).
  if (endpoint.summary !== undefined) lines.push(`Summary: ${endpoint.summary.trimEnd()}`);
  if (endpoint.description !== undefined) lines.push(`Description: ${endpoint.description.trimEnd()}`);
  if (endpoint.parameters.length) lines.push('Parameters:', ...endpoint.parameters.map((p) => parameterLine(p, spec, options.filled?.get(p))));
  else lines.push('Parameters: none');
  lines.push(...bodyLines(endpoint, spec, asked ?? DEFAULT_FIELD_DEPTH));
  lines.push(...responseLines(endpoint, spec, asked ?? DEFAULT_RESPONSE_DEPTH));
  return lines.join('\n');
}
