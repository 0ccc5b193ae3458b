// How much of a query a result covers, each query word counted once by the strongest field it
// matched in (a summary outweighs a parameter name): a factor of the ranking in rank.ts.
import type { SearchResult } from 'minisearch';
import type { ParsedQuery } from './query.ts';
import { WEIGHTS } from './weights.ts';

/**
 * `fieldCoverage`'s working lists: query term and its strongest field so far, in the order terms
 * were first credited (the sum runs in that order). Reused from call to call: coverage is worked
 * out for every re-ranked result, and a Map per result was much of a search's garbage.
 */
// Stryker disable next-line ArrayDeclaration: slots are written before they are read (`n` counts the valid ones)
const coverSources: string[] = [];
// Stryker disable next-line ArrayDeclaration: slots are written before they are read (`n` counts the valid ones)
const coverStrengths: number[] = [];

/** Sum of query-term weights, each counted by the strongest field it matched in. */
export function fieldCoverage(r: SearchResult, q: ParsedQuery): number {
  const terms = q.terms;
  let n = 0;
  const match = r.match;
  for (const indexTerm in match) {
    const fields = match[indexTerm]!;
    // The query term this index term came from: itself, else the longest query term it extends (prefix).
    let source: string | undefined = q.weights.has(indexTerm) ? indexTerm : undefined;
    if (!source) {
      for (let k = 0; k < terms.length; k++) {
        const t = terms[k]!;
        if (indexTerm.startsWith(t) && (!source || t.length > source.length)) source = t;
      }
    }
    // Else (a fuzzy match) the first query term not credited yet.
    if (!source) {
      for (let k = 0; k < terms.length && !source; k++) {
        let credited = false;
        for (let i = 0; i < n; i++) if (coverSources[i] === terms[k]) credited = true;
        if (!credited) source = terms[k];
      }
    }
    if (!source) continue;
    let strength = 0;
    for (let k = 0; k < fields.length; k++) strength = Math.max(strength, (WEIGHTS.fieldStrength as Record<string, number>)[fields[k]!] ?? 0.5);
    let i = 0;
    while (i < n && coverSources[i] !== source) i++;
    if (i < n) {
      if (strength > coverStrengths[i]!) coverStrengths[i] = strength;
    } else if (strength > 0) {
      coverSources[n] = source;
      coverStrengths[n] = strength;
      n++;
    }
  }
  let sum = 0;
  for (let i = 0; i < n; i++) sum += coverStrengths[i]! * (q.weights.get(coverSources[i]!) ?? 1);
  return sum;
}
