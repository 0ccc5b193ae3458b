// Public surface of the catalogue: imported specs -> endpoints by id, listings and search. (Contract; implementation in catalog.ts, ranking in search.ts.)
import type { Endpoint, HttpMethod } from '../model/index.ts';

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

/** A page of search hits and how many endpoints match in all. */
export interface SearchPage {
  readonly hits: readonly SearchHit[];
  /** How many endpoints match in all; with `moreThanTotal`, the depth pages reach (`MAX_SEARCH_DEPTH`). */
  readonly total: number;
  /** More endpoints match than `total`: counting stops where pages stop. */
  readonly moreThanTotal?: boolean;
  /** The query as it was searched, when words of it no endpoint says were read as the catalogue's nearest ("subscriptoins" -> "subscriptions"). */
  readonly readAs?: string;
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
export { Catalog, type CatalogOptions, MAX_SEARCH_DEPTH } from './catalog.ts';
export { MAX_QUERY_CHARS, MAX_QUERY_WORDS } from './query.ts';
