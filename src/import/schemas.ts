// On-demand schema resolution (SchemaResolver): follows `$ref`s of one schema into plain JSON,
// marking cycles `{ $circular: ref }` instead of expanding them. Nothing is resolved at import time.
import type { SchemaLink } from '../model/endpoint.ts';
import type { ResolvedSchema, SchemaResolver } from '../model/spec.ts';
import { refOf, type DocumentSet } from './documents.ts';

const DEFAULT_MAX_DEPTH = 64;
/** Upper bound on nodes produced by one `resolve`, so a wide schema graph (Stripe) cannot explode. */
const MAX_NODES = 50_000;

export class DocumentSchemaResolver implements SchemaResolver {
  readonly #docs: DocumentSet;

  constructor(docs: DocumentSet) {
    this.#docs = docs;
  }

  /** The parsed documents links point into (a snapshot stores them for later look-ups). */
  get documents(): DocumentSet {
    return this.#docs;
  }

  shallow(link: SchemaLink): SchemaLink {
    const target = this.#docs.deref(link.node, link.file, '');
    return target.ok ? { file: target.file, node: target.node } : link;
  }

  resolve(link: SchemaLink, options?: { maxDepth?: number }): ResolvedSchema {
    const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
    const docs = this.#docs;
    let budget = MAX_NODES;
    // Refs being expanded on the current path (file#pointer): meeting one again is a cycle.
    const active = new Set<string>();

    const walk = (node: unknown, file: string, depth: number): unknown => {
      if (node === null || typeof node !== 'object') return node;
      if (--budget < 0) return { $truncated: refOf(node) ?? 'size limit' };
      const ref = refOf(node);
      if (ref !== undefined) {
        const target = docs.lookup(ref, file);
        if (!target.ok) return { $unresolved: ref, reason: target.message };
        const key = `${target.file}#${target.pointer}`;
        if (active.has(key)) return { $circular: ref };
        if (depth >= maxDepth) return { $truncated: ref };
        active.add(key);
        const out = walk(target.node, target.file, depth + 1);
        active.delete(key);
        // OpenAPI 3.1 allows siblings next to $ref (description, nullable...): keep them on top.
        const keys = Object.keys(node as object);
        if (keys.length > 1 && out !== null && typeof out === 'object' && !Array.isArray(out)) {
          const merged: Record<string, unknown> = { ...(out as Record<string, unknown>) };
          for (const k of keys) if (k !== '$ref') merged[k] = walk((node as Record<string, unknown>)[k], file, depth + 1);
          return merged;
        }
        return out;
      }
      if (depth >= maxDepth) return { $truncated: 'depth' };
      if (Array.isArray(node)) return node.map((v) => walk(v, file, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) out[k] = walk(v, file, depth + 1);
      return out;
    };

    return walk(link.node, link.file, 0);
  }
}
