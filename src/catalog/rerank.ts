// The re-ranking of one index's text matches: each result's BM25 score, credited for the terms
// checked late, to the power `textExponent`, times the API-conventions factor (factor.ts). Past
// a caller's floor, results that provably cannot reach it are not re-ranked.
import type { Entry } from './document.ts';
import { factor } from './factor.ts';
import { descending } from './order.ts';
import { type ParsedQuery, withTermsLowered } from './query.ts';
import type { RankOptions, Ranked } from './rank-options.ts';
import type { TextMatches } from './text-scores.ts';
import { QUANTIFIER_TERMS } from './text.ts';
import { WEIGHTS, factorBound, lateGainBound } from './weights.ts';

/** How many text matches the re-ranking looks at. */
const RERANK_POOL = 120;

/** How many text matches a ranking of `limit` hits re-ranks: a deep page asks for more than the usual pool. */
export function rerankPool(limit: number): number {
  return Math.max(RERANK_POOL, limit);
}

/** What re-ranking reads of one index. */
export interface RerankView {
  entryOf(doc: number): Entry | undefined;
  /** The document's summary's distinct terms. */
  summaryOf(doc: number): readonly string[] | undefined;
  /** Terms of the fields that say what an endpoint is (for terms checked late). */
  strongTerms(entry: Entry): ReadonlySet<string>;
}

/** `results` (MiniSearch's, best text score first) re-ranked, best first; `late` the terms left out of the index query. */
export function rerank(view: RerankView, results: TextMatches, parsed: ParsedQuery, late: readonly string[], options: RankOptions): Ranked[] {
  const weights = parsed.weights;
  // Coverage counts what the query names, not how many it asks for (unless that is all it says).
  const cover = coverQuery(parsed);
  const coverWeights = cover.weights;
  const totalWeight = parsed.terms.reduce((sum, t) => sum + (coverWeights.get(t) ?? 1), 0);
  const poolSize = rerankPool(options.limit);
  const n = Math.min(results.length, poolSize);
  const ranked: Ranked[] = [];
  // Results come best text score first, and a final score is at most sqrt(text x what the
  // left-out terms can add) x the largest factor: past the floor, no later result can reach it.
  const e = WEIGHTS.textExponent;
  let ceiling = 0;
  let floor = -1;
  if (options.floor !== undefined) {
    const lateGain = lateGainBound(late.map((t) => weights.get(t) ?? 1));
    ceiling = lateGain * factorBound(parsed) ** (1 / e);
    floor = options.floor ** (1 / e);
  }
  for (let i = 0; i < n; i++) {
    const r = results.at(i)!;
    if (r.score * ceiling < floor) break;
    const entry = view.entryOf(r.id as number)!;
    let covered = results.coverage(i, cover);
    let score = r.score;
    if (late.length > 0) {
      const strong = view.strongTerms(entry);
      for (const t of late) {
        if (!strong.has(t)) continue;
        const w = weights.get(t) ?? 1;
        covered += WEIGHTS.lateTermCredit * (coverWeights.get(t) ?? 1);
        score *= 1 + WEIGHTS.lateTermGain * w;
      }
    }
    const f = factor(entry, cover, covered / totalWeight, view.summaryOf(entry.doc));
    // The text score to the power `textExponent` (see WEIGHTS): the API conventions weigh more than repeated words.
    ranked.push({ entry, score: score ** e * f });
  }
  const order = options.order;
  ranked.sort(order ? (a, b) => descending(a.score, b.score) || order(a.entry) - order(b.entry) : (a, b) => descending(a.score, b.score));
  return ranked;
}

/** The query as coverage weighs it: quantifiers ("all") at weight 0, unless they are all it says. */
function coverQuery(parsed: ParsedQuery): ParsedQuery {
  if (parsed.terms.every((t) => QUANTIFIER_TERMS.has(t))) return parsed;
  return withTermsLowered(parsed, QUANTIFIER_TERMS, 0);
}
