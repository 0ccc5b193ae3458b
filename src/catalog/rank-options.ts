// What a caller asks of one index's ranking (`SearchIndex.rank`) and what it gets back.
import type { Entry } from './document.ts';

export interface RankOptions {
  readonly limit: number;
  readonly accept: (entry: Entry) => boolean;
  /** `accept` takes everything: skip calling it. */
  readonly all?: boolean;
  /** Catalogue position (spec order, then document order): breaks ties, so equal hits keep source order. */
  readonly order?: (entry: Entry) => number;
  /** Retry with fuzzy matching when nothing matches (default true; a caller merging many indexes retries itself). */
  readonly fuzzy?: boolean;
  /**
   * Multiplier per query term on top of its weight: a caller merging several indexes rescales each
   * index's own inverse document frequency to the catalogue-wide one, so their scores compare.
   * Text scores count it up to `IDF_RESCALE.max` (see weights.ts).
   */
  readonly termScale?: (term: string) => number;
  /**
   * Leave out results that cannot score above this (a caller merging indexes passes the score of
   * its current last hit): they are not re-ranked, which is most of a search's own work.
   */
  readonly floor?: number;
  /**
   * Each prefix-searched query term's longer terms in the whole catalogue (`TermHolders.expansions`),
   * from a caller whose catalogue holds this index: what a prefix costs is summed over them (the
   * index's own terms among them) instead of a pass over every term of the index.
   */
  readonly expansions?: ReadonlyMap<string, readonly string[]>;
}

export interface Ranked {
  readonly entry: Entry;
  readonly score: number;
}
