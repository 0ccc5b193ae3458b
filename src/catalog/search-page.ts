// Paging a search: the ranked hits first, then every other endpoint holding one of the query's
// words, in catalogue order, so that the total is true and the same on every page.
import type { SearchHit, SearchPage } from './index.ts';
import type { Loaded } from './loaded.ts';
import type { Acceptance } from './search-pipeline.ts';
import { type ParsedQuery, withVerbsSearched } from './search.ts';
import type { SpecState } from './spec-state.ts';

/**
 * The page `offset`, `limit` of a search whose first `offset + limit` ranked hits are `ranked`,
 * and how many endpoints of `states` match in all.
 */
export function pageOf(loaded: Loaded, states: readonly SpecState[], parsed: ParsedQuery, ranked: readonly SearchHit[], filter: Acceptance, offset: number, limit: number): SearchPage {
  const accept = filter.all ? undefined : filter.accept;
  const seen = new Set(ranked.map((h) => h.endpoint.id));
  let total = ranked.length;
  const need = offset + limit - ranked.length;
  const tail: SearchHit[] = [];
  const holders = new Set<SpecState>();
  const holdersOf = (terms: readonly string[]) => {
    for (const t of terms) for (const s of loaded.terms.holders(t)?.states ?? []) holders.add(s);
  };
  holdersOf(parsed.terms);
  // When no other word is held, the search ranked by the verbs ("list card": by "list"): count by them too,
  // or the total would change from page to page.
  const verbs = holders.size === 0 ? withVerbsSearched(parsed) : undefined;
  if (verbs) holdersOf(verbs.terms);
  const counted = verbs ? verbs.terms : parsed.terms;
  for (const state of states) {
    if (!holders.has(state)) continue;
    const docs = [...state.index.matching(counted, accept)].sort((a, b) => a - b);
    for (const doc of docs) {
      const endpoint = state.index.entryOf(doc)?.endpoint;
      if (!endpoint || seen.has(endpoint.id)) continue;
      total++;
      if (tail.length < need) tail.push({ endpoint, score: 0 });
    }
  }
  const all = tail.length > 0 ? [...ranked, ...tail] : ranked;
  return { hits: all.slice(offset, offset + limit), total };
}
