// One spec's state in the catalogue: its entries, exact-match keys and lazily built path look-ups,
// and its search index; prepared ahead of `Catalog.replace` (from an index image when a snapshot
// has one, in steps when the daemon asks) so the swap itself stays short.
import type { Endpoint, ImportedSpec } from '../model/index.ts';
import { KeyTable, hashKey, hashed } from './key-table.ts';
import { type Entry, type IndexImage, type PathCache, SearchIndex, exactKey, makeEntry, normalizePath } from './search.ts';
import { specNameTerms } from './spec-names.ts';

/**
 * Specs made ready ahead of `replace` (see `prepareSpec`), so the swap itself stays short. Weak:
 * a spec dropped before it was served takes its state along.
 */
const PREPARED = new WeakMap<ImportedSpec, SpecState>();

/** The state prepared for `spec`, once: a prepared state serves one catalogue, another builds its own. */
export function takePrepared(spec: ImportedSpec): SpecState | undefined {
  const state = PREPARED.get(spec);
  PREPARED.delete(spec);
  return state;
}

/**
 * Builds what `replace` will need for `spec` now: its listings and its index, restored from
 * `image` (made by `indexImage` over the same endpoints) when given, else built. The daemon calls
 * this spec by spec, between other work, so that `replace` of a large catalogue does not hold
 * the thread for long.
 */
export function prepareSpec(spec: ImportedSpec, image?: IndexImage): void {
  if (!PREPARED.has(spec)) PREPARED.set(spec, new SpecState(spec, image));
}

/**
 * `prepareSpec` in steps, awaiting `pause` between them (a few milliseconds of work each), with
 * the index loaded into MiniSearch ahead of the first search (unless `preload` is false: at
 * start, a spec's index loads on the first search that reaches it): what the daemon does for a
 * spec, while it keeps answering.
 */
export async function prepareSpecInSteps(spec: ImportedSpec, image: IndexImage, pause: () => Promise<void>, preload = true, facts?: EntryFacts): Promise<void> {
  if (PREPARED.has(spec)) return;
  let collected: Collected;
  if (facts) collected = collectedFromFacts(spec, facts);
  else {
    const steps = collect(spec);
    let r = steps.next();
    while (!r.done) {
      await pause();
      r = steps.next();
    }
    collected = r.value;
  }
  await pause();
  const state = new SpecState(spec, image, collected);
  if (preload) await state.index.preload();
  PREPARED.set(spec, state);
}

/** Builds the search index of one spec as the catalogue would, as plain data (for a worker or a snapshot). */
export function indexImage(spec: ImportedSpec): IndexImage {
  return new SpecState(spec).index.image();
}

/**
 * What `collect` works out for a spec's entries (path facts, verbs, hashed ids and exact-match
 * keys), as plain data a snapshot keeps: a start from it then skips the text work, about two
 * thirds of preparing a spec. Made by this code, so the same as `collect` would make again (a
 * snapshot's key holds the build).
 */
export interface EntryFacts {
  /** The entries' word lists (resources, verbs, path words), each distinct list once. */
  readonly lists: readonly (readonly string[])[];
  /** Per entry, five numbers: its endpoint's place in the spec, item (1) or not (0), its resource, verbs and path words (places in `lists`). */
  readonly rows: readonly number[];
  /** The hashed ids, exact-match keys and path keys (see `collect`). */
  readonly ids: readonly number[];
  readonly exact: readonly number[];
  readonly pathKeys: readonly number[];
}

/** `indexImage` and the entry facts of one spec, from one pass over its endpoints. */
export function specImage(spec: ImportedSpec): { index: IndexImage; facts: EntryFacts } {
  const collected = runSteps(collect(spec));
  return { index: new SpecState(spec, undefined, collected).index.image(), facts: factsOf(spec, collected) };
}

function factsOf(spec: ImportedSpec, collected: Collected): EntryFacts {
  const place = new Map(spec.endpoints.map((e, i) => [e, i]));
  // Lists equal in content are one array already (`leanEntry`): numbered by identity.
  const lists: (readonly string[])[] = [];
  const numbers = new Map<readonly string[], number>();
  const number = (list: readonly string[]): number => {
    let n = numbers.get(list);
    if (n === undefined) numbers.set(list, (n = lists.push(list) - 1));
    return n;
  };
  const rows: number[] = [];
  for (const e of collected.entries) rows.push(place.get(e.endpoint)!, e.item ? 1 : 0, number(e.resource), number(e.verbs), number(e.pathWords));
  return { lists, rows, ids: Array.from(collected.ids), exact: Array.from(collected.exact), pathKeys: Array.from(collected.pathKeys) };
}

/** What `collect` would make, from `facts` (throws when they do not fit the spec: a damaged snapshot). */
function collectedFromFacts(spec: ImportedSpec, facts: EntryFacts): Collected {
  const { lists, rows, ids, exact, pathKeys } = facts;
  if (!Array.isArray(lists) || !Array.isArray(rows) || rows.length % 5 !== 0 || !Array.isArray(ids) || ids.length !== rows.length / 5 || !Array.isArray(exact) || !Array.isArray(pathKeys) || pathKeys.length !== ids.length) {
    throw new Error('entry facts do not agree with the spec');
  }
  const list = (n: number | undefined): readonly string[] => {
    const l = lists[n!];
    if (!Array.isArray(l)) throw new Error('entry facts name a word list they do not hold');
    return l;
  };
  const entries: Entry[] = [];
  for (let r = 0; r < rows.length; r += 5) {
    const endpoint = spec.endpoints[rows[r]!];
    if (!endpoint) throw new Error('entry facts name an endpoint the spec does not have');
    const position = entries.length;
    entries.push({ endpoint, doc: position + 1, position, item: rows[r + 1] === 1, resource: list(rows[r + 2]), verbs: list(rows[r + 3]) as Entry['verbs'], pathWords: list(rows[r + 4]) });
  }
  return fromEntries(entries, ids, exact, pathKeys, new Map());
}

/** The entries with what is worked out from them alone: the id lookup, the tags, the deprecated count. */
function fromEntries(entries: Entry[], ids: readonly number[], exact: readonly number[], pathKeys: readonly number[], paths: PathCache): Collected {
  const byTag = new Map<string, Endpoint[]>();
  let deprecated = 0;
  for (const { endpoint } of entries) {
    if (endpoint.deprecated) deprecated++;
    // Each tag once, in order (a tag list is short: no Set per endpoint to drop it again).
    const tags = endpoint.tags;
    for (let i = 0; i < tags.length; i++) if (tags.indexOf(tags[i]!) === i) push(byTag, tags[i]!, endpoint);
  }
  const idNumbers = Float64Array.from(ids);
  return { entries, ids: idNumbers, byId: new EntriesById(entries, idNumbers), byTag, deprecated, paths, exact: Float64Array.from(exact), pathKeys: Float64Array.from(pathKeys) };
}

/** One spec as the catalogue holds it: built once per spec object, reused while that object is passed again. */
export class SpecState {
  readonly spec: ImportedSpec;
  readonly entries: readonly Entry[];
  readonly endpoints: readonly Endpoint[];
  readonly byId: IdLookup;
  readonly byTag: ReadonlyMap<string, readonly Endpoint[]>;
  /** Path look-ups for suggestions, built on the first one (most specs never need them). */
  #paths: PathMaps | undefined;
  readonly deprecated: number;
  /** This spec's own full-text index. */
  readonly index: SearchIndex;
  /** Place in the catalogue's spec order (set on every `replace`): breaks ties between equal hits. */
  position = 0;
  /** Terms a query may name this spec by (its name, title, host, collection). */
  readonly names: ReadonlySet<string>;
  /** Exact summaries and operationIds (`exactKey`) -> entries' positions (keys worked out in `collect`'s steps). */
  readonly exactTable: KeyTable;
  /** Each entry's path key (`pathKey` of its normalized path) -> its position: what a query naming a path looks up. */
  readonly pathTable: KeyTable;

  constructor(spec: ImportedSpec, image?: IndexImage, collected?: Collected) {
    this.spec = spec;
    const { entries, byId, byTag, deprecated, paths, exact, pathKeys } = collected ?? runSteps(collect(spec));
    this.exactTable = new KeyTable(exact);
    this.pathTable = new KeyTable(pathKeys);
    this.entries = entries;
    this.endpoints = entries.length === spec.endpoints.length ? spec.endpoints : entries.map((e) => e.endpoint);
    this.byId = byId;
    this.byTag = byTag;
    this.deprecated = deprecated;
    if (image) {
      this.index = SearchIndex.restore(entries, image);
    } else {
      this.index = new SearchIndex();
      this.index.add(entries, paths);
    }
    this.names = specNameTerms(spec);
  }

  /**
   * Entries whose summary or operationId is, word for word, `key` (an `exactKey`). A search asks
   * every spec with the same key, so the caller passes its hash once (`hashKey(key)`).
   */
  exact(key: string, hash: number = hashKey(key)): readonly Entry[] | undefined {
    // Entries whose key hashes as `key` does, in document order; the keys are worked out again to check.
    let out: Entry[] | undefined;
    for (const i of this.exactTable.candidatesOfHash(hash)) {
      const entry = this.entries[i]!;
      if (exactKeysOf(entry).includes(key)) (out ??= []).push(entry);
    }
    return out;
  }

  /** Normalized path (`/users/{}`) -> entries, for suggestions. */
  get byPath(): ReadonlyMap<string, readonly Entry[]> {
    return this.#pathMaps().byPath;
  }

  /** Last normalized segment (`pulls`, `{}`) -> entries, for suggestions. */
  get byLastSegment(): ReadonlyMap<string, readonly Entry[]> {
    return this.#pathMaps().byLastSegment;
  }

  /** Entries filed under `key` (a `pathKey`) in this spec, in document order. */
  underPathKey(key: string): Entry[] {
    return this.pathTable.candidates(key).map((i) => this.entries[i]!);
  }

  #pathMaps(): PathMaps {
    if (this.#paths) return this.#paths;
    const byPath = new Map<string, Entry[]>();
    const byLastSegment = new Map<string, Entry[]>();
    for (const entry of this.entries) {
      const norm = normalizePath(entry.endpoint.path);
      push(byPath, norm, entry);
      push(byLastSegment, norm.slice(norm.lastIndexOf('/') + 1), entry);
    }
    return (this.#paths = { byPath, byLastSegment });
  }
}

/** Endpoint id -> entry. */
export interface IdLookup {
  get(id: string): Entry | undefined;
}

/** `IdLookup` over a spec's entries, in a `KeyTable` (ids are unique within a spec: see `collect`). */
class EntriesById implements IdLookup {
  readonly #entries: readonly Entry[];
  readonly #table: KeyTable;

  /** `ids`: each entry's endpoint id with its position, `hashed` (an endpoint may make its id anew on each read: read once). */
  constructor(entries: readonly Entry[], ids: Float64Array) {
    this.#entries = entries;
    this.#table = new KeyTable(ids);
  }

  get(id: string): Entry | undefined {
    for (const i of this.#table.candidates(id)) {
      const entry = this.#entries[i]!;
      if (entry.endpoint.id === id) return entry;
    }
    return undefined;
  }
}

/** What a spec state is built from, collected in steps (`collect`) so a caller can pause between them. */
interface Collected {
  readonly entries: Entry[];
  /** Each entry's id with its position, `hashed`. */
  readonly ids: Float64Array;
  readonly byId: IdLookup;
  readonly byTag: Map<string, Endpoint[]>;
  readonly deprecated: number;
  readonly paths: PathCache;
  /** Each entry's exact-match keys with its position, `hashed`. */
  readonly exact: Float64Array;
  /** Each entry's path key with its position, `hashed`. */
  readonly pathKeys: Float64Array;
}

/** Endpoints per step of `collect` (about 5 ms of work on an idle machine). */
const STEP = 250;

function* collect(spec: ImportedSpec): Generator<void, Collected> {
  const entries: Entry[] = [];
  const ids: number[] = [];
  const seen = new Set<string>();
  const paths: PathCache = new Map();
  const lists: SharedLists = { byContent: new Map(), byIdentity: new Map() };
  const exact: number[] = [];
  const pathKeys: number[] = [];
  // A path's key once per path: its methods share it.
  const keyOfPath = new Map<string, string>();
  let n = 0;
  for (const endpoint of spec.endpoints) {
    if (++n % STEP === 0) yield;
    const id = endpoint.id;
    // Ids are unique by the importer's contract; a repeat would make `get` ambiguous, so the first wins.
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(hashed(id, entries.length));
    const entry = leanEntry(makeEntry(endpoint, entries.length + 1, entries.length, paths), lists);
    entries.push(entry);
    for (const k of exactKeysOf(entry)) if (k) exact.push(hashed(k, entry.position));
    let key = keyOfPath.get(endpoint.path);
    // Stryker disable next-line ConditionalExpression: speed only (the key is worked out again, the same)
    if (key === undefined) keyOfPath.set(endpoint.path, (key = pathKey(normalizePath(endpoint.path))));
    pathKeys.push(hashed(key, entry.position));
  }
  return fromEntries(entries, ids, exact, pathKeys, paths);
}

/** Word lists already made lean in one spec: by content, and by the list they were made from. */
interface SharedLists {
  readonly byContent: Map<string, readonly unknown[]>;
  /** Lists of one path's facts come again for each of its methods: known by identity, no key to make. */
  readonly byIdentity: Map<readonly unknown[], readonly unknown[]>;
}

/**
 * The entry with its word lists shared: equal lists (a resource, the path's words, the verbs)
 * are one array per spec, sized exactly (lists grown by push keep spare room: a one-word list
 * took 150 bytes).
 */
function leanEntry(entry: Entry, lists: SharedLists): Entry {
  const shared = <T>(list: readonly T[]): readonly T[] => {
    let kept = lists.byIdentity.get(list);
    if (kept) return kept as readonly T[];
    const key = list.join('\u0000');
    kept = lists.byContent.get(key);
    if (!kept) lists.byContent.set(key, (kept = list.slice()));
    lists.byIdentity.set(list, kept);
    return kept as readonly T[];
  };
  return { ...entry, resource: shared(entry.resource), pathWords: shared(entry.pathWords), verbs: shared(entry.verbs) };
}

function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

interface PathMaps {
  readonly byPath: ReadonlyMap<string, readonly Entry[]>;
  readonly byLastSegment: ReadonlyMap<string, readonly Entry[]>;
}

/**
 * The key a normalized path is filed under for paths named in queries: its last segment that is
 * not a placeholder (`/repos/{}/{}/pulls` and `/pulls`: `pulls`; `/customers/{}`: `customers`),
 * '' when it has none. A path that ends with another (`have.endsWith(want)`, `want` from a slash)
 * shares its key whenever `want` has a literal segment: its segments are the last ones of `have`.
 */
export function pathKey(normalized: string): string {
  let end = normalized.length;
  while (end > 0) {
    const start = normalized.lastIndexOf('/', end - 1);
    const segment = normalized.slice(start + 1, end);
    if (segment && segment !== '{}') return segment;
    end = start;
  }
  return '';
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The exact-match keys of an entry: its summary's and its operationId's `exactKey`. */
export function exactKeysOf(entry: Entry): string[] {
  const e = entry.endpoint;
  const keys: string[] = [];
  if (e.summary) keys.push(exactKey(e.summary));
  if (e.operationId) keys.push(exactKey(e.operationId));
  return keys;
}
