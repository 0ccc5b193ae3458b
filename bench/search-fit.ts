// Fitting the ranking's weights on the DEVELOPMENT queries (dev and fresh sets), in process: every
// evaluation API is imported once into the same catalogue `bench:search` measures (so the setting
// is the same whole-catalogue search), then each candidate setting of the weights in weights.ts is
// patched into the tables, the development queries re-ranked, and the tables restored. Test-set
// queries are never read here (only their APIs are loaded, as in `bench:search`); measure the test
// set once, after fitting, with `npm run bench:search -- --quick`.
//
//   npm run bench:search-fit                    figures at the current weights (they equal bench:search --quick)
//   npm run bench:search-fit -- --fit           coordinate ascent on dev + the fit half of fresh, the other half held out
//   npm run bench:search-fit -- --fit --swap    the same with the fresh halves swapped
//   npm run bench:search-fit -- --fit --cv      a step taken only when other APIs agree (leave one API out)
//   npm run bench:search-fit -- --fit --all     fit on every development API (nothing held out)
//   npm run bench:search-fit -- --set a.b=1,c=2 figures at a setting (names as printed by --fit)
//   npm run bench:search-fit -- --splits 3      fits on random halves of the 20 development APIs, each checked on the other half
//   npm run bench:search-fit -- --wide ...      the 24 APIs of the wide and test2 sets loaded too (test2's queries never read);
//                                               with --fit: fit on dev and all of fresh, the wide set held out (with --all
//                                               as well: fit on all 32 development APIs)
//
// Weights read at search time are patched in place; the BM25 field boosts and parameters also shape
// the per-term bounds an index stores when it is built, so changing one builds the catalogue again.
// Weights the pruning bounds take as at most 1 stay at most 1 (test/catalog/pruning.test.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../src/catalog/index.ts';
import { API_FIT, FORM_WEIGHTS, IDF_RESCALE, NAMING_WORDS, PATH_EVIDENCE, SIBLING_WEIGHTS, WEIGHTS } from '../src/catalog/weights.ts';
import type { ImportedSpec } from '../src/model/index.ts';
import { DEFAULT_SETS, EVAL_APIS, EVAL_SETS, TEST_SETS, corpusAvailable } from '../test/search/apis.ts';
import { type Query, QUERY_DIR, firstRank, importApis, loadQueries, resolveIds } from '../test/search/harness.ts';
import { RESULT_LIMIT } from '../test/search/measure.ts';
import { seededRandom } from '../test/support/seeded-random.ts';

type Table = Record<string, unknown>;

/** One numeric weight: where it lives, whether it is capped at 1, whether changing it needs the indexes built again. */
export interface Weight {
  readonly name: string;
  readonly table: Table;
  readonly key: string;
  readonly atMostOne: boolean;
  readonly rebuild: boolean;
}

// Weights the pruning bounds (or their meaning: a share, a penalty) take as at most 1.
const AT_MOST_ONE = new Set([
  'fieldStrength',
  'methodFit',
  'methodFitDefault',
  'verb.disagrees',
  'verb.unsaid',
  'imperativeRead',
  'thingNotRead',
  'shape',
  'pathWordsBase',
  'deprecated',
  'lateTermCredit',
  'prefix',
  'fuzzy',
  'bm25.b',
  'imperativeRemoval',
  'naming.weight',
  'forms.compound',
  'forms.derived',
  'apiFit.b',
]);
// Not fitted: a query naming a method is a known-item query (`DELETE /pets/{id}`), and the spec
// cover does next to nothing under 256 APIs (its power is about 0.01 at 33).
const SKIPPED = new Set(['namedMethod', 'specCover']);

function collect(prefix: string, table: Table, rebuild: boolean, out: Weight[]): void {
  for (const [key, value] of Object.entries(table)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if ([...SKIPPED].some((s) => name === s || name.startsWith(`${s}.`))) continue;
    const capped = [...AT_MOST_ONE].some((s) => name === s || name.startsWith(`${s}.`));
    if (typeof value === 'number') out.push({ name, table, key, atMostOne: capped, rebuild: rebuild || name.startsWith('fields.') || name.startsWith('bm25.') });
    else if (value && typeof value === 'object') collect(name, value as Table, rebuild, out);
  }
}

/** Every fitted weight of weights.ts. */
export function fittedWeights(): Weight[] {
  const out: Weight[] = [];
  collect('', WEIGHTS as unknown as Table, false, out);
  collect('', SIBLING_WEIGHTS as unknown as Table, false, out);
  out.push(...fromTable('pathEvidence', PATH_EVIDENCE, ['prior']));
  out.push(...fromTable('forms', FORM_WEIGHTS, ['compound', 'derived']));
  out.push(...fromTable('naming', NAMING_WORDS, ['weight']));
  out.push(...fromTable('idfRescale', IDF_RESCALE, ['max']));
  out.push(...fromTable('apiFit', API_FIT, ['k', 'b']));
  return out;
}

function fromTable(prefix: string, table: object, keys: readonly string[]): Weight[] {
  return keys.map((key) => {
    const name = `${prefix}.${key}`;
    return { name, table: table as Table, key, atMostOne: AT_MOST_ONE.has(name), rebuild: false };
  });
}

const get = (w: Weight) => w.table[w.key] as number;
const put = (w: Weight, v: number) => {
  w.table[w.key] = v;
};

/** The fresh development APIs split in two halves by name, alternately. */
export function freshHalves(queries: readonly Query[]): [string[], string[]] {
  const names = [...new Set(queries.filter((q) => q.set === 'fresh').map((q) => q.spec))].sort();
  return [names.filter((_, i) => i % 2 === 0), names.filter((_, i) => i % 2 === 1)];
}

export interface Score {
  readonly n: number;
  readonly hit1: number;
  readonly hit5: number;
  readonly mrr: number;
}

function score(ranks: readonly number[]): Score {
  const n = ranks.length || 1;
  let h1 = 0;
  let h5 = 0;
  let rr = 0;
  for (const r of ranks) {
    if (r === 1) h1++;
    if (r >= 1 && r <= 5) h5++;
    if (r >= 1) rr += 1 / r;
  }
  return { n: ranks.length, hit1: h1 / n, hit5: h5 / n, mrr: rr / n };
}

export interface Groups {
  readonly dev: Score;
  readonly fresh: Score;
  readonly wide: Score;
  /** The queries of the APIs fitted on, and of the others. */
  readonly fit: Score;
  readonly held: Score;
  readonly all: Score;
  /** Per API of the fit set: the sum of its queries' reciprocal ranks. */
  readonly fitByApi: ReadonlyMap<string, number>;
}

export class Fitter {
  private catalog: Catalog;
  readonly weights = fittedWeights();
  private readonly initial = new Map(this.weights.map((w) => [w.name, get(w)]));
  private builtWith = '';
  evaluations = 0;

  private readonly specs: readonly ImportedSpec[];
  private readonly queries: readonly Query[];
  /** The APIs whose queries the fit sees. */
  fitSpecs: ReadonlySet<string>;

  constructor(specs: readonly ImportedSpec[], queries: readonly Query[], fitSpecs: ReadonlySet<string>) {
    this.specs = specs;
    this.queries = queries;
    this.fitSpecs = fitSpecs;
    this.catalog = new Catalog(specs);
    this.builtWith = this.indexKey();
  }

  private indexKey(): string {
    return this.weights
      .filter((w) => w.rebuild)
      .map((w) => get(w))
      .join(',');
  }

  /** Whole-catalogue ranks of every development query at the weights as they are now. */
  ranks(): number[] {
    const key = this.indexKey();
    if (key !== this.builtWith) {
      this.catalog = new Catalog(this.specs);
      this.builtWith = key;
    }
    this.evaluations++;
    return this.queries.map((q) =>
      firstRank(
        this.catalog.search(q.query, {}, RESULT_LIMIT).map((h) => h.endpoint.id),
        q.accept,
      ),
    );
  }

  groups(ranks: readonly number[]): Groups {
    const pick = (f: (q: Query) => boolean) => score(ranks.filter((_, i) => f(this.queries[i]!)));
    return {
      dev: pick((q) => q.set === 'dev'),
      fresh: pick((q) => q.set === 'fresh'),
      wide: pick((q) => q.set === 'wide'),
      fit: pick((q) => this.fitSpecs.has(q.spec)),
      held: pick((q) => !this.fitSpecs.has(q.spec)),
      all: pick(() => true),
      fitByApi: this.byApi(ranks),
    };
  }

  private byApi(ranks: readonly number[]): Map<string, number> {
    const out = new Map<string, number>();
    this.queries.forEach((q, i) => {
      if (!this.fitSpecs.has(q.spec)) return;
      out.set(q.spec, (out.get(q.spec) ?? 0) + (ranks[i]! > 0 ? 1 / ranks[i]! : 0));
    });
    return out;
  }

  /** Evaluate at a setting (name -> value), the tables restored afterwards. */
  at(setting: ReadonlyMap<string, number>): Groups {
    const saved = new Map<Weight, number>();
    for (const w of this.weights) {
      const v = setting.get(w.name);
      if (v === undefined) continue;
      saved.set(w, get(w));
      put(w, v);
    }
    try {
      return this.groups(this.ranks());
    } finally {
      for (const [w, v] of saved) put(w, v);
    }
  }

  initialValue(name: string): number {
    return this.initial.get(name)!;
  }
}

const STEPS = [0.5, 0.75, 1.25, 1.5, 2];
const f3 = (n: number) => n.toFixed(3);
export const line = (label: string, s: Score) => `${label.padEnd(8)} n ${String(s.n).padStart(3)}  ${f3(s.hit1)} / ${f3(s.hit5)} / ${f3(s.mrr)}`;
const show = (g: Groups) => [line('dev', g.dev), line('fresh', g.fresh), ...(g.wide.n > 0 ? [line('wide', g.wide)] : []), line('fit', g.fit), line('held', g.held), line('all', g.all)].join('\n');

/**
 * Leave-one-API-out check of one coordinate step: for each API of the fit set, the candidate the
 * OTHER APIs prefer (the current value on a tie) is applied to it; the sum of what that does to each
 * API's reciprocal ranks. Positive only when a gain is shared by several APIs and outweighs what
 * the others lose; a gain from one API alone counts nothing.
 */
export function crossValidated(current: ReadonlyMap<string, number>, candidates: readonly ReadonlyMap<string, number>[]): number {
  const all = [current, ...candidates];
  const total = all.map((g) => [...g.values()].reduce((a, b) => a + b, 0));
  let gain = 0;
  for (const [api, own] of current) {
    let pick = 0;
    let best = total[0]! - own;
    all.forEach((g, c) => {
      const others = total[c]! - (g.get(api) ?? 0);
      if (others > best + 1e-9) {
        best = others;
        pick = c;
      }
    });
    gain += (all[pick]!.get(api) ?? 0) - own;
  }
  return gain;
}

/**
 * Coordinate ascent on the fit set's MRR: per weight, the multiplicative step that gains most (more
 * than `epsilon`) is taken; passes until one gains nothing. With `cv`, a weight moves only when
 * the leave-one-API-out check of its steps gains (see `crossValidated`).
 */
function fit(fitter: Fitter, epsilon: number, maxPasses: number, cv = false): Map<string, number> {
  const setting = new Map<string, number>();
  let best = fitter.at(setting);
  process.stdout.write(`start\n${show(best)}\n`);
  for (let pass = 1; pass <= maxPasses; pass++) {
    let moved = 0;
    for (const w of fitter.weights) {
      const current = setting.get(w.name) ?? fitter.initialValue(w.name);
      let choice: { value: number; groups: Groups } | undefined;
      const tried: Groups[] = [];
      for (const step of STEPS) {
        let value = current * step;
        if (w.atMostOne) value = Math.min(1, value);
        if (Number.isInteger(current) && w.name === 'idfRescale.max') value = Math.round(value);
        if (value === current || value <= 0) continue;
        const trial = new Map(setting).set(w.name, value);
        const groups = fitter.at(trial);
        tried.push(groups);
        if (groups.fit.mrr > (choice?.groups.fit.mrr ?? best.fit.mrr) + epsilon) choice = { value, groups };
      }
      const cvGain = cv && choice ? crossValidated(best.fitByApi, tried.map((g) => g.fitByApi)) : 0;
      if (choice && cv && cvGain <= 0) {
        process.stdout.write(`pass ${pass} ${w.name} ${+current.toFixed(4)} -> ${+choice.value.toFixed(4)} refused: fit ${f3(choice.groups.fit.mrr)}, leave-one-API-out gain ${cvGain.toFixed(2)}\n`);
        choice = undefined;
      }
      if (choice) {
        setting.set(w.name, choice.value);
        best = choice.groups;
        moved++;
        process.stdout.write(
          `pass ${pass} ${w.name} ${+current.toFixed(4)} -> ${+choice.value.toFixed(4)}: fit ${f3(best.fit.mrr)} held ${f3(best.held.hit1)} / ${f3(best.held.hit5)} / ${f3(best.held.mrr)}${cv ? ` cv ${cvGain.toFixed(2)}` : ''} (${fitter.evaluations} evaluations)\n`,
        );
      }
    }
    process.stdout.write(`after pass ${pass} (${moved} moved)\n${show(best)}\n`);
    if (moved === 0) break;
  }
  return setting;
}

/**
 * Prefer fewer changes: each fitted change is undone in turn, and stays undone when the fit set
 * and the held-out half together (all development queries) do not lose by it.
 */
function prune(fitter: Fitter, setting: Map<string, number>): Map<string, number> {
  const kept = new Map(setting);
  let best = fitter.at(kept);
  for (const name of [...setting.keys()]) {
    const trial = new Map(kept);
    trial.delete(name);
    const groups = fitter.at(trial);
    const keeps = groups.held.mrr < best.held.mrr || groups.all.mrr < best.all.mrr;
    process.stdout.write(`without ${name}: held ${f3(groups.held.mrr)} all ${f3(groups.all.mrr)} (with: ${f3(best.held.mrr)} / ${f3(best.all.mrr)}) -> ${keeps ? 'kept' : 'dropped'}\n`);
    if (!keeps) {
      kept.delete(name);
      best = groups;
    }
  }
  return kept;
}

/**
 * How much of what a fit gains carries over to APIs it did not see: the development APIs (dev and
 * fresh) split at random into halves, the fit run on one (two passes), its gain measured on both.
 */
function splits(fitter: Fitter, apis: readonly string[], count: number, cv: boolean): void {
  for (let seed = 1; seed <= count; seed++) {
    const next = seededRandom(seed);
    const order = apis.map((api) => ({ api, key: next() })).sort((x, y) => x.key - y.key);
    const fitApis = new Set(order.slice(0, Math.ceil(apis.length / 2)).map((o) => o.api));
    fitter.fitSpecs = fitApis;
    const before = fitter.at(new Map());
    const setting = fit(fitter, 0.0005, 2, cv);
    const after = fitter.at(setting);
    process.stdout.write(
      `split ${seed} (fit on ${[...fitApis].sort().join(', ')}): ${setting.size} moved; fit MRR ${f3(before.fit.mrr)} -> ${f3(after.fit.mrr)}, held ${f3(before.held.hit1)} / ${f3(before.held.hit5)} / ${f3(before.held.mrr)} -> ${f3(after.held.hit1)} / ${f3(after.held.hit5)} / ${f3(after.held.mrr)}\n`,
    );
  }
}

function parseSetting(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of text.split(',').filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!name || value === undefined || !Number.isFinite(Number(value))) throw new Error(`--set: expected name=value, got ${part}`);
    out.set(name, Number(value));
  }
  return out;
}

async function main(argv: readonly string[]): Promise<number> {
  if (!corpusAvailable()) {
    process.stderr.write('search fit: the API description corpus (../shared/specs) is not present; nothing to fit.\n');
    return 1;
  }
  const started = performance.now();
  const wide = argv.includes('--wide');
  const sets = wide ? EVAL_SETS : DEFAULT_SETS;
  const { specs } = await importApis(EVAL_APIS.filter((a) => sets.includes(a.set)));
  const loaded = new Set(specs.map((s) => s.name));
  const probe = new Catalog(specs);
  // Development queries only: the test set's query files are not even read.
  const queries = resolveIds(
    loadQueries(
      QUERY_DIR,
      sets.filter((set) => !TEST_SETS.includes(set)),
    ).filter((q) => loaded.has(q.spec)),
    probe.list({}),
  );
  const [first, second] = freshHalves(queries);
  const wideApis = [...new Set(queries.filter((q) => q.set === 'wide').map((q) => q.spec))];
  const fitHalf = wide ? [...first, ...second, ...(argv.includes('--all') ? wideApis : [])] : argv.includes('--all') ? [...first, ...second] : argv.includes('--swap') ? second : first;
  process.stdout.write(
    wide
      ? `fit on dev and fresh${argv.includes('--all') ? ' and wide' : '; held out: the wide set'}\n`
      : `fresh fit half: ${fitHalf.join(', ')}; held out: ${(argv.includes('--swap') ? first : second).join(', ')}\n`,
  );
  const known = new Set(fittedWeights().map((w) => w.name));
  const setAt = argv.indexOf('--set');
  const setting = setAt >= 0 ? parseSetting(argv[setAt + 1] ?? '') : new Map<string, number>();
  for (const name of setting.keys()) if (!known.has(name)) throw new Error(`--set: no weight ${name}; weights: ${[...known].join(' ')}`);
  const devApis = [...new Set(queries.filter((q) => q.set === 'dev').map((q) => q.spec))];
  const fitter = new Fitter(specs, queries, new Set([...devApis, ...fitHalf]));
  process.stdout.write(`loaded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const cpu = process.cpuUsage();
  const base = fitter.at(setting);
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${show(base)}\none evaluation: ${((used.user + used.system) / 1e6).toFixed(2)} s CPU (first, indexes loading)\n`);
  const splitsAt = argv.indexOf('--splits');
  if (splitsAt >= 0) splits(fitter, [...devApis, ...first, ...second, ...wideApis].sort(), Number(argv[splitsAt + 1] ?? 3), argv.includes('--cv'));
  if (argv.includes('--fit')) {
    const cpu2 = process.cpuUsage();
    fitter.at(setting);
    const used2 = process.cpuUsage(cpu2);
    process.stdout.write(`one evaluation, indexes loaded: ${((used2.user + used2.system) / 1e6).toFixed(2)} s CPU\n`);
    const fitted = fit(fitter, 0.0005, 4, argv.includes('--cv'));
    const pruned = prune(fitter, fitted);
    const final = fitter.at(pruned);
    const changes = [...pruned].map(([name, v]) => `${name}=${+v.toFixed(4)}`).join(',');
    process.stdout.write(`\nfitted (${fitted.size} moved, ${pruned.size} kept): ${changes}\n${show(final)}\n`);
    process.stdout.write(`old -> new: ${[...pruned].map(([name, v]) => `${name} ${fitter.initialValue(name)} -> ${+v.toFixed(4)}`).join('; ')}\n`);
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
