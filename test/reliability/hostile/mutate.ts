// Mutations of real API descriptions for property-based fuzzing: structural edits on the parsed
// document (delete, retype, graft, hostile $ref) and byte-level edits on its text (truncate, flip,
// splice). fast-check picks the mutations; this module applies them deterministically.
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';

export type Path = readonly (string | number)[];

export type StructuralMutation =
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'replace'; readonly at: number; readonly value: unknown }
  | { readonly kind: 'graft'; readonly at: number; readonly from: number }
  | { readonly kind: 'ref'; readonly at: number; readonly ref: string }
  | { readonly kind: 'rename'; readonly at: number; readonly key: string };

export type TextMutation =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'flip'; readonly at: number; readonly byte: number }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'cut'; readonly at: number; readonly length: number };

export interface FuzzCase {
  readonly seed: number;
  readonly structural: readonly StructuralMutation[];
  readonly text: readonly TextMutation[];
  readonly yaml: boolean;
}

export function hostileRefs(canaryUrl: string): string[] {
  return ['#', '#/', '#/paths', '#/components/schemas/Missing', '../../../../etc/passwd', '/etc/passwd', 'file:///etc/passwd', `${canaryUrl}/fuzz.yaml`, 'http://169.254.169.254/', './missing.yaml#/x', '#/definitions/~2bad', '%00', ''];
}

/** Values of every JSON type, with a bias to the shapes importers meet and mishandle. */
const weirdValue = fc.oneof(
  fc.constantFrom(null, '', 0, -1, true, [], {}, 'get', '/x/{y}', '{', 'x'.repeat(1000), '\u0000', '\u202e', NaN),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

export function fuzzCaseArbitrary(seeds: number, canaryUrl: string): fc.Arbitrary<FuzzCase> {
  const at = fc.nat();
  const structural: fc.Arbitrary<StructuralMutation> = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at }),
    fc.record({ kind: fc.constant('replace' as const), at, value: weirdValue }),
    fc.record({ kind: fc.constant('graft' as const), at, from: fc.nat() }),
    fc.record({ kind: fc.constant('ref' as const), at, ref: fc.oneof(fc.constantFrom(...hostileRefs(canaryUrl)), fc.string({ maxLength: 20 })) }),
    fc.record({ kind: fc.constant('rename' as const), at, key: fc.oneof(fc.constantFrom('$ref', 'get', 'parameters', 'in', 'paths', 'item', 'request', 'url', 'openapi', 'swagger', '__proto__', 'constructor'), fc.string({ maxLength: 12 })) }),
  );
  const text: fc.Arbitrary<TextMutation> = fc.oneof(
    fc.record({ kind: fc.constant('truncate' as const), at }),
    fc.record({ kind: fc.constant('flip' as const), at, byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('insert' as const), at, text: fc.oneof(fc.constantFrom('{', '}', '[', ']', ':', '&a', '*a', '!!binary', '- ', '"', '\n  ', '<<: *a', '\t', ',', '\\u0000'), fc.string({ maxLength: 10 })) }),
    fc.record({ kind: fc.constant('cut' as const), at, length: fc.integer({ min: 1, max: 200 }) }),
  );
  return fc.record({
    seed: fc.integer({ min: 0, max: Math.max(0, seeds - 1) }),
    structural: fc.array(structural, { minLength: 0, maxLength: 6 }),
    // Text edits are the rarer kind: most runs should still parse and reach the importer proper.
    text: fc.oneof({ weight: 3, arbitrary: fc.constant([] as TextMutation[]) }, { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 3 }) }),
    yaml: fc.boolean(),
  });
}

/** Every node path in `doc`, breadth first, at most `max` of them. */
export function nodePaths(doc: unknown, max = 5000): Path[] {
  const out: Path[] = [[]];
  const queue: [unknown, Path][] = [[doc, []]];
  while (queue.length > 0 && out.length < max) {
    const [node, path] = queue.shift()!;
    if (node === null || typeof node !== 'object') continue;
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [k, v] of entries) {
      const p = [...path, k];
      out.push(p);
      if (out.length >= max) break;
      queue.push([v, p]);
    }
  }
  return out;
}

function get(doc: unknown, path: Path): unknown {
  let node = doc;
  for (const k of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[k];
  }
  return node;
}

function parentOf(doc: unknown, path: Path): { parent: Record<string | number, unknown> | unknown[]; key: string | number } | undefined {
  if (path.length === 0) return undefined;
  const parent = get(doc, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return undefined;
  return { parent: parent as Record<string | number, unknown>, key: path[path.length - 1]! };
}

/** Applies structural mutations to a copy of `seed`; returns the mutated document. */
export function mutateDocument(seed: unknown, mutations: readonly StructuralMutation[]): unknown {
  let doc = structuredClone(seed);
  for (const m of mutations) {
    const paths = nodePaths(doc, 5000);
    const path = paths[m.at % paths.length]!;
    const place = parentOf(doc, path);
    switch (m.kind) {
      case 'delete':
        if (!place) doc = {};
        else if (Array.isArray(place.parent)) place.parent.splice(Number(place.key), 1);
        else delete place.parent[place.key];
        break;
      case 'replace':
        if (!place) doc = m.value;
        else (place.parent as Record<string | number, unknown>)[place.key] = m.value;
        break;
      case 'graft': {
        const from = structuredClone(get(doc, paths[m.from % paths.length]!));
        if (place) (place.parent as Record<string | number, unknown>)[place.key] = from;
        break;
      }
      case 'ref':
        if (place) (place.parent as Record<string | number, unknown>)[place.key] = { $ref: m.ref };
        break;
      case 'rename':
        if (place && !Array.isArray(place.parent)) {
          const value = place.parent[place.key];
          delete place.parent[place.key];
          Object.defineProperty(place.parent, m.key, { value, enumerable: true, configurable: true, writable: true });
        }
        break;
    }
  }
  return doc;
}

/** Serializes and applies text mutations. */
export function renderCase(doc: unknown, c: Pick<FuzzCase, 'text' | 'yaml'>): Buffer {
  let text: string;
  try {
    text = c.yaml ? toYaml(doc, { aliasDuplicateObjects: false, lineWidth: 0 }) : JSON.stringify(doc, null, 1);
  } catch {
    text = JSON.stringify(doc) ?? 'null';
  }
  let bytes = Buffer.from(text ?? 'null', 'utf8');
  for (const m of c.text) {
    const at = bytes.length === 0 ? 0 : m.at % bytes.length;
    switch (m.kind) {
      case 'truncate':
        bytes = bytes.subarray(0, at);
        break;
      case 'flip':
        if (bytes.length > 0) {
          bytes = Buffer.from(bytes);
          bytes[at] = m.byte;
        }
        break;
      case 'insert':
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.text), bytes.subarray(at)]);
        break;
      case 'cut':
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
        break;
    }
  }
  return bytes;
}
