// What an update changed in one spec: endpoints added, removed, and changed (same id, different
// content). Where an endpoint sits in its file (`source`) is not content: inserting a line above
// an operation moves it without changing it.
import type { Endpoint } from '../model/endpoint.ts';

export interface EndpointDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

export const NO_DIFF: EndpointDiff = { added: [], removed: [], changed: [] };

export function diffEndpoints(before: readonly Endpoint[], after: readonly Endpoint[]): EndpointDiff {
  const old = new Map<string, Endpoint>();
  for (const e of before) old.set(e.id, e);
  const added: string[] = [];
  const changed: string[] = [];
  const kept = new Set<string>();
  for (const e of after) {
    const prev = old.get(e.id);
    if (!prev) {
      added.push(e.id);
      continue;
    }
    kept.add(e.id);
    if (prev !== e && fingerprint(prev) !== fingerprint(e)) changed.push(e.id);
  }
  const removed = before.filter((e) => !kept.has(e.id)).map((e) => e.id);
  return { added, removed, changed };
}

/** Everything an LLM can see of an endpoint, as one comparable string. */
function fingerprint(e: Endpoint): string {
  const { source: _source, ...content } = e;
  return JSON.stringify(content, dropSchemaFiles);
}

// Schema links carry the absolute file they resolve against; the content is what matters.
function dropSchemaFiles(this: unknown, key: string, value: unknown): unknown {
  return key === 'file' && this !== null && typeof this === 'object' && 'node' in this ? undefined : value;
}
