// The text `inspect` returns. Order is fixed: `METHOD /path`; a deprecation line; Summary;
// Description; Parameters; the request body; Responses. Summary and description are the
// source's text unchanged; everything else is compact.
import type { BodyContent, Endpoint, ImportedSpec, Parameter } from '../model/index.ts';
import { safeLine } from '../model/safe-text.ts';
import { enumLabel, fieldLines } from './schema-text.ts';
import { clip, firstSentence, oneLine } from './text.ts';

/** JSON nesting followed when resolving a body schema: enough for the three levels the field list shows. */
const RESOLVE_DEPTH = 24;

/** A parameter's type, or its allowed values when the schema lists them (cheap: top-level refs only). */
function parameterType(p: Parameter, spec: ImportedSpec): string {
  if (p.schema) {
    try {
      const node = spec.schemas.shallow(p.schema).node as { enum?: unknown; items?: unknown } | undefined;
      if (node && Array.isArray(node.enum)) return enumLabel(node.enum);
      if (node && node.items && typeof node.items === 'object') {
        const items = spec.schemas.shallow({ file: p.schema.file, node: node.items }).node as { enum?: unknown } | undefined;
        if (items && Array.isArray(items.enum)) return `(${enumLabel(items.enum)})[]`;
      }
    } catch {
      // fall back to the importer's label
    }
  }
  return p.type || 'any';
}

export function parameterLine(p: Parameter, spec: ImportedSpec): string {
  const flags = [p.in, parameterType(p, spec)];
  if (p.required) flags.push('required');
  if (p.deprecated) flags.push('deprecated');
  const description = firstSentence(p.description, 100);
  return `  ${safeLine(`${p.name} (${flags.join(', ')})`)}${description ? `: ${description}` : ''}`;
}

/** JSON first: it is what `invoke` sends best; other media types are named. */
function preferredContent(contents: readonly BodyContent[]): BodyContent | undefined {
  return contents.find((c) => /[/+]json\b/i.test(c.mediaType)) ?? contents[0];
}

function bodyLines(endpoint: Endpoint, spec: ImportedSpec): string[] {
  const body = endpoint.requestBody;
  if (!body) return [];
  const chosen = preferredContent(body.contents);
  if (!chosen) return [`Body${body.required ? ' (required)' : ''}: no content type given`];
  const others = body.contents.filter((c) => c !== chosen).map((c) => c.mediaType);
  const head = [chosen.mediaType];
  if (body.required) head.push('required');
  if (others.length) head.push(`also ${others.join(', ')}`);
  const lines = [`Body (${safeLine(head.join('; '))}):`];
  if (!chosen.schema) {
    lines.push('  (no schema given)');
    return lines;
  }
  let resolved: unknown;
  try {
    resolved = spec.schemas.resolve(chosen.schema, { maxDepth: RESOLVE_DEPTH });
  } catch (error) {
    lines.push(`  (schema could not be resolved: ${clip(oneLine(error instanceof Error ? error.message : String(error)), 160)})`);
    return lines;
  }
  lines.push(...fieldLines(resolved));
  return lines;
}

export function renderInspect(endpoint: Endpoint, spec: ImportedSpec): string {
  // One-line fields are made safe; summary and description are the source's text (a fixed rule).
  const lines = [safeLine(`${endpoint.method} ${endpoint.path}`)];
  if (endpoint.deprecated) lines.push('Deprecated: yes, prefer another endpoint for new work');
  // The source's text unchanged, except trailing whitespace (YAML block scalars end in a newline).
  if (endpoint.summary !== undefined) lines.push(`Summary: ${endpoint.summary.trimEnd()}`);
  if (endpoint.description !== undefined) lines.push(`Description: ${endpoint.description.trimEnd()}`);
  if (endpoint.parameters.length) lines.push('Parameters:', ...endpoint.parameters.map((p) => parameterLine(p, spec)));
  else lines.push('Parameters: none');
  lines.push(...bodyLines(endpoint, spec));
  if (endpoint.responses.length) {
    lines.push('Responses:', ...endpoint.responses.map((r) => `  ${safeLine(r.status)}${r.label ? ` ${clip(oneLine(r.label), 80)}` : ''}`));
  } else {
    lines.push('Responses: none documented');
  }
  return lines.join('\n');
}
