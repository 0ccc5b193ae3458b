// Measuring search as the agent uses it: every evaluation API in one catalogue, queries with or
// without a spec filter, an answer counting only when it is an accepted id (so only from the right
// spec); hit@1, hit@5, MRR, empty answers and latency, for svc's ranking and for a baseline of
// MiniSearch defaults. Known-item queries (an endpoint's own summary, operationId, `METHOD /path`)
// are generated from the loaded catalogue.
import MiniSearch from 'minisearch';
import type { Catalog } from '../../src/catalog/index.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';
import { type EvalSet, type Query, firstRank } from './harness.ts';

/** How many results a search returns for scoring (hit@5 and MRR are read from these). */
export const RESULT_LIMIT = 10;

/** A search under test: ids best first; `spec` set = within-spec search, undefined = whole catalogue. */
export type Searcher = (query: string, spec: string | undefined) => readonly string[];

export type Scope = 'whole' | 'within';

export interface Figures {
  readonly queries: number;
  readonly hit1: number;
  readonly hit5: number;
  readonly mrr: number;
  /** Queries that got no result at all. */
  readonly empty: number;
  /** Milliseconds per search. */
  readonly p50: number;
  readonly p99: number;
}

export interface QueryResult {
  readonly query: Query;
  /** 1-based rank of the first accepted id, 0 when not in the results. */
  readonly rank: number;
  readonly top: readonly string[];
  readonly ms: number;
}

export function ourSearcher(catalog: Catalog, limit = RESULT_LIMIT): Searcher {
  return (query, spec) => catalog.search(query, spec === undefined ? {} : { spec }, limit).map((h) => h.endpoint.id);
}

/**
 * The baseline: MiniSearch as it comes (its own tokenizer, BM25+ defaults, no boosts, no prefix or
 * fuzzy matching) over summary, description and path, plus the spec's name and title so that a
 * query naming the product can find it.
 */
export function baselineSearcher(specs: readonly ImportedSpec[], limit = RESULT_LIMIT): Searcher {
  const mini = new MiniSearch<{ id: string; spec: string; summary: string; description: string; path: string; api: string }>({
    fields: ['summary', 'description', 'path', 'api'],
    storeFields: ['spec'],
  });
  for (const s of specs) {
    const api = [s.name, s.title ?? ''].join(' ');
    mini.addAll(s.endpoints.map((e) => ({ id: e.id, spec: e.spec, summary: e.summary ?? '', description: e.description ?? '', path: e.path, api })));
  }
  return (query, spec) =>
    mini
      .search(query, spec === undefined ? {} : { filter: (r) => r.spec === spec })
      .slice(0, limit)
      .map((r) => r.id as string);
}

/** Run each query once (after one untimed warm-up pass over the first few) and time it. */
export function runQueries(queries: readonly Query[], searcher: Searcher, scope: Scope): QueryResult[] {
  for (const q of queries.slice(0, 20)) searcher(q.query, scope === 'within' ? q.spec : undefined);
  return queries.map((q) => {
    const started = performance.now();
    const ids = searcher(q.query, scope === 'within' ? q.spec : undefined);
    const ms = performance.now() - started;
    return { query: q, rank: firstRank(ids, q.accept), top: ids.slice(0, 5), ms };
  });
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function figures(results: readonly QueryResult[]): Figures {
  const n = results.length || 1;
  let hit1 = 0;
  let hit5 = 0;
  let rr = 0;
  let empty = 0;
  for (const r of results) {
    if (r.rank === 1) hit1++;
    if (r.rank >= 1 && r.rank <= 5) hit5++;
    if (r.rank >= 1) rr += 1 / r.rank;
    if (r.top.length === 0) empty++;
  }
  const ms = results.map((r) => r.ms);
  return { queries: results.length, hit1: hit1 / n, hit5: hit5 / n, mrr: rr / n, empty, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** How a query is misspelt: each word of six letters or more loses its third letter ("lst all chanels"), or has its third and fourth swapped ("lsit all chnanels"). */
export type Typo = 'dropped' | 'swapped';

/** `query` with the typo `kind` in each word of six letters or more (a typo seldom touches a word's first letters or a short word). */
export function misspelt(query: string, kind: Typo): string {
  return query
    .split(' ')
    .map((w) => (w.length < 6 ? w : kind === 'dropped' ? w.slice(0, 2) + w.slice(3) : w.slice(0, 2) + w[3] + w[2] + w.slice(4)))
    .join(' ');
}

export type KnownItemKind = 'summary' | 'operationId' | 'method+path';

/**
 * Known-item queries over every endpoint: its summary verbatim, its operationId, or `METHOD /path`.
 * The same text on several endpoints (in any spec) is one query that any of them answers.
 */
export function knownItemQueries(endpoints: Iterable<Endpoint>, kind: KnownItemKind, setOf: (spec: string) => EvalSet): Query[] {
  const byText = new Map<string, { accept: string[]; spec: string }>();
  for (const e of endpoints) {
    const text = kind === 'summary' ? e.summary?.trim() : kind === 'operationId' ? e.operationId?.trim() : `${e.method} ${e.path}`;
    if (!text) continue;
    const entry = byText.get(text);
    if (entry) entry.accept.push(e.id);
    else byText.set(text, { accept: [e.id], spec: e.spec });
  }
  return [...byText].map(([text, { accept, spec }]) => ({
    // The spec of the first endpoint with this text: known-item figures are whole-catalogue,
    // the spec only says whose item it is (development or test API) for reports.
    spec,
    query: text,
    accept,
    set: setOf(spec),
    heldOut: false,
    place: `${kind} of ${accept[0]}`,
  }));
}
