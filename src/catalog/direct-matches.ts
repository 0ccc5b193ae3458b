// Endpoints a query names outright, before any text ranking: a path (`GET /pets/{id}`, `/pulls`),
// or an endpoint's summary or operationId word for word.
import { type Entry, normalizePath } from './search.ts';
import { KeyTable, hashKey } from './key-table.ts';
import { type SpecState, exactKeysOf, pathKey } from './spec-state.ts';

/**
 * Endpoints whose path is one the query names: exact matches, then tail matches (`/pulls`); with
 * a method named, that method's go first and the others follow as near misses; within each group,
 * paths written as the query writes them (placeholder names and all) first, then catalogue order;
 * the first `limit`. A path is looked up by its key (`pathKey`): only the endpoints filed under it
 * are looked at, in every spec searched, so a path written as typed is found in whichever spec
 * holds it. `whole`: the catalogue's table, when `states` is every spec of it.
 */
export function pathMatches(states: readonly SpecState[], paths: readonly string[], accept: (entry: Entry) => boolean, limit: number, method?: string, whole?: WholeTables): Entry[] {
  // Groups in the order they are returned: [exact, tail], or with a method
  // [exact of the method, tail of the method, other exact, other tail].
  const groups: Entry[][] = method ? [[], [], [], []] : [[], []];
  // A path the query writes character for character goes first within its group (see below).
  const typed = new Set(paths);
  const literal = (e: Entry) => (typed.has(e.endpoint.path) ? 0 : 1);
  for (const raw of paths) {
    const want = normalizePath(raw);
    const key = pathKey(want);
    const filed = whole ? whole.underPathKey(key) : states.flatMap((state) => state.underPathKey(key));
    for (const entry of filed) {
      if (!accept(entry)) continue;
      const have = normalizePath(entry.endpoint.path);
      const kind = have === want ? 0 : have.endsWith(want) ? 1 : -1;
      if (kind < 0) continue;
      groups[method && entry.endpoint.method !== method ? kind + 2 : kind]!.push(entry);
    }
  }
  // Within a group, a path the query writes character for character (`/users/{user_gid}`, beside
  // another API's `/users/{user_id}`) is the one pasted, and goes first.
  return groups.flatMap((g) => g.sort((a, b) => literal(a) - literal(b))).slice(0, limit);
}

/**
 * Every spec's key tables (exact summaries and operationIds; path keys) as one table each, for a
 * search over the whole catalogue: one look-up per query where asking each spec cost a look-up
 * per spec (2,600 at hub scale). A table's value is an entry's place in the catalogue (spec
 * order, then document order), so matches come in the order asking spec by spec gave. Each table
 * is built on its first look-up.
 */
export class WholeTables {
  readonly #states: readonly SpecState[];
  /** Every spec's entries, one after the other in catalogue order (built with the first table). */
  #entries: Entry[] | undefined;
  #exact: KeyTable | undefined;
  #paths: KeyTable | undefined;

  constructor(states: readonly SpecState[]) {
    this.#states = states;
  }

  /** Entries whose summary or operationId is `key` (an `exactKey`), accepted by `accept`. */
  exactMatches(key: string, accept: (e: Entry) => boolean): Entry[] {
    const out: Entry[] = [];
    // Entries whose key hashes as `key` does; the keys are worked out again to check.
    for (const entry of this.#filed((this.#exact ??= this.#whole((s) => s.exactTable)), key)) {
      if (exactKeysOf(entry).includes(key) && accept(entry)) out.push(entry);
    }
    return out;
  }

  /** Entries whose path key hashes as `key` (a `pathKey`) does, in catalogue order: the caller checks the paths. */
  underPathKey(key: string): Entry[] {
    return this.#filed((this.#paths ??= this.#whole((s) => s.pathTable)), key);
  }

  #filed(table: KeyTable, key: string): Entry[] {
    const entries = this.#entries!;
    return table.candidatesOfHash(hashKey(key)).map((i) => entries[i]!);
  }

  /** The specs' tables as one, with each spec's entries' places shifted to where they sit in the whole. */
  #whole(tableOf: (state: SpecState) => KeyTable): KeyTable {
    // The entries are gathered with the first table; the second counts places the same way.
    const gathered = this.#entries;
    // Stryker disable next-line ArrayDeclaration: places are counted from the entries held, so an extra first one shifts every place and its look-up alike
    const entries: Entry[] = gathered ?? [];
    // No key is worked out again (that took about 100 ms for a spec of 20,000 endpoints, at the first search after a swap).
    let size = 0;
    for (const state of this.#states) size += tableOf(state).size;
    const all = new Float64Array(size);
    let at = 0;
    let offset = 0;
    for (const state of this.#states) {
      const table = tableOf(state);
      table.copyShifted(all, at, offset);
      at += table.size;
      offset += state.entries.length;
      // Stryker disable next-line ConditionalExpression: speed only (gathered again, the copies sit past every place a table holds)
      if (!gathered) for (const entry of state.entries) entries.push(entry);
    }
    this.#entries = entries;
    return new KeyTable(all);
  }
}

/**
 * Entries of `states` whose summary or operationId is, word for word, the query (`key`: its
 * `exactKey`). `whole`: the catalogue's table, when `states` is every spec of it.
 */
export function exactMatches(states: readonly SpecState[], key: string, accept: (e: Entry) => boolean, whole?: WholeTables): Entry[] {
  // Stryker disable next-line ConditionalExpression: speed only (no entry is filed under an empty key)
  if (!key) return [];
  // Stryker disable next-line ConditionalExpression: speed only (the whole table answers as asking spec by spec: test/catalog/direct-matches)
  if (whole) return whole.exactMatches(key, accept);
  const out: Entry[] = [];
  const hash = hashKey(key);
  for (const state of states) for (const entry of state.exact(key, hash) ?? []) if (accept(entry)) out.push(entry);
  return out;
}
