// Postman `{{name}}` variables -> OpenAPI-style `{name}` placeholders.
//
// A path template and a server URL use `{` and `}` for placeholders, so literal braces in the
// source (a path segment that is just `{`, nested `{{a.{{b}}}}` variables) are percent-encoded:
// they still mean the same bytes on the wire and can no longer be taken for a placeholder.
// Everything else, including non-ASCII and astral characters, is kept exactly as written.

/** Collection variables: name -> value as text. */
export type CollectionVariables = ReadonlyMap<string, string>;

const VARIABLE = /\{\{([^{}]+)\}\}/g;

export interface Converted {
  readonly text: string;
  /** Variable names in order of appearance (may repeat). */
  readonly variables: readonly string[];
  /** True when `{{` or `}}` were left over after the variables were taken (nested variables). */
  readonly strayBraces: boolean;
}

/** Turns `{{name}}` into `{name}` and escapes every other brace. */
export function convertVariables(source: string): Converted {
  if (!source.includes('{') && !source.includes('}')) return { text: source, variables: [], strayBraces: false };
  const variables: string[] = [];
  let out = '';
  let last = 0;
  let stray = false;
  for (const match of source.matchAll(VARIABLE)) {
    const literal = source.slice(last, match.index);
    if (literal.includes('{{') || literal.includes('}}')) stray = true;
    out += escapeBraces(literal);
    const name = match[1] as string;
    variables.push(name);
    out += `{${name}}`;
    last = match.index + match[0].length;
  }
  const tail = source.slice(last);
  if (tail.includes('{{') || tail.includes('}}')) stray = true;
  out += escapeBraces(tail);
  return { text: out, variables, strayBraces: stray };
}

export function escapeBraces(literal: string): string {
  return literal.replaceAll('{', '%7B').replaceAll('}', '%7D');
}

/** Collection-level variables (`variable`, or the older `variables`); `key` or, in SDK exports, `id`. */
export function readCollectionVariables(doc: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const list = Array.isArray(doc['variable']) ? doc['variable'] : Array.isArray(doc['variables']) ? doc['variables'] : [];
  for (const entry of list as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const record = entry as Record<string, unknown>;
    const name = typeof record['key'] === 'string' ? record['key'] : typeof record['id'] === 'string' ? record['id'] : undefined;
    if (name === undefined || out.has(name)) continue;
    const value = record['value'];
    out.set(name, typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
  }
  return out;
}
