// Search quality evaluation shared by the regression test and `bench/search.bench.ts`:
// the query sets, the corpus specs they are about, and hit@1 / hit@5 / MRR.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpec } from '../../src/import/index.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The third-party corpus, kept outside the repository. */
export const CORPUS = path.resolve(REPO_ROOT, '../shared/specs');
export const QUERY_DIR = path.join(REPO_ROOT, 'test/search/queries');

/** Which corpus file each query set is about. Held-out specs are never used to tune the ranking. */
export const QUERY_SPECS: readonly { name: string; file: string; heldOut: boolean }[] = [
  { name: 'stripe', file: 'openapi-3.0/stripe/2023-09-12/spec3.yaml', heldOut: false },
  { name: 'kubernetes', file: 'swagger-2.0/kubernetes/swagger.json', heldOut: false },
  { name: 'slack', file: 'swagger-2.0/slack/slack_web_openapi_v2.json', heldOut: false },
  { name: 'digitalocean', file: 'openapi-3.0/digitalocean/specification/DigitalOcean-public.v2.yaml', heldOut: false },
  { name: 'twilio', file: 'openapi-3.0/twilio/twilio_api_v2010.yaml', heldOut: false },
  { name: 'spotify', file: 'openapi-3.0/spotify/official-spotify-open-api.yml', heldOut: false },
  { name: 'discord', file: 'openapi-3.1/discord/openapi.json', heldOut: false },
  { name: 'asana', file: 'openapi-3.0/asana/asana_oas.yaml', heldOut: true },
  { name: 'zoom', file: 'swagger-2.0/zoom/openapi.v2.json', heldOut: true },
];

export interface Query {
  readonly spec: string;
  readonly query: string;
  readonly accept: readonly string[];
  readonly heldOut: boolean;
  /** `file:line`, for reports. */
  readonly place: string;
}

/** Read every `<spec>.tsv` (and `heldout/<spec>.tsv`): `query<TAB>id id ...`, `#` comments. */
export function loadQueries(dir = QUERY_DIR): Query[] {
  const out: Query[] = [];
  const read = (file: string, heldOut: boolean) => {
    const spec = path.basename(file, '.tsv');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim() || line.startsWith('#')) return;
      const [query, ids] = line.split('\t');
      const place = `${path.relative(REPO_ROOT, file)}:${i + 1}`;
      if (!query || !ids) throw new Error(`${place}: expected "query<TAB>endpoint ids"`);
      out.push({ spec, query: query.trim(), accept: ids.trim().split(/\s+/), heldOut, place });
    });
  };
  for (const f of readdirSync(dir).sort()) if (f.endsWith('.tsv')) read(path.join(dir, f), false);
  const held = path.join(dir, 'heldout');
  if (existsSync(held)) for (const f of readdirSync(held).sort()) if (f.endsWith('.tsv')) read(path.join(held, f), true);
  return out;
}

export function corpusAvailable(): boolean {
  return existsSync(path.join(CORPUS, 'MANIFEST.tsv'));
}

/** Import the query sets' specs from the corpus (spec name = query set name, collection = name). */
export async function importQuerySpecs(names?: readonly string[]): Promise<ImportedSpec[]> {
  const out: ImportedSpec[] = [];
  for (const s of QUERY_SPECS) {
    if (names && !names.includes(s.name)) continue;
    const outcome = await importSpec(path.join(CORPUS, s.file), { name: s.name, collection: s.name });
    if (!outcome.ok) throw new Error(`import of ${s.file} failed: ${outcome.errors.map((e) => e.message).join('; ')}`);
    out.push(outcome.spec);
  }
  return out;
}

/**
 * Query-set ids are written as the description's `paths` keys; a Swagger `basePath` may prefix the
 * imported path. Map each written id to the catalogue's id (same spec and method, path equal or
 * ending with the written path); an id that matches nothing is an error in the query set.
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
    const index = ids.findIndex((id) => q.accept.includes(id));
    const rank = index + 1;
    ranks.push(rank);
    if (rank === 1) hit1++;
    if (rank >= 1 && rank <= 5) hit5++;
    if (rank >= 1) rr += 1 / rank;
    if (rank !== 1) misses.push({ query: q, rank, top: ids.slice(0, 5) });
  }
  const n = queries.length || 1;
  return { scores: { queries: queries.length, hit1: hit1 / n, hit5: hit5 / n, mrr: rr / n }, misses, ranks };
}
