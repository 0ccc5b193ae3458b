// How much of a query a result covers, each query word counted once by the strongest field it
// matched in (a summary outweighs a parameter name): a factor of the ranking in rank.ts.
import type { ParsedQuery } from './query.ts';
import { WEIGHTS } from './weights.ts';

/**
 * The working lists: query term and its strongest field so far, in the order terms were first
 * credited (the sum runs in that order). Reused from call to call: coverage is worked out for
 * every re-ranked result, and a Map per result was much of a search's garbage.
 */
// Stryker disable next-line ArrayDeclaration: slots are written before they are read (`credited` counts the valid ones)
const coverSources: string[] = [];
// Stryker disable next-line ArrayDeclaration: slots are written before they are read (`credited` counts the valid ones)
const coverStrengths: number[] = [];
let credited = 0;

/** How strongly a match in `field` says what an endpoint is. */
export function fieldStrength(field: string): number {
  return (WEIGHTS.fieldStrength as Record<string, number>)[field] ?? 0.5;
}

/**
 * The coverage of one result, worked out a matched index term at a time (`creditTerm`, in the
 * order of MiniSearch's match object's keys) and summed by `coverage`.
 */
export function startCoverage(): void {
  credited = 0;
}

/** Credits index term `indexTerm`, matched in fields as strong as `strength` at most (see `fieldStrength`). */
export function creditTerm(indexTerm: string, strength: number, q: ParsedQuery): void {
  const terms = q.terms;
  const n = credited;
  // The query term this index term came from: itself, else the longest query term it extends (prefix).
  let source: string | undefined = q.weights.has(indexTerm) ? indexTerm : undefined;
  if (!source) {
    for (let k = 0; k < terms.length; k++) {
      const t = terms[k]!;
      // Stryker disable next-line EqualityOperator: two query terms of one length that both begin the index term are the same term
      if (indexTerm.startsWith(t) && (!source || t.length > source.length)) source = t;
    }
  }
  // Else (a fuzzy match) the first query term not credited yet.
  if (!source) {
    for (let k = 0; k < terms.length && !source; k++) {
      let done = false;
      for (let i = 0; i < n; i++) if (coverSources[i] === terms[k]) done = true;
      if (!done) source = terms[k];
    }
  }
  if (!source) return;
  let i = 0;
  while (i < n && coverSources[i] !== source) i++;
  if (i < n) {
    if (strength > coverStrengths[i]!) coverStrengths[i] = strength;
  } else if (strength > 0) {
    coverSources[n] = source;
    coverStrengths[n] = strength;
    credited = n + 1;
  }
}

/** Sum of query-term weights, each counted by the strongest field it matched in (what was credited since `startCoverage`). */
export function coverage(q: ParsedQuery): number {
  let sum = 0;
  for (let i = 0; i < credited; i++) sum += coverStrengths[i]! * (q.weights.get(coverSources[i]!) ?? 1);
  return sum;
}

/** The coverage of a result whose match object is `match` (MiniSearch's: index term -> fields). */
export function fieldCoverage(match: Readonly<Record<string, readonly string[]>>, q: ParsedQuery): number {
  startCoverage();
  for (const indexTerm in match) {
    const fields = match[indexTerm]!;
    let strength = 0;
    for (let k = 0; k < fields.length; k++) strength = Math.max(strength, fieldStrength(fields[k]!));
    creditTerm(indexTerm, strength, q);
  }
  return coverage(q);
}
