// Each family of query and ranking rules (src/catalog/rules.ts) switched off in turn: the
// whole-catalogue figures of every evaluation set without it, beside those with every family on.
// A family keeps its place only if the test APIs lose without it (the search issue's rule); the
// development sets are shown too, so that a family that only serves them is seen as such.
//
//   npm run bench:search -- --quick --ablate
import { Catalog } from '../src/catalog/index.ts';
import { RULES, type RuleFamily, withRules } from '../src/catalog/rules.ts';
import type { ImportedSpec } from '../src/model/index.ts';
import type { EvalSet, Query } from '../test/search/harness.ts';
import { type Figures, figures, ourSearcher, runQueries } from '../test/search/measure.ts';

/** Whole-catalogue figures of each set, with the catalogue built under the rules switched on now. */
function measure(specs: readonly ImportedSpec[], queries: readonly Query[], sets: readonly EvalSet[]): Figures[] {
  // Built anew: some families shape the index's terms (abbreviations, synonyms), not only the query.
  const search = ourSearcher(new Catalog([...specs]));
  return sets.map((set) =>
    figures(
      runQueries(
        queries.filter((q) => q.set === set),
        search,
        'whole',
      ),
    ),
  );
}

const f3 = (n: number): string => n.toFixed(3);
const signed = (n: number): string => (n > 0 ? '+' : n < 0 ? '-' : ' ') + Math.abs(n).toFixed(3);

/** One line per family: each set's hit@1 / hit@5 / MRR without it, and the change from all on. */
export function ablationLines(specs: readonly ImportedSpec[], queries: readonly Query[]): string[] {
  const sets = (['test', 'test2', 'dev', 'fresh', 'wide'] as const).filter((set) => queries.some((q) => q.set === set));
  const all = measure(specs, queries, sets);
  const cell = (f: Figures, base: Figures): string =>
    `${f3(f.hit1)} ${f3(f.hit5)} ${f3(f.mrr)} (${signed(f.hit1 - base.hit1)} ${signed(f.hit5 - base.hit5)} ${signed(f.mrr - base.mrr)})`;
  const out = [
    `rule families, whole catalogue: each set's hit@1 hit@5 MRR with the family off (change from every family on); ${sets.join(', ')}`,
    `${'every family on'.padEnd(18)} ${sets.map((_, i) => `${f3(all[i]!.hit1)} ${f3(all[i]!.hit5)} ${f3(all[i]!.mrr)}`).join('  |  ')}`,
  ];
  for (const family of Object.keys(RULES) as RuleFamily[]) {
    const off = withRules({ [family]: false }, () => measure(specs, queries, sets));
    out.push(`${family.padEnd(18)} ${sets.map((_, i) => cell(off[i]!, all[i]!)).join('  |  ')}`);
  }
  return out;
}
