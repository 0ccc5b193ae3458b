// The endpoint catalogue: every imported spec in memory, listings precomputed, one shared search index.
// `replace` does all its work in one synchronous call, so a reader (JS being single-threaded) sees
// either the old catalogue or the new one, never a mix.
import type { Endpoint, ImportedSpec } from '../model/index.ts';
import { SvcError, parseEndpointId } from '../model/index.ts';
import type { ListFilter, SearchFilters, SearchHit, SpecSummary } from './index.ts';
import { type Entry, SearchIndex, makeEntry, normalizePath, parseQuery } from './search.ts';
import { editDistance, pathSimilarity } from './similar.ts';

/** One spec as the catalogue holds it: built once per spec object, reused while that object is passed again. */
class SpecState {
  readonly spec: ImportedSpec;
  readonly entries: readonly Entry[];
  readonly endpoints: readonly Endpoint[];
  readonly byId: ReadonlyMap<string, Entry>;
  readonly byTag: ReadonlyMap<string, readonly Endpoint[]>;
  /** Normalized path (`/users/{}`) -> entries, for paths named in queries and for suggestions. */
  readonly byPath: ReadonlyMap<string, readonly Entry[]>;
  /** Last normalized segment (`pulls`, `{}`) -> entries, for tail matches (`/pulls`). */
  readonly byLastSegment: ReadonlyMap<string, readonly Entry[]>;
  /** Last two normalized segments (`customers/{}`) -> entries: tail matches when the last is a placeholder. */
  readonly byLastTwo: ReadonlyMap<string, readonly Entry[]>;
  readonly deprecated: number;

  constructor(spec: ImportedSpec, nextDoc: () => number) {
    this.spec = spec;
    const entries: Entry[] = [];
    const byId = new Map<string, Entry>();
    const byTag = new Map<string, Endpoint[]>();
    const byPath = new Map<string, Entry[]>();
    const byLast = new Map<string, Entry[]>();
    const byLastTwo = new Map<string, Entry[]>();
    let deprecated = 0;
    for (const endpoint of spec.endpoints) {
      // Ids are unique by the importer's contract; a repeat would make `get` ambiguous, so the first wins.
      if (byId.has(endpoint.id)) continue;
      const entry = makeEntry(endpoint, nextDoc(), entries.length);
      entries.push(entry);
      byId.set(endpoint.id, entry);
      if (endpoint.deprecated) deprecated++;
      for (const tag of new Set(endpoint.tags)) push(byTag, tag, endpoint);
      const norm = normalizePath(endpoint.path);
      push(byPath, norm, entry);
      push(byLast, norm.slice(norm.lastIndexOf('/') + 1), entry);
      push(byLastTwo, lastTwo(norm), entry);
    }
    this.entries = entries;
    this.endpoints = entries.length === spec.endpoints.length ? spec.endpoints : entries.map((e) => e.endpoint);
    this.byId = byId;
    this.byTag = byTag;
    this.byPath = byPath;
    this.byLastSegment = byLast;
    this.byLastTwo = byLastTwo;
    this.deprecated = deprecated;
  }
}

function lastTwo(normalized: string): string {
  const segs = normalized.split('/');
  return segs.slice(-2).join('/');
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Listings derived from the current specs, computed on first use and dropped on `replace`. */
interface Views {
  all?: readonly Endpoint[];
  byCollection?: ReadonlyMap<string, readonly Endpoint[]>;
  byTag?: ReadonlyMap<string, readonly Endpoint[]>;
  collections?: ReturnType<Catalog['collections']>;
  summaries?: readonly SpecSummary[];
}

const EMPTY: readonly Endpoint[] = Object.freeze([]);
const DEFAULT_SEARCH_LIMIT = 10;
const DEFAULT_SUGGEST_LIMIT = 5;

export class Catalog {
  readonly #index = new SearchIndex();
  #states: readonly SpecState[] = [];
  #byName: ReadonlyMap<string, SpecState> = new Map();
  #specs: readonly ImportedSpec[] = [];
  #size = 0;
  #generation = 0;
  #nextDoc = 1;
  #views: Views = {};
  /** Spec name -> position in the catalogue, for source-order tie-breaks. */
  #specOrder: ReadonlyMap<string, number> = new Map();
  readonly #order = (entry: Entry): number => (this.#specOrder.get(entry.endpoint.spec) ?? 0) * 1e7 + entry.position;

  constructor(specs?: readonly ImportedSpec[]) {
    if (specs && specs.length > 0) this.replace(specs);
  }

  /** Increments on every `replace`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Swap in a new set of specs. Specs passed again as the same object keep their index entries;
   * only specs that are new, changed (a different object) or gone touch the search index.
   */
  replace(specs: readonly ImportedSpec[]): void {
    const seen = new Set<string>();
    for (const spec of specs) {
      if (seen.has(spec.name)) {
        throw new SvcError('catalog-duplicate-spec', `Two specs are named "${spec.name}": spec names must be unique.`, {
          hint: 'Give each spec its own name in svc.yaml.',
        });
      }
      seen.add(spec.name);
    }
    const next: SpecState[] = [];
    const added: SpecState[] = [];
    const kept = new Set<SpecState>();
    for (const spec of specs) {
      const old = this.#byName.get(spec.name);
      if (old && old.spec === spec) {
        next.push(old);
        kept.add(old);
      } else {
        const state = new SpecState(spec, () => this.#nextDoc++);
        next.push(state);
        added.push(state);
      }
    }
    const removed = this.#states.filter((s) => !kept.has(s));
    // One index update: if adding fails, the old catalogue is still whole; unchanged endpoints of a
    // re-imported spec keep their documents.
    this.#index.update(
      added.flatMap((s) => s.entries),
      removed.flatMap((s) => s.entries),
    );
    this.#states = next;
    this.#byName = new Map(next.map((s) => [s.spec.name, s]));
    this.#specOrder = new Map(next.map((s, i) => [s.spec.name, i]));
    this.#specs = next.map((s) => s.spec);
    this.#size = next.reduce((sum, s) => sum + s.entries.length, 0);
    this.#views = {};
    this.#generation++;
  }

  specs(): readonly ImportedSpec[] {
    return this.#specs;
  }

  spec(name: string): ImportedSpec | undefined {
    return this.#byName.get(name)?.spec;
  }

  summaries(): readonly SpecSummary[] {
    return (this.#views.summaries ??= this.#states.map((s) => ({
      name: s.spec.name,
      collection: s.spec.collection,
      ...(s.spec.title !== undefined ? { title: s.spec.title } : {}),
      endpoints: s.entries.length,
      deprecated: s.deprecated,
    })));
  }

  get(id: string): Endpoint | undefined {
    return this.#entry(id)?.endpoint;
  }

  #entry(id: string): Entry | undefined {
    const colon = id.indexOf(':');
    if (colon <= 0) return undefined;
    return this.#byName.get(id.slice(0, colon))?.byId.get(id);
  }

  /** Endpoints in source order (spec order, then document order). */
  list(filter: ListFilter): readonly Endpoint[] {
    const { spec, collection, tag } = filter;
    if (spec !== undefined) {
      const state = this.#byName.get(spec);
      if (!state || (collection !== undefined && state.spec.collection !== collection)) return EMPTY;
      return tag !== undefined ? (state.byTag.get(tag) ?? EMPTY) : state.endpoints;
    }
    if (collection !== undefined) {
      const inCollection = this.#collectionMap().get(collection) ?? EMPTY;
      return tag !== undefined ? inCollection.filter((e) => e.tags.includes(tag)) : inCollection;
    }
    if (tag !== undefined) return this.#tagMap().get(tag) ?? EMPTY;
    return (this.#views.all ??= this.#states.length === 1 ? this.#states[0]!.endpoints : this.#states.flatMap((s) => s.endpoints));
  }

  #collectionMap(): ReadonlyMap<string, readonly Endpoint[]> {
    if (this.#views.byCollection) return this.#views.byCollection;
    const map = new Map<string, Endpoint[]>();
    for (const s of this.#states) {
      const list = map.get(s.spec.collection);
      if (list) for (const e of s.endpoints) list.push(e);
      else map.set(s.spec.collection, [...s.endpoints]);
    }
    return (this.#views.byCollection = map);
  }

  #tagMap(): ReadonlyMap<string, readonly Endpoint[]> {
    if (this.#views.byTag) return this.#views.byTag;
    const map = new Map<string, Endpoint[]>();
    for (const s of this.#states) {
      for (const [tag, endpoints] of s.byTag) {
        const list = map.get(tag);
        if (list) for (const e of endpoints) list.push(e);
        else map.set(tag, [...endpoints]);
      }
    }
    return (this.#views.byTag = map);
  }

  collections(): readonly { name: string; specs: readonly { name: string; endpoints: number }[]; endpoints: number }[] {
    if (this.#views.collections) return this.#views.collections;
    const out: { name: string; specs: { name: string; endpoints: number }[]; endpoints: number }[] = [];
    const byName = new Map<string, (typeof out)[number]>();
    for (const s of this.#states) {
      let c = byName.get(s.spec.collection);
      if (!c) {
        c = { name: s.spec.collection, specs: [], endpoints: 0 };
        byName.set(c.name, c);
        out.push(c);
      }
      c.specs.push({ name: s.spec.name, endpoints: s.entries.length });
      c.endpoints += s.entries.length;
    }
    return (this.#views.collections = out);
  }

  /** Tags in first-seen order with their endpoint counts; one spec's, or all specs' merged. */
  tags(spec?: string): readonly { tag: string; endpoints: number }[] {
    const map = spec !== undefined ? this.#byName.get(spec)?.byTag : this.#tagMap();
    if (!map) return [];
    return [...map].map(([tag, endpoints]) => ({ tag, endpoints: endpoints.length }));
  }

  search(query: string, filters: SearchFilters = {}, limit = DEFAULT_SEARCH_LIMIT): readonly SearchHit[] {
    if (limit <= 0) return [];
    const parsed = parseQuery(query);
    const accept = this.#acceptor(filters);
    if (accept === null) return [];
    const all = filters.spec === undefined && filters.collection === undefined && filters.tag === undefined && filters.method === undefined;
    const ranked = this.#index.rank(parsed, { limit, accept, all, order: this.#order });
    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    // A path the query names outright comes first: the caller already knows what it wants.
    if (parsed.paths.length > 0) {
      const top = ranked[0]?.score ?? 1;
      for (const entry of this.#pathMatches(parsed.paths, accept, parsed.method)) {
        if (hits.length >= limit) break;
        seen.add(entry.endpoint.id);
        hits.push({ endpoint: entry.endpoint, score: top * 2 + 1 });
      }
    }
    for (const r of ranked) {
      if (hits.length >= limit) break;
      if (seen.has(r.entry.endpoint.id)) continue;
      hits.push({ endpoint: r.entry.endpoint, score: r.score });
    }
    return hits;
  }

  /** A predicate for the filters, or `null` when they can match nothing (unknown spec). */
  #acceptor(filters: SearchFilters): ((entry: Entry) => boolean) | null {
    const { spec, collection, tag, method } = filters;
    if (spec !== undefined && !this.#byName.has(spec)) return null;
    if (spec === undefined && collection === undefined && tag === undefined && method === undefined) return () => true;
    return (entry) => {
      const e = entry.endpoint;
      return (
        (spec === undefined || e.spec === spec) &&
        (collection === undefined || e.collection === collection) &&
        (method === undefined || e.method === method) &&
        (tag === undefined || e.tags.includes(tag))
      );
    };
  }

  #pathMatches(paths: readonly string[], accept: (entry: Entry) => boolean, method?: string): Entry[] {
    const exact: Entry[] = [];
    const tail: Entry[] = [];
    for (const raw of paths) {
      const want = normalizePath(raw);
      const last = want.slice(want.lastIndexOf('/') + 1);
      // `/pulls` looks up its one segment; `/customers/{id}` its last two (a lone `{}` matches too much).
      const deep = want.split('/').length > 2;
      for (const state of this.#states) {
        for (const entry of (deep ? state.byLastTwo.get(lastTwo(want)) : state.byLastSegment.get(last)) ?? []) {
          if (!accept(entry)) continue;
          const have = normalizePath(entry.endpoint.path);
          if (have === want) exact.push(entry);
          else if (have.endsWith(want)) tail.push(entry);
        }
      }
    }
    const all = [...exact, ...tail];
    // With a method named, its endpoints go first; the others stay as near misses.
    return method ? [...all.filter((e) => e.endpoint.method === method), ...all.filter((e) => e.endpoint.method !== method)] : all;
  }

  /**
   * Closest existing ids to an unknown one, best first. Narrows first (same path in another method,
   * same last segment, the search index within the spec), then compares paths: never the whole catalogue.
   */
  suggest(id: string, limit = DEFAULT_SUGGEST_LIMIT): readonly string[] {
    if (limit <= 0) return [];
    const parsed = parseEndpointId(id);
    if (!parsed) return this.search(id, {}, limit).map((h) => h.endpoint.id);
    const states = this.#closestSpecs(parsed.spec);
    const want = normalizePath(parsed.path);
    const last = want.slice(want.lastIndexOf('/') + 1);
    const candidates = new Set<Entry>();
    for (const state of states) {
      for (const e of state.byPath.get(want) ?? []) candidates.add(e);
      for (const e of state.byLastSegment.get(last) ?? []) candidates.add(e);
    }
    const names = new Set(states.map((s) => s.spec.name));
    const query = parseQuery(`${parsed.path}`);
    for (const r of this.#index.rank(query, { limit: 40, accept: (e) => names.has(e.endpoint.spec) }).slice(0, 40)) {
      candidates.add(r.entry);
    }
    const scored = [...candidates].map((entry) => {
      const e = entry.endpoint;
      let score = pathSimilarity(want, normalizePath(e.path));
      if (e.method === parsed.method) score += 0.25;
      if (e.spec === parsed.spec) score += 0.1;
      return { id: e.id, score };
    });
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.id);
  }

  /** The named spec, else the specs whose names are a typo away, else every spec. */
  #closestSpecs(name: string): readonly SpecState[] {
    const exact = this.#byName.get(name);
    if (exact) return [exact];
    const lower = name.toLowerCase();
    let best = Infinity;
    let closest: SpecState[] = [];
    for (const s of this.#states) {
      const d = editDistance(lower, s.spec.name.toLowerCase(), 3);
      if (d < best) {
        best = d;
        closest = [s];
      } else if (d === best) closest.push(s);
    }
    return best <= 3 ? closest : this.#states;
  }
}
