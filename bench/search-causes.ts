// Why development queries miss within their own API, told by the words: does the answer hold the
// query's words at all, fewer of them than the endpoint ranked first, or as many (then the ranking's
// conventions chose among endpoints the words do not tell apart: which sibling)? Development sets
// only: test results are never classified (bench/search-eval.ts `--misses`).
import type { Catalog } from '../src/catalog/index.ts';
import { documentOf, makeEntry, parseQuery } from '../src/catalog/search.ts';
import { specNameTerms } from '../src/catalog/spec-names.ts';
import type { Endpoint, ImportedSpec } from '../src/model/index.ts';
import type { QueryResult } from '../test/search/measure.ts';

export interface WordCauses {
  readonly misses: number;
  /** The query says no word but its API's name (or words the index drops). */
  readonly noContentWord: number;
  /** The answer holds none of the query's words: the user's words are not the API's. */
  readonly noneHeld: number;
  /** The answer holds fewer of them than the endpoint ranked first. */
  readonly fewerHeld: number;
  /** As many as the first: on the same path by another method, on a path above or below it, or on another path. */
  readonly asManySamePath: number;
  readonly asManyNestedPath: number;
  readonly asManyOtherPath: number;
  /** More of them than the first: the conventions put an endpoint that says less first. */
  readonly moreHeld: number;
}

/** What an endpoint says: the terms of its index document's summary, path, operationId and description's first sentence. */
function endpointTerms(e: Endpoint): Set<string> {
  const doc = documentOf(makeEntry(e, 0));
  return new Set([...doc.s, ...doc.p, ...doc.o, ...doc.d]);
}

const placeholders = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

/** Classifies the within-spec misses among `results` (development queries only). */
export function wordCauses(results: readonly QueryResult[], catalog: Catalog, specs: readonly ImportedSpec[]): WordCauses {
  const byId = new Map(catalog.list({}).map((e) => [e.id, e]));
  const names = new Map(specs.map((s) => [s.name, specNameTerms(s)]));
  const counts = { noContentWord: 0, noneHeld: 0, fewerHeld: 0, asManySamePath: 0, asManyNestedPath: 0, asManyOtherPath: 0, moreHeld: 0 };
  const missed = results.filter((r) => r.rank !== 1);
  for (const r of missed) {
    const own = names.get(r.query.spec) ?? new Set<string>();
    const words = parseQuery(r.query.query).terms.filter((t) => !own.has(t));
    if (words.length === 0) {
      counts.noContentWord++;
      continue;
    }
    const held = (e: Endpoint | undefined): number => {
      if (!e) return 0;
      const said = endpointTerms(e);
      return words.filter((t) => said.has(t)).length;
    };
    const answers = r.query.accept.map((id) => byId.get(id)).filter((e): e is Endpoint => e !== undefined);
    const answerHeld = Math.max(0, ...answers.map(held));
    const top = r.top[0] === undefined ? undefined : byId.get(r.top[0]);
    const topHeld = held(top);
    if (answerHeld === 0) counts.noneHeld++;
    else if (answerHeld < topHeld) counts.fewerHeld++;
    else if (answerHeld > topHeld) counts.moreHeld++;
    else {
      const a = placeholders(answers[0]!.path);
      const t = placeholders(top!.path);
      if (a === t) counts.asManySamePath++;
      else if (a.startsWith(`${t}/`) || t.startsWith(`${a}/`)) counts.asManyNestedPath++;
      else counts.asManyOtherPath++;
    }
  }
  return { misses: missed.length, ...counts };
}

export function wordCauseLine(c: WordCauses, label: string): string {
  return (
    `${label} misses ${c.misses}, by the query's words: the answer holds none ${c.noneHeld}; fewer than the first ${c.fewerHeld}; ` +
    `as many as the first ${c.asManySamePath + c.asManyNestedPath + c.asManyOtherPath} (same path, another method ${c.asManySamePath}; a path above or below ${c.asManyNestedPath}; another path ${c.asManyOtherPath}); ` +
    `more than the first ${c.moreHeld}; no word but the API's name ${c.noContentWord}`
  );
}
