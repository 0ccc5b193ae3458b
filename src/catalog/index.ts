// Public surface of the catalogue: imported specs -> endpoints by id, listings and search. (Contract.)
import type { Endpoint, HttpMethod, ImportedSpec } from '../model/index.ts';

export interface SearchFilters {
  readonly spec?: string;
  readonly collection?: string;
  readonly tag?: string;
  readonly method?: HttpMethod;
}

export interface SearchHit {
  readonly endpoint: Endpoint;
  readonly score: number;
}

export interface ListFilter {
  readonly spec?: string;
  readonly collection?: string;
  readonly tag?: string;
}

export interface SpecSummary {
  readonly name: string;
  readonly collection: string;
  readonly title?: string;
  readonly endpoints: number;
  readonly deprecated: number;
}

/**
 * Holds every endpoint in memory with a full-text index.
 * `replace` swaps the whole set of specs synchronously: a reader never sees half an update.
 * Specs passed again as the same object are not re-indexed.
 */
export declare class Catalog {
  constructor(specs?: readonly ImportedSpec[]);
  /** Increments on every `replace`. */
  readonly generation: number;
  readonly size: number;
  replace(specs: readonly ImportedSpec[]): void;
  specs(): readonly ImportedSpec[];
  spec(name: string): ImportedSpec | undefined;
  summaries(): readonly SpecSummary[];
  get(id: string): Endpoint | undefined;
  /** Closest existing ids to an unknown one, best first. */
  suggest(id: string, limit?: number): readonly string[];
  /** Endpoints in source order (spec order, then document order). */
  list(filter: ListFilter): readonly Endpoint[];
  collections(): readonly { name: string; specs: readonly { name: string; endpoints: number }[]; endpoints: number }[];
  tags(spec?: string): readonly { tag: string; endpoints: number }[];
  search(query: string, filters?: SearchFilters, limit?: number): readonly SearchHit[];
}
