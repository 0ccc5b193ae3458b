// A resolved JSON schema as a compact field list: `name (type, required): first sentence`,
// nested objects indented, circular references named instead of expanded. Not a schema dump:
// the model needs field names, types and which are required, not every keyword.
import { safeLine } from '../model/safe-text.ts';
import { firstSentence } from './text.ts';

type Node = Record<string, unknown>;

const MAX_DEPTH = 3;
const MAX_LINES = 80;
const MAX_ENUM_CHARS = 80;

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
    if (next.length > MAX_ENUM_CHARS) return `${text}|…(${parts.length} values)`;
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
  if (raw['$circular'] !== undefined) return `ref:${refName(raw['$circular'])}`;
  if (raw['$truncated'] !== undefined) return raw['$truncated'] === 'depth' || raw['$truncated'] === 'size limit' ? 'object' : `ref:${refName(raw['$truncated'])}`;
  if (raw['$unresolved'] !== undefined) return `unresolvable ref ${String(raw['$unresolved'])}`;
  const node = merged(raw);
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
  const format = node['format'];
  return typeof format === 'string' && type === 'string' && ['date-time', 'date', 'binary', 'byte', 'uri', 'email', 'uuid'].includes(format)
    ? `string(${format})`
    : type;
}

/** True when the value (or its array items) is a reference back into a schema being expanded. */
function refersBack(value: unknown): boolean {
  if (!isNode(value)) return false;
  if (value['$circular'] !== undefined) return true;
  return isNode(value['items']) && value['items']['$circular'] !== undefined;
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

/**
 * Field lines for `schema` (already resolved), indented by `indent`.
 * A schema without properties yields one line with its type label.
 */
export function fieldLines(schema: unknown, indent = '  '): string[] {
  const root = objectOf(schema);
  if (!root) return [`${indent}${safeLine(typeLabel(schema))}`];
  const lines: string[] = [];
  let omitted = 0;
  const walk = (node: Node, pad: string, depth: number): void => {
    const props = node['properties'] as Node;
    if (props['$truncated'] !== undefined || props['$circular'] !== undefined) {
      lines.push(`${pad}(fields not expanded)`);
      return;
    }
    const required = new Set(Array.isArray(node['required']) ? (node['required'] as unknown[]).map(String) : []);
    for (const [name, value] of Object.entries(props)) {
      if (lines.length >= MAX_LINES) {
        omitted++;
        continue;
      }
      const flags = [typeLabel(value)];
      if (required.has(name)) flags.push('required');
      if (refersBack(value)) flags.push('circular');
      if (isNode(value) && value['readOnly'] === true) continue; // not sent in requests
      if (isNode(value) && value['deprecated'] === true) flags.push('deprecated');
      const description = isNode(value) ? firstSentence(value['description'] as string | undefined, 80) : undefined;
      // Property names and enum values come from the spec: one line each, whatever they hold.
      lines.push(`${pad}${safeLine(`${name} (${flags.join(', ')})`)}${description ? `: ${description}` : ''}`);
      const child = objectOf(value);
      if (child && depth + 1 < MAX_DEPTH) walk(child, `${pad}  `, depth + 1);
    }
  };
  walk(root, indent, 0);
  if (omitted) lines.push(`${indent}… ${omitted} more fields`);
  return lines;
}
