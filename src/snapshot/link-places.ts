// Where the schema nodes that endpoints link to sit in their documents: a snapshot names each linked
// node by its JSON pointer (its place), so only those nodes' places are worked out, not every
// object's; and endpoints with their links swapped for what the snapshot stores instead.
import type { Endpoint, SchemaLink } from '../model/index.ts';
import { escapeToken } from '../import/pointer.ts';

/**
 * The schema nodes the endpoints link to without saying where they sit (`SchemaLink.pointer`), by
 * file: the only nodes whose place a snapshot must find by walking their document.
 */
export function linkNodesByFile(endpoints: readonly Endpoint[]): Map<string, Set<object>> {
  const out = new Map<string, Set<object>>();
  const add = (link: SchemaLink | undefined) => {
    if (!link || link.pointer !== undefined || link.node === null || typeof link.node !== 'object') return;
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
 * Top-level sections where the schemas endpoints link to sit (the operations' own, and the shared
 * parameters, responses and bodies they refer to), walked first: the walk stops once every wanted
 * object is met, so the rest of a large document (its schema and example components, often most
 * of it) is mostly never walked.
 */
const LINKED_FIRST = new Set(['paths', 'webhooks', 'x-ms-paths', 'parameters', 'responses', 'components']);
/** Within `components`, the same (schemas and examples last). */
const LINKED_FIRST_COMPONENTS = new Set(['parameters', 'responses', 'requestBodies', 'pathItems', 'headers']);

/**
 * The JSON pointer of each `wanted` object of a document (how a link names its node): the place
 * where a depth-first walk first meets it (an object of a parsed JSON document has one place; a
 * YAML alias can give it several, each of which holds the same object). The walk keeps, per object
 * met, only its parent and key, and writes a pointer for the wanted ones alone; it stops once every
 * wanted object is met (a later meeting never changes a pointer), and it walks the sections where
 * linked schemas sit first (`LINKED_FIRST`). Writing a pointer for every object of a large
 * document was most of an encode's time and memory.
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
  // Sections walked only once the stack is empty (see LINKED_FIRST).
  const later: [object, number, string][] = [];
  while (nodes.length > 0 || later.length > 0) {
    if (nodes.length === 0) {
      for (const [n, f, k] of later.splice(0).reverse()) {
        nodes.push(n);
        from.push(f);
        via.push(k);
      }
    }
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
      // At the top (and in `components`), the sections where linked schemas sit are walked
      // first, the others once those are done.
      const first = record === 0 ? LINKED_FIRST : parent === 0 && key === 'components' ? LINKED_FIRST_COMPONENTS : undefined;
      for (const k in node) {
        const v = (node as Record<string, unknown>)[k];
        if (v === null || typeof v !== 'object') continue;
        if (first && !first.has(k)) {
          later.push([v, record, k]);
          continue;
        }
        nodes.push(v);
        from.push(record);
        via.push(k);
      }
    }
  }
}

/**
 * The endpoint with every schema link passed through `fn` (a copy where links are; the rest shared).
 * For an endpoint as imported: a decoded `StoredEndpoint` keeps id, description and source on its
 * prototype, which the spread below would drop. With `copies`, a parameter, body content or
 * response the importer shares between endpoints is copied (and `fn` called for its link) once,
 * and the copy is shared likewise: `fn` must give the same for the same link.
 */
export function mapLinks<L>(e: Endpoint, fn: (link: SchemaLink) => L, copies?: Map<object, object>): Endpoint {
  const hasLinks = e.parameters.some((p) => p.schema) || e.requestBody?.contents.some((c) => c.schema) || e.responses.some((r) => r.schema);
  if (!hasLinks) return e;
  const swap = <T extends { readonly schema?: SchemaLink }>(x: T): T => {
    if (!x.schema) return x;
    let copy = copies?.get(x) as T | undefined;
    if (copy === undefined) {
      copy = { ...x, schema: fn(x.schema) as unknown as SchemaLink };
      copies?.set(x, copy);
    }
    return copy;
  };
  return {
    ...e,
    parameters: e.parameters.map(swap),
    ...(e.requestBody ? { requestBody: { ...e.requestBody, contents: e.requestBody.contents.map(swap) } } : {}),
    responses: e.responses.map(swap),
  };
}
