// "Did you mean": the closest existing ids to an unknown one.
import type { Loaded } from './loaded.ts';
import { rankIn } from './search-pipeline.ts';
import { type Entry, normalizePath, parseQuery } from './search.ts';
import { editDistance, pathSimilarity } from './similar.ts';
import type { SpecState } from './spec-state.ts';

/** Ranked candidates looked at beside the path look-ups. */
const RANKED_CANDIDATES = 40;

/**
 * Closest existing ids to an unknown one (parsed as an endpoint id), best first. Narrows first
 * (same path in another method, same last segment, the search index within the spec), then
 * compares paths: never the whole catalogue.
 */
export function suggestIds(loaded: Loaded, parsed: { readonly spec: string; readonly method: string; readonly path: string }, limit: number): string[] {
  const states = closestSpecs(loaded, parsed.spec);
  const want = normalizePath(parsed.path);
  const last = want.slice(want.lastIndexOf('/') + 1);
  const candidates = new Set<Entry>();
  for (const state of states) {
    for (const e of state.byPath.get(want) ?? []) candidates.add(e);
    for (const e of state.byLastSegment.get(last) ?? []) candidates.add(e);
  }
  const query = parseQuery(`${parsed.path}`);
  const ranked = rankIn(loaded, states, query, RANKED_CANDIDATES, { accept: () => true, all: true });
  for (const r of ranked.slice(0, RANKED_CANDIDATES)) candidates.add(r.entry);
  const scored = [...candidates].map((entry) => {
    const e = entry.endpoint;
    let score = pathSimilarity(want, normalizePath(e.path));
    if (e.method === parsed.method) score += 0.25;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,AssignmentOperator: candidates are all of the named spec or, for a name no spec has, none is (closestSpecs): the bonus moves every score alike
    if (e.spec === parsed.spec) score += 0.1;
    return { id: e.id, score };
  });
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.id);
}

/** The named spec, else the specs whose names are a typo away, else every spec. */
function closestSpecs(loaded: Loaded, name: string): readonly SpecState[] {
  const exact = loaded.byName.get(name);
  if (exact) return [exact];
  const lower = name.toLowerCase();
  let best = Infinity;
  let closest: SpecState[] = [];
  for (const s of loaded.states) {
    const d = editDistance(lower, s.spec.name.toLowerCase(), 3);
    if (d < best) {
      best = d;
      closest = [s];
    } else if (d === best) closest.push(s);
  }
  return best <= 3 ? closest : loaded.states;
}
