// Listings of the current specs (every endpoint, by collection, by tag, the spec summaries),
// computed on first use; a new set of specs gets a new `Listings`.
import type { Endpoint } from '../model/index.ts';
import type { ListFilter, SpecSummary } from './index.ts';
import type { SpecState } from './spec-state.ts';

const EMPTY: readonly Endpoint[] = Object.freeze([]);

export interface CollectionListing {
  name: string;
  specs: { name: string; endpoints: number }[];
  endpoints: number;
}

export class Listings {
  readonly #states: readonly SpecState[];
  readonly #byName: ReadonlyMap<string, SpecState>;
  #all: readonly Endpoint[] | undefined;
  #byCollection: ReadonlyMap<string, readonly Endpoint[]> | undefined;
  #byTag: ReadonlyMap<string, readonly Endpoint[]> | undefined;
  #collections: readonly CollectionListing[] | undefined;
  #summaries: readonly SpecSummary[] | undefined;

  constructor(states: readonly SpecState[], byName: ReadonlyMap<string, SpecState>) {
    this.#states = states;
    this.#byName = byName;
  }

  summaries(): readonly SpecSummary[] {
    return (this.#summaries ??= this.#states.map((s) => ({
      name: s.spec.name,
      collection: s.spec.collection,
      ...(s.spec.title !== undefined ? { title: s.spec.title } : {}),
      endpoints: s.entries.length,
      deprecated: s.deprecated,
    })));
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
    // Stryker disable next-line ConditionalExpression: the endpoints of one spec, flattened, are the same list
    return (this.#all ??= this.#states.length === 1 ? this.#states[0]!.endpoints : this.#states.flatMap((s) => s.endpoints));
  }

  #collectionMap(): ReadonlyMap<string, readonly Endpoint[]> {
    // Stryker disable next-line ConditionalExpression: speed only (the map is built again, the same)
    if (this.#byCollection) return this.#byCollection;
    const map = new Map<string, Endpoint[]>();
    for (const s of this.#states) {
      const list = map.get(s.spec.collection);
      if (list) for (const e of s.endpoints) list.push(e);
      else map.set(s.spec.collection, [...s.endpoints]);
    }
    return (this.#byCollection = map);
  }

  #tagMap(): ReadonlyMap<string, readonly Endpoint[]> {
    // Stryker disable next-line ConditionalExpression: speed only (the map is built again, the same)
    if (this.#byTag) return this.#byTag;
    const map = new Map<string, Endpoint[]>();
    for (const s of this.#states) {
      for (const [tag, endpoints] of s.byTag) {
        const list = map.get(tag);
        if (list) for (const e of endpoints) list.push(e);
        else map.set(tag, [...endpoints]);
      }
    }
    return (this.#byTag = map);
  }

  collections(): readonly CollectionListing[] {
    // Stryker disable next-line ConditionalExpression: speed only (the list is built again, the same)
    if (this.#collections) return this.#collections;
    const out: CollectionListing[] = [];
    const byName = new Map<string, CollectionListing>();
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
    return (this.#collections = out);
  }

  /** Tags in first-seen order with their endpoint counts; one spec's, or all specs' merged. */
  tags(spec?: string): readonly { tag: string; endpoints: number }[] {
    const map = spec !== undefined ? this.#byName.get(spec)?.byTag : this.#tagMap();
    if (!map) return [];
    return [...map].map(([tag, endpoints]) => ({ tag, endpoints: endpoints.length }));
  }
}
