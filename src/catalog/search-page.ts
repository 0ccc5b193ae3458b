// Paging a search: the ranked hits first, then every other endpoint holding one of the query's
// words, in catalogue order, so that the total is true and the same on every page.
// Counting stops where pages stop (`MAX_SEARCH_DEPTH`): past it a page says "more than" that many.
// An exact count of every endpoint holding a common word is work no page can show: with every API
// of a public directory loaded (2,600 APIs), counting "list users" visited and loaded the index of
// every API holding either word (over 100 ms warm, seconds on the first search after a start).
// Below the depth the count is exact; where one API holds only one of the words (and no filter
// applies) its count is the word's document count, known without a look at the index.
import type { SearchHit, SearchPage } from './index.ts';
import type { Loaded } from './loaded.ts';
import type { Acceptance } from './search-pipeline.ts';
import { type ParsedQuery, withVerbsSearched } from './search.ts';
import type { SpecState } from './spec-state.ts';

/** How deep search pages reach (offset + limit), and how far a search's total counts. */
export const MAX_SEARCH_DEPTH = 1000;

/** What a spec holds of the counted words: how many of them, and the most documents any one has. */
interface Held {
  words: number;
  mostDocs: number;
}

/**
 * The page `offset`, `limit` of a search whose first `offset + limit` ranked hits are `ranked`,
 * and how many endpoints of `states` match in all (up to `MAX_SEARCH_DEPTH`, then "more than").
 */
export function pageOf(loaded: Loaded, states: readonly SpecState[], parsed: ParsedQuery, ranked: readonly SearchHit[], filter: Acceptance, offset: number, limit: number): SearchPage {
  const accept = filter.all ? undefined : filter.accept;
  const seen = new Set(ranked.map((h) => h.endpoint.id));
  const need = offset + limit - ranked.length;
  const tail: SearchHit[] = [];
  let held = heldWords(loaded, parsed.terms);
  // When no other word is held, the search ranked by the verbs ("list card": by "list"): count by them too,
  // or the total would change from page to page.
  const verbs = held.size === 0 ? withVerbsSearched(parsed) : undefined;
  if (verbs) held = heldWords(loaded, verbs.terms);
  const counted = verbs ? verbs.terms : parsed.terms;
  // Specs of ranked hits are counted document by document (their hits are counted already).
  const rankedIn = new Set<SpecState>();
  for (const h of ranked) {
    const state = loaded.byName.get(h.endpoint.spec);
    if (state) rankedIn.add(state);
  }
  // With no filter, each spec holds at least as many matches as its most common counted word has
  // documents: when those alone pass the depth, so does the total.
  let atLeast = ranked.length;
  if (!accept) {
    let floor = 0;
    for (const state of states) floor += held.get(state)?.mostDocs ?? 0;
    atLeast = Math.max(atLeast, floor);
  }
  let total = ranked.length;
  for (const state of states) {
    const h = held.get(state);
    if (!h) continue;
    if (tail.length >= need && (total > MAX_SEARCH_DEPTH || atLeast > MAX_SEARCH_DEPTH)) break;
    if (!accept && h.words === 1 && !rankedIn.has(state) && tail.length >= need) {
      total += h.mostDocs;
      continue;
    }
    const docs = [...state.index.matching(counted, accept)].sort((a, b) => a - b);
    for (const doc of docs) {
      const endpoint = state.index.entryOf(doc)?.endpoint;
      if (!endpoint || seen.has(endpoint.id)) continue;
      total++;
      if (tail.length < need) tail.push({ endpoint, score: 0 });
    }
  }
  const all = tail.length > 0 ? [...ranked, ...tail] : ranked;
  const hits = all.slice(offset, offset + limit);
  return total > MAX_SEARCH_DEPTH || atLeast > MAX_SEARCH_DEPTH ? { hits, total: MAX_SEARCH_DEPTH, moreThanTotal: true } : { hits, total };
}

/** Spec -> what it holds of `terms` (specs holding none are left out). */
function heldWords(loaded: Loaded, terms: readonly string[]): Map<SpecState, Held> {
  const out = new Map<SpecState, Held>();
  for (const t of new Set(terms)) {
    const holders = loaded.terms.holders(t);
    if (!holders) continue;
    const { states, stats } = holders;
    for (let i = 0; i < states.length; i++) {
      const docs = stats[2 * i]!;
      const h = out.get(states[i]!);
      if (h) {
        h.words++;
        h.mostDocs = Math.max(h.mostDocs, docs);
      } else out.set(states[i]!, { words: 1, mostDocs: docs });
    }
  }
  return out;
}
