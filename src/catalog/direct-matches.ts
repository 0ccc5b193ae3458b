// Endpoints a query names outright, before any text ranking: a path (`GET /pets/{id}`, `/pulls`),
// or an endpoint's summary or operationId word for word.
import { type Entry, normalizePath } from './search.ts';
import { KeyTable, hashKey } from './key-table.ts';
import { type SpecState, exactKeysOf, lastTwo } from './spec-state.ts';

/**
 * Endpoints whose path is one the query names: exact matches, then tail matches (`/pulls`); with
 * a method named, that method's go first and the others follow as near misses; within each group,
 * paths written as the query writes them (placeholder names and all) first. Only the first `limit`
 * are asked for, so the walk over the specs stops once the leading group (exact matches, of the
 * named method if any) holds `limit`: a path written as typed in a spec past that point is not
 * looked for. (Looking for it in every spec built every spec's path maps on the first path query:
 * 306 ms at hub scale against 77 ms; a catalogue-wide table of paths as written would find it.)
 */
export function pathMatches(states: readonly SpecState[], paths: readonly string[], accept: (entry: Entry) => boolean, limit: number, method?: string): Entry[] {
  // Groups in the order they are returned: [exact, tail], or with a method
  // [exact of the method, tail of the method, other exact, other tail].
  const groups: Entry[][] = method ? [[], [], [], []] : [[], []];
  const lead = groups[0]!;
  // A path the query writes character for character goes first within its group (see below).
  const typed = new Set(paths);
  const literal = (e: Entry) => (typed.has(e.endpoint.path) ? 0 : 1);
  for (const raw of paths) {
    const want = normalizePath(raw);
    const last = want.slice(want.lastIndexOf('/') + 1);
    // `/pulls` looks up its one segment; `/customers/{id}` its last two (a lone `{}` matches too much).
    // Stryker disable next-line ConditionalExpression: speed only (the last segment's entries hold the last two's, and the checks below keep the same ones in the same order)
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
  // Within a group, a path the query writes character for character (`/users/{user_gid}`, beside
  // another API's `/users/{user_id}`) is the one pasted, and goes first.
  return groups.flatMap((g) => g.sort((a, b) => literal(a) - literal(b))).slice(0, limit);
}

/**
 * Every spec's exact summaries and operationIds in one table, for a search over the whole
 * catalogue: one look-up per query where asking each spec cost a look-up per spec (2,600 at hub
 * scale). A table's value is an entry's place in the catalogue (spec order, then document order),
 * so matches come in the order asking spec by spec gave.
 */
export class ExactTable {
  /** Every spec's entries, one after the other in catalogue order. */
  // Stryker disable next-line ArrayDeclaration: places are counted from the entries held, so an extra first one shifts every place and its look-up alike
  readonly #entries: Entry[] = [];
  readonly #table: KeyTable;

  constructor(states: readonly SpecState[]) {
    const entries = this.#entries;
    // Each spec's table with its entries' places shifted to where they sit in the whole: no key
    // is worked out again (that took about 100 ms for a spec of 20,000 endpoints, at the first search after a swap).
    // Stryker disable next-line ArrayDeclaration: a stray first part holds no pair a key can hash to
    const parts: Float64Array[] = [];
    for (const state of states) {
      parts.push(state.exactTable.shifted(entries.length));
      for (const entry of state.entries) entries.push(entry);
    }
    const all = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    this.#table = new KeyTable(all);
  }

  /** Entries whose summary or operationId is `key` (an `exactKey`), accepted by `accept`. */
  matches(key: string, accept: (e: Entry) => boolean): Entry[] {
    const out: Entry[] = [];
    // Entries whose key hashes as `key` does; the keys are worked out again to check.
    for (const i of this.#table.candidatesOfHash(hashKey(key))) {
      const entry = this.#entries[i]!;
      if (exactKeysOf(entry).includes(key) && accept(entry)) out.push(entry);
    }
    return out;
  }
}

/**
 * Entries of `states` whose summary or operationId is, word for word, the query (`key`: its
 * `exactKey`). `whole`: the catalogue's table, when `states` is every spec of it.
 */
export function exactMatches(states: readonly SpecState[], key: string, accept: (e: Entry) => boolean, whole?: ExactTable): Entry[] {
  // Stryker disable next-line ConditionalExpression: speed only (no entry is filed under an empty key)
  if (!key) return [];
  // Stryker disable next-line ConditionalExpression: speed only (the whole table answers as asking spec by spec: test/catalog/direct-matches)
  if (whole) return whole.matches(key, accept);
  const out: Entry[] = [];
  const hash = hashKey(key);
  for (const state of states) for (const entry of state.exact(key, hash) ?? []) if (accept(entry)) out.push(entry);
  return out;
}
