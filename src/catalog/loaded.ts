// The specs a catalogue serves between two `replace` calls, with what searching them needs: the
// specs by name, which specs a word names, the word statistics over all of them, and the ranker.
// Immutable once built (caches aside): `replace` builds a new one and swaps it in.
import type { ImportedSpec } from '../model/index.ts';
import { WholeTables } from './direct-matches.ts';
import { MAX_VALUE } from './key-table.ts';
import type { SearchFilters } from './index.ts';
import { ManyRanker, type SearchBudget } from './rank-many.ts';
import { editDistance } from './similar.ts';
import { FullNameIndex } from './spec-choice.ts';
import { type SpecState, push } from './spec-state.ts';
import type { TermHolders } from './term-holders.ts';

export class Loaded {
  /** Every spec, in catalogue order (`SpecState.position`). */
  readonly states: readonly SpecState[];
  readonly byName: ReadonlyMap<string, SpecState>;
  /** Name term -> the specs a query may name by it (`SpecState.names`). */
  readonly nameHolders: ReadonlyMap<string, readonly SpecState[]>;
  readonly specs: readonly ImportedSpec[];
  /** Endpoints in all. */
  readonly size: number;
  /** Word statistics over every spec (shared with the catalogue, which keeps them up to date). */
  readonly terms: TermHolders;
  readonly ranker: ManyRanker;
  /** Specs by their full names (`FullNameIndex`), built on the first search over several specs. */
  #fullNames: FullNameIndex | undefined;
  /** Every spec's key tables as one (`WholeTables`), for searches over all specs. */
  #tables: WholeTables | undefined;
  /** The name terms, for spelling (built on first need). */
  #names: readonly string[] | undefined;

  constructor(states: readonly SpecState[], terms: TermHolders, budget: SearchBudget) {
    states.forEach((s, i) => (s.position = i));
    this.states = states;
    this.byName = new Map(states.map((s) => [s.spec.name, s]));
    const nameHolders = new Map<string, SpecState[]>();
    for (const s of states) for (const t of s.names) push(nameHolders, t, s);
    this.nameHolders = nameHolders;
    this.specs = states.map((s) => s.spec);
    this.size = states.reduce((sum, s) => sum + s.entries.length, 0);
    this.terms = terms;
    this.ranker = new ManyRanker(states, terms, this.size, budget);
  }

  get fullNames(): FullNameIndex {
    return (this.#fullNames ??= new FullNameIndex(this.states));
  }

  /** The terms a query may name an API by within `distance` edits of `term` (a swap of two letters one edit). */
  namesNear(term: string, distance: number): string[] {
    const names = (this.#names ??= [...this.nameHolders.keys()]);
    return names.filter((n) => Math.abs(n.length - term.length) <= distance && editDistance(term, n, distance, true) <= distance);
  }

  /** Undefined when the catalogue holds more endpoints than one table numbers (ask spec by spec then). */
  get tables(): WholeTables | undefined {
    if (this.size >= MAX_VALUE) return undefined;
    // Stryker disable next-line AssignmentOperator: speed only (without the tables each spec is asked, with the same answers: test/catalog/direct-matches)
    return (this.#tables ??= new WholeTables(this.states));
  }

  /** The specs a search with these filters looks in (an unknown spec: none). */
  statesFor(filters: SearchFilters): readonly SpecState[] {
    const { spec, collection } = filters;
    if (spec !== undefined) {
      const state = this.byName.get(spec);
      return state && (collection === undefined || state.spec.collection === collection) ? [state] : [];
    }
    return collection === undefined ? this.states : this.states.filter((s) => s.spec.collection === collection);
  }
}
