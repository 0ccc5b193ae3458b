// StrykerJS: mutation testing over the node:test files (see TESTING.md).
//
//   npm run test:mutation                                  whole project (long: hours on 2 cores)
//   SVC_MUTATE=src/config npm run test:mutation            one folder, with the test files that cover it
//   SVC_MUTATE=src/daemon/diff.ts npm run test:mutation    one file, with its folder's test files
//   SVC_MUTATE=src/invoke/read.ts:10-24,src/invoke/auth.ts npm run test:mutation    lines of a file
//   SVC_MUTATE=src/mcp/guard.ts SVC_MUTATION_TESTS='test/mcp/guard*.test.ts' npm run test:mutation
//                                                          other test files than the folder's (comma-separated globs)
//
// Test files are named by their path relative to the project (`test/config/load.test.ts`), so
// incremental mode (on, one file per folder: SVC_MUTATION_INCREMENTAL=reports/inc-<folder>.json)
// recognises the same tests on the next run and reuses every result whose code and tests did not
// change. Stryker's own `--testFiles` option names them by their absolute path inside the run's
// sandbox, a new folder each run, so a run given `--testFiles` reuses no result: use
// SVC_MUTATION_TESTS instead.
//
// A folder run lists only the test files that can reach that folder, because Stryker's first step
// (the dry run that measures which test file covers which mutant) runs every listed file one after
// the other. Each mutant then runs only the test files that covered it (perTest coverage).
// SVC_MUTATION_BREAK=90 makes a score below 90 fail the run (CI); SVC_MUTATION_CONCURRENCY sets
// the number of test processes (default 2: the machines here have 2 cores).

import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Test files that exercise each source folder (in-process: Stryker sees coverage only there). */
const TESTS_FOR = {
  // The two snapshot files test catalog code: the entry facts spec-state.ts writes and reads back
  // (its only tests: without them those 67 mutants had no coverage) and the lean postings.
  'src/catalog': ['test/catalog/**/*.test.ts', 'test/search/**/*.test.ts', 'test/snapshot/entry-facts.test.ts', 'test/snapshot/lean-postings.test.ts'],
  'src/cli': ['test/cli/**/*.test.ts', 'test/daemon/**/*.test.ts'],
  'src/config': ['test/config/**/*.test.ts'],
  'src/daemon': ['test/daemon/**/*.test.ts'],
  'src/import': ['test/import/**/*.test.ts'],
  'src/invoke': ['test/invoke/**/*.test.ts', 'test/mcp/invoke-tool.test.ts', 'test/mcp/guard-properties.test.ts'],
  'src/ipc': ['test/ipc/**/*.test.ts', 'test/daemon/services-events.test.ts', 'test/daemon/lifecycle.test.ts'],
  'src/mcp': ['test/mcp/**/*.test.ts'],
  // The model's own tests first; the import and catalogue tests reach it too (slow: minutes of dry run).
  'src/model': ['test/model/**/*.test.ts', 'test/security/bare-host.test.ts', 'test/security/terminal-safety.test.ts', 'test/import/**/*.test.ts', 'test/catalog/**/*.test.ts'],
  // test/tools calls the handlers and their text helpers directly; test/mcp reaches them through the MCP server.
  'src/tools': ['test/tools/**/*.test.ts', 'test/mcp/**/*.test.ts'],
  // The catalogue's expansion test loads WordNet in this process too; test/vocabulary/serve only in
  // its spawned daemons (listed all the same: it is the end-to-end check of search.vocabulary).
  'src/vocabulary': ['test/vocabulary/**/*.test.ts', 'test/catalog/expand.test.ts'],
  // Snapshot files are written and read by the daemon's loader and cold start: their tests (and the
  // import worker's jobs, and the two in-process `svc serve` starts) run that code in this process.
  // The spawned-daemon tests (snapshot-start, start-trace) reach it only in the child: not listed.
  'src/snapshot': [
    'test/snapshot/**/*.test.ts',
    'test/daemon/loader-*.test.ts',
    'test/daemon/cold-start*.test.ts',
    'test/daemon/import-worker-jobs.test.ts',
    'test/daemon/serve-inprocess.test.ts',
    'test/daemon/serve-start-contract.test.ts',
  ],
};

/**
 * Test files left out of mutation runs though they reach the folder: the corpus smoke test calls
 * endpoints of eight third-party descriptions and asserts only that nothing crashes; it covered
 * nearly every src/invoke mutant, so each of those runs paid its 5-8 s, and it is skipped anyway
 * where ../shared/specs is absent (CI). It still runs in `npm test`. The search quality guard loads
 * every evaluation API and runs all development queries (about 14 s) for nearly every src/catalog
 * mutant, and kills only through hit-rate thresholds; it too is skipped without ../shared/specs.
 * The miss-causes and fit-harness tests check the search benchmarks' own accounting and import
 * bench/, which the sandbox leaves out (ignorePatterns).
 */
const NOT_FOR_MUTATION = new Set([
  'test/invoke/corpus.test.ts',
  'test/import/corpus.test.ts',
  // inspect's fixed rules over the corpus (about 7 s, covering nearly every inspect-text mutant);
  // test/tools holds the same rules over generated catalogues, which run in milliseconds.
  'test/mcp/inspect-corpus.test.ts',
  'test/search/quality.test.ts',
  'test/search/miss-causes.test.ts',
  'test/search/fit-harness.test.ts',
]);

/**
 * Folders whose tests run in-process (no daemon to start): an infinite loop is called a timeout
 * after twice the covering tests' time plus this much, instead of the default 20 s.
 */
const TIMEOUT_FOR = { 'src/invoke': 10_000, 'src/config': 10_000, 'src/catalog': 10_000, 'src/snapshot': 10_000, 'src/vocabulary': 10_000 };

/** Patterns -> the files, sorted (Stryker runs a mutant's covering files in this order). */
function expand(patterns) {
  const files = new Set(patterns.flatMap((p) => globSync(p)).map((f) => f.split(path.sep).join('/')));
  return [...files].filter((f) => !NOT_FOR_MUTATION.has(f)).sort();
}

/** `src/config` or `src/daemon/diff.ts` (comma-separated for several) -> mutate and testFiles. */
function scope(spec) {
  if (!spec) return { mutate: ['src/**/*.ts'], testFiles: expand(['test/**/*.test.ts']), timeoutMS: 20_000 };
  const mutate = [];
  const testFiles = new Set();
  let timeoutMS = 0;
  for (const raw of spec.split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean)) {
    // A file, or lines of one (`src/invoke/read.ts:10-24`, as CI's changed-lines run passes them).
    const isFile = /\.ts(:\d+(-\d+)?)?$/.test(raw);
    mutate.push(isFile ? raw : `${raw}/**/*.ts`);
    const folder = Object.keys(TESTS_FOR).find((f) => raw === f || raw.startsWith(`${f}/`));
    for (const t of folder ? TESTS_FOR[folder] : ['test/**/*.test.ts']) testFiles.add(t);
    timeoutMS = Math.max(timeoutMS, TIMEOUT_FOR[folder] ?? 20_000);
  }
  return { mutate, testFiles: expand([...testFiles]), timeoutMS };
}

/**
 * Narrowest test files first. A mutant runs its covering test files one after the other, in this
 * order, until one fails; a file that reaches few mutants calls the mutated module directly and is
 * the likeliest to fail first, while an end-to-end file reaches most of the folder. The breadth of
 * each file comes from the results already in the incremental file (how many mutants each covered);
 * a file it does not know (new) counts as narrowest, and without the file the order is by name.
 * Only the order changes: which files cover a mutant, and so every result, stays the same.
 */
function narrowestFirst(files, incrementalFile) {
  let report;
  try {
    report = JSON.parse(readFileSync(incrementalFile, 'utf8'));
  } catch {
    return files;
  }
  const nameOf = new Map();
  for (const [file, { tests = [] } = {}] of Object.entries(report.testFiles ?? {})) for (const t of tests) nameOf.set(t.id, file);
  const breadth = new Map();
  for (const { mutants = [] } of Object.values(report.files ?? {})) {
    for (const m of mutants) for (const id of m.coveredBy ?? []) breadth.set(nameOf.get(id), (breadth.get(nameOf.get(id)) ?? 0) + 1);
  }
  return [...files].sort((a, b) => (breadth.get(a) ?? 0) - (breadth.get(b) ?? 0) || a.localeCompare(b));
}

const incrementalFile = process.env.SVC_MUTATION_INCREMENTAL ?? 'reports/stryker-incremental.json';
const scoped = scope(process.env.SVC_MUTATE);
const { mutate, timeoutMS } = scoped;
const chosenTests = (process.env.SVC_MUTATION_TESTS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const testFiles = narrowestFirst(chosenTests.length > 0 ? expand(chosenTests) : scoped.testFiles, incrementalFile);
if (chosenTests.length > 0 && testFiles.length === 0) {
  throw new Error(`SVC_MUTATION_TESTS=${process.env.SVC_MUTATION_TESTS} matches no test file; give globs relative to the project`);
}
if (process.argv.includes('--testFiles') || process.argv.some((a) => a.startsWith('--testFiles='))) {
  console.warn(
    'stryker.config.mjs: --testFiles names each test by its path in this run\'s sandbox, so the next run ' +
      'reuses none of these results; SVC_MUTATION_TESTS=<globs> lists test files with stable names',
  );
}

// Each mutant run starts a fresh node process per test file, and loading the (instrumented) sources
// was most of a small file's time. Node strips the types itself (no tsx loader), and its compile
// cache keeps the stripped and compiled modules between those processes: the instrumented sources
// do not change during a run, so every run after the first loads them from the cache.
// SVC_MUTATION_LOADER=tsx goes back to the tsx loader (a Node without type stripping uses it anyway).
const native = process.features?.typescript && process.env.SVC_MUTATION_LOADER !== 'tsx';
if (native && !process.env.NODE_COMPILE_CACHE) {
  process.env.NODE_COMPILE_CACHE = path.resolve('node_modules/.cache/svc-mutation-compile-cache');
}
const breakAt = process.env.SVC_MUTATION_BREAK ? Number(process.env.SVC_MUTATION_BREAK) : null;

export default {
  packageManager: 'npm',
  testRunner: 'tap',
  tap: {
    testFiles,
    // The runner's default `--test-reporter=tap` is replaced by nodeArgs, so it stays here.
    nodeArgs: ['--test-reporter=tap', ...(native ? [] : ['--import', 'tsx'])],
    forceBail: true,
  },
  coverageAnalysis: 'perTest',
  mutate,
  checkers: [],
  concurrency: Number(process.env.SVC_MUTATION_CONCURRENCY ?? 2),
  // Daemon and HTTP tests take seconds on a loaded machine: a mutant is "timed out" only well past
  // that (TIMEOUT_FOR above; SVC_MUTATION_TIMEOUT_MS overrides).
  timeoutMS: Number(process.env.SVC_MUTATION_TIMEOUT_MS ?? timeoutMS),
  timeoutFactor: 2,
  incremental: true,
  incrementalFile,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  clearTextReporter: { reportMutants: true, reportScoreTable: true },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['reports', 'bench', '.scratch', 'coverage', 'docs', '.stryker-tmp*'],
  thresholds: { high: 90, low: 80, break: breakAt },
  // Names no file on purpose: TypeScript 7 has no JavaScript API for Stryker to rewrite tsconfig.json
  // with, and this tsconfig.json needs no rewriting in the sandbox (no extends or references).
  tsconfigFile: '.stryker-no-tsconfig',
};
