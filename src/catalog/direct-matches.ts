// Endpoints a query names outright, before any text ranking: a path (`GET /pets/{id}`, `/pulls`),
// or an endpoint's summary or operationId word for word.
import { type Entry, normalizePath } from './search.ts';
import { hashKey } from './key-table.ts';
import { type SpecState, lastTwo } from './spec-state.ts';

/**
 * Endpoints whose path is one the query names: exact matches, then tail matches (`/pulls`); with
 * a method named, that method's go first and the others follow as near misses. Only the first
 * `limit` are asked for, so the walk over the specs stops once they are certain: when the
 * leading group (exact matches, of the named method if any) already holds `limit`.
 */
export function pathMatches(states: readonly SpecState[], paths: readonly string[], accept: (entry: Entry) => boolean, limit: number, method?: string): Entry[] {
  // Groups in the order they are returned: [exact, tail], or with a method
  // [exact of the method, tail of the method, other exact, other tail].
  const groups: Entry[][] = method ? [[], [], [], []] : [[], []];
  const lead = groups[0]!;
  for (const raw of paths) {
    const want = normalizePath(raw);
    const last = want.slice(want.lastIndexOf('/') + 1);
    // `/pulls` looks up its one segment; `/customers/{id}` its last two (a lone `{}` matches too much).
    const deep = want.split('/').length > 2;
    const key = deep ? lastTwo(want) : last;
    for (const state of states) {
      if (lead.length >= limit) break;
      for (const entry of (deep ? state.byLastTwo.get(key) : state.byLastSegment.get(key)) ?? []) {
        if (!accept(entry)) continue;
        const have = normalizePath(entry.endpoint.path);
        const kind = have === want ? 0 : have.endsWith(want) ? 1 : -1;
        if (kind < 0) continue;
        groups[method && entry.endpoint.method !== method ? kind + 2 : kind]!.push(entry);
      }
    }
  }
  return groups.flat().slice(0, limit);
}

/** Entries of `states` whose summary or operationId is, word for word, the query (`key`: its `exactKey`). */
export function exactMatches(states: readonly SpecState[], key: string, accept: (e: Entry) => boolean): Entry[] {
  if (!key) return [];
  const out: Entry[] = [];
  const hash = hashKey(key);
  for (const state of states) for (const entry of state.exact(key, hash) ?? []) if (accept(entry)) out.push(entry);
  return out;
}
