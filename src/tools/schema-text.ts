// A resolved JSON schema as a compact field list: `name (type, required, default x, e.g. y): first
// sentence`, nested objects indented, circular references named instead of expanded. Not a schema
// dump: the model needs field names, types, which are required and what values look like, not
// every keyword.
import { safeLine } from '../model/safe-text.ts';
import { clip, firstSentence, oneLine } from './text.ts';

type Node = Record<string, unknown>;

/** Nesting levels shown when the caller does not ask for more, and the most it may ask for. */
export const DEFAULT_FIELD_DEPTH = 3;
export const MAX_FIELD_DEPTH = 6;
const MAX_LINES = 80;
const MAX_ENUM_CHARS = 80;
/** A default or example longer than this is cut: it shows the shape of a value, not a document. */
const MAX_VALUE_CHARS = 40;
/** Formats shown in the type label (`integer(int64)`): short, plain words only (the text is the spec's). */
const FORMAT = /^[A-Za-z0-9][\w.+-]{0,23}$/;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `#/components/schemas/issue` -> `issue`. */
function refName(ref: unknown): string {
  const text = String(ref);
  const hash = text.lastIndexOf('/');
  return hash >= 0 ? text.slice(hash + 1) : text;
}

function variants(node: Node): Node[] | undefined {
  const list = (node['oneOf'] ?? node['anyOf']) as unknown;
  return Array.isArray(list) ? list.filter(isNode) : undefined;
}

/** allOf parts folded into one node (properties and required merged), the rest kept. */
function merged(node: Node): Node {
  const parts = node['allOf'];
  if (!Array.isArray(parts)) return node;
  const out: Node = { ...node };
  // Stryker disable next-line StringLiteral: nothing reads allOf from a folded node (every reader folds the raw node itself)
  delete out['allOf'];
  const properties: Node = isNode(node['properties']) ? { ...node['properties'] } : {};
  const required = new Set<string>(Array.isArray(node['required']) ? (node['required'] as string[]) : []);
  for (const raw of parts) {
    if (!isNode(raw)) continue;
    const part = merged(raw);
    if (isNode(part['properties'])) Object.assign(properties, part['properties']);
    if (Array.isArray(part['required'])) for (const r of part['required']) required.add(String(r));
    for (const key of ['type', 'items', 'enum', 'format', '$circular', '$truncated', 'oneOf', 'anyOf', 'nullable', 'additionalProperties']) {
      if (out[key] === undefined && part[key] !== undefined) out[key] = part[key];
    }
  }
  if (Object.keys(properties).length) out['properties'] = properties;
  if (required.size) out['required'] = [...required];
  return out;
}

export function enumLabel(values: unknown[]): string {
  const parts = values.map((v) => (typeof v === 'string' && v !== '' && !v.includes('|') ? v : JSON.stringify(v)));
  let text = '';
  for (let i = 0; i < parts.length; i++) {
    const next = text ? `${text}|${parts[i]}` : parts[i]!;
    if (next.length > MAX_ENUM_CHARS) return `${text ? `${text}|` : ''}…(${parts.length} values)`;
    text = next;
  }
  return text;
}

/**
 * The compact type label of a schema: `string`, `integer[]`, `open|closed`, `object|null`.
 * A schema that would recurse (or is too deep to expand) is named, not expanded: `ref:FamilyMember`.
 */
export function typeLabel(raw: unknown): string {
  if (raw === false) return 'never';
  if (!isNode(raw)) return 'any';
  // allOf folded first: a reference wrapped in allOf (to give it a description) is named like a bare one.
  const node = merged(raw);
  if (node['$circular'] !== undefined) return `ref:${refName(node['$circular'])}`;
  if (node['$truncated'] !== undefined) return node['$truncated'] === 'depth' || node['$truncated'] === 'size limit' ? 'object' : `ref:${refName(node['$truncated'])}`;
  if (raw['$unresolved'] !== undefined) return `unresolvable ref ${String(raw['$unresolved'])}`;
  const nullable = node['nullable'] === true;
  let label: string;
  if (Array.isArray(node['enum'])) {
    label = enumLabel(node['enum'] as unknown[]);
  } else if (node['const'] !== undefined) {
    label = JSON.stringify(node['const']);
  } else {
    const alts = variants(node);
    if (alts && alts.length) {
      label = [...new Set(alts.map(typeLabel))].join('|');
    } else {
      const types = Array.isArray(node['type']) ? (node['type'] as unknown[]).map(String) : node['type'] !== undefined ? [String(node['type'])] : [];
      if (!types.length) types.push(isNode(node['properties']) ? 'object' : node['items'] !== undefined ? 'array' : 'any');
      label = types.map((t) => single(node, t)).join('|');
    }
  }
  return nullable && !label.split('|').includes('null') ? `${label}|null` : label;
}

function single(node: Node, type: string): string {
  if (type === 'array') {
    const item = typeLabel(node['items']);
    return item.includes('|') ? `(${item})[]` : `${item}[]`;
  }
  if (type === 'object') {
    const extra = node['additionalProperties'];
    if (!isNode(node['properties']) && isNode(extra)) return `map of ${typeLabel(extra)}`;
    return 'object';
  }
  return withFormat(type, node['format']);
}

/** `integer` + `int64` -> `integer(int64)`: the format of a scalar type, when it is a short plain word. */
export function withFormat(type: string, format: unknown): string {
  return typeof format === 'string' && FORMAT.test(format) && (type === 'string' || type === 'integer' || type === 'number') ? `${type}(${format})` : type;
}

/** A value from the spec on one short line: JSON, clipped. */
export function valueText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return clip(oneLine(text), MAX_VALUE_CHARS);
}

/** `default 20`, `e.g. "Rex"`: the schema's default and first example, an example equal to the default left out. */
export function valueFlags(raw: unknown): string[] {
  if (!isNode(raw)) return [];
  const flags: string[] = [];
  const def = raw['default'];
  if (def !== undefined) flags.push(`default ${valueText(def)}`);
  const examples = raw['examples'];
  const example = raw['example'] !== undefined ? raw['example'] : Array.isArray(examples) && examples.length > 0 ? examples[0] : undefined;
  if (example !== undefined && (def === undefined || valueText(example) !== valueText(def))) flags.push(`e.g. ${valueText(example)}`);
  return flags;
}

/** True when the value (or its array items) is a reference back into a schema being expanded. */
function refersBack(value: unknown): boolean {
  if (!isNode(value)) return false;
  const node = merged(value);
  if (node['$circular'] !== undefined) return true;
  return isNode(node['items']) && merged(node['items'])['$circular'] !== undefined;
}

/** The object whose properties a field list should show: itself, its array items, or its only object variant. */
function objectOf(raw: unknown): Node | undefined {
  if (!isNode(raw) || raw['$circular'] !== undefined || raw['$truncated'] !== undefined) return undefined;
  const node = merged(raw);
  if (isNode(node['properties'])) return node;
  if (node['items'] !== undefined) return objectOf(node['items']);
  const alts = variants(node)?.map(objectOf).filter((n): n is Node => n !== undefined);
  return alts && alts.length === 1 ? alts[0] : undefined;
}

export interface FieldOptions {
  readonly indent?: string;
  /** Nesting levels to show, 1 = top-level fields only (default 3, at most MAX_FIELD_DEPTH). */
  readonly depth?: number;
  /** A request leaves out readOnly fields (never sent), a response writeOnly ones (never returned). */
  readonly direction?: 'request' | 'response';
}

/**
 * Field lines for `schema` (already resolved), indented by `indent`. A schema without fields
 * yields one line that says what it is (`any JSON`, `string(binary)`, ...): never nothing.
 */
export function fieldLines(schema: unknown, options: FieldOptions = {}): string[] {
  const indent = options.indent ?? '  ';
  const maxDepth = Math.min(Math.max(1, options.depth ?? DEFAULT_FIELD_DEPTH), MAX_FIELD_DEPTH);
  const hidden = options.direction === 'response' ? 'writeOnly' : 'readOnly';
  const root = objectOf(schema);
  if (!root) return [`${indent}${safeLine(undescribed(schema))}`];
  const lines: string[] = [];
  // A list of objects says so once: the fields below are those of each item.
  if (isNode(schema) && !isNode(merged(schema)['properties']) && merged(schema)['items'] !== undefined) lines.push(`${indent}(a list; each item:)`);
  let omitted = 0;
  const walk = (node: Node, pad: string, depth: number): void => {
    const props = node['properties'] as Node;
    if (props['$truncated'] !== undefined || props['$circular'] !== undefined) {
      lines.push(`${pad}(fields not expanded)`);
      return;
    }
    const required = new Set(Array.isArray(node['required']) ? (node['required'] as unknown[]).map(String) : []);
    for (const [name, value] of Object.entries(props)) {
      if (isNode(value) && value[hidden] === true) continue;
      if (lines.length >= MAX_LINES) {
        omitted++;
        continue;
      }
      const flags = [typeLabel(value)];
      if (required.has(name)) flags.push('required');
      if (refersBack(value)) flags.push('circular');
      if (isNode(value) && value['deprecated'] === true) flags.push('deprecated');
      flags.push(...valueFlags(value));
      const description = isNode(value) ? firstSentence(value['description'] as string | undefined, 80) : undefined;
      // Property names and enum values come from the spec: one line each, whatever they hold.
      lines.push(`${pad}${safeLine(`${name} (${flags.join(', ')})`)}${description ? `: ${description}` : ''}`);
      const child = objectOf(value);
      if (child && depth + 1 < maxDepth) walk(child, `${pad}  `, depth + 1);
    }
  };
  walk(root, indent, 0);
  if (lines.length === 0) lines.push(`${indent}(an object; the spec lists no ${options.direction === 'response' ? 'fields it returns' : 'fields to send'})`);
  if (omitted) lines.push(`${indent}… ${omitted} more fields`);
  return lines;
}

/** The one line for a schema without fields to list: what it is, said plainly. */
function undescribed(schema: unknown): string {
  const label = typeLabel(schema);
  if (label === 'any') return '(any JSON: the spec does not describe it)';
  if (label === 'object') return isNode(schema) && (schema['$truncated'] !== undefined || schema['$circular'] !== undefined) ? '(an object too deep to expand here)' : '(an object; the spec lists no fields)';
  if (/^string\((binary|byte)\)$/.test(label)) return `${label}: the raw content, not JSON`;
  const flags = valueFlags(schema);
  return flags.length ? `${label} (${flags.join(', ')})` : label;
}
