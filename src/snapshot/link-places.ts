// Where the schema nodes that endpoints link to sit in their documents: a snapshot names each linked
// node by its JSON pointer (its place), so only those nodes' places are worked out, not every
// object's; and endpoints with their links swapped for what the snapshot stores instead.
import type { Endpoint, SchemaLink } from '../model/index.ts';
import { escapeToken } from '../import/pointer.ts';

/** The schema nodes the endpoints link to, by file: the only nodes whose place a snapshot names. */
export function linkNodesByFile(endpoints: readonly Endpoint[]): Map<string, Set<object>> {
  const out = new Map<string, Set<object>>();
  const add = (link: SchemaLink | undefined) => {
    if (!link || link.node === null || typeof link.node !== 'object') return;
    let set = out.get(link.file);
    if (!set) out.set(link.file, (set = new Set()));
    set.add(link.node);
  };
  for (const e of endpoints) {
    for (const p of e.parameters) add(p.schema);
    for (const c of e.requestBody?.contents ?? []) add(c.schema);
    for (const r of e.responses) add(r.schema);
  }
  return out;
}

/**
 * The JSON pointer of each `wanted` object of a document (how a link names its node): the place
 * where a depth-first walk first meets it. The walk keeps, per object met, only its parent and key,
 * and writes a pointer for the wanted ones alone; it stops once every wanted object is met (a later
 * meeting never changes a pointer). Writing a pointer for every object of a large document was
 * most of an encode's time and memory.
 */
export function collectPlaces(root: object, wanted: ReadonlySet<object>, out: Map<object, string>): void {
  let left = wanted.size;
  if (left === 0) return;
  const seen = new Set<object>();
  // Per object met: its parent's record and its key in that parent.
  const parents: number[] = [];
  const keys: (string | number)[] = [];
  // The walk's stack, as three parallel lists.
  const nodes: object[] = [root];
  const from: number[] = [-1];
  const via: (string | number)[] = [''];
  const pointerOf = (record: number): string => {
    const tokens: string[] = [];
    for (let r = record; parents[r]! >= 0; r = parents[r]!) tokens.push(escapeToken(String(keys[r])));
    let pointer = '';
    for (let i = tokens.length - 1; i >= 0; i--) pointer += `/${tokens[i]}`;
    return pointer;
  };
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const parent = from.pop()!;
    const key = via.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const record = parents.length;
    parents.push(parent);
    keys.push(key);
    if (wanted.has(node)) {
      out.set(node, pointerOf(record));
      if (--left === 0) return;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v = node[i] as unknown;
        if (v !== null && typeof v === 'object') {
          nodes.push(v);
          from.push(record);
          via.push(i);
        }
      }
    } else {
      for (const k in node) {
        const v = (node as Record<string, unknown>)[k];
        if (v !== null && typeof v === 'object') {
          nodes.push(v);
          from.push(record);
          via.push(k);
        }
      }
    }
  }
}

/**
 * The endpoint with every schema link passed through `fn` (a copy where links are; the rest shared).
 * For an endpoint as imported: a decoded `StoredEndpoint` keeps id, description and source on its
 * prototype, which the spread below would drop.
 */
export function mapLinks<L>(e: Endpoint, fn: (link: SchemaLink) => L): Endpoint {
  const hasLinks = e.parameters.some((p) => p.schema) || e.requestBody?.contents.some((c) => c.schema) || e.responses.some((r) => r.schema);
  if (!hasLinks) return e;
  const swap = <T extends { readonly schema?: SchemaLink }>(x: T): T => (x.schema ? { ...x, schema: fn(x.schema) as unknown as SchemaLink } : x);
  return {
    ...e,
    parameters: e.parameters.map(swap),
    ...(e.requestBody ? { requestBody: { ...e.requestBody, contents: e.requestBody.contents.map(swap) } } : {}),
    responses: e.responses.map(swap),
  };
}
