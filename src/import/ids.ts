// Endpoint ids must be unique within a spec. Two endpoints with the same method and path
// (Postman duplicates, `paths` vs `x-ms-paths`) keep document order: the first gets the plain id,
// later ones `#2`, `#3`, ... so every id stays stable while the document's order does.
import { endpointId, type HttpMethod } from '../model/endpoint.ts';

export class EndpointIds {
  readonly #seen = new Map<string, number>();

  /** The next unique id for `method path` in this spec. */
  next(spec: string, method: HttpMethod, path: string): string {
    const base = endpointId(spec, method, path);
    const count = (this.#seen.get(base) ?? 0) + 1;
    this.#seen.set(base, count);
    if (count === 1) return base;
    // A suffixed id could itself collide with a literal path ending in `#2`: keep counting until free.
    let n = count;
    let id = `${base}#${n}`;
    while (this.#seen.has(id)) id = `${base}#${++n}`;
    this.#seen.set(id, 1);
    return id;
  }
}

/** Give each id-less item a unique id in document order (for importers that build endpoints first). */
export function uniqueIds<T extends { method: HttpMethod; path: string }>(spec: string, items: readonly T[]): string[] {
  const ids = new EndpointIds();
  return items.map((it) => ids.next(spec, it.method, it.path));
}
