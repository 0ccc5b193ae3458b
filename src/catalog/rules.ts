// Families of query and ranking rules, each on by default, and the switch the ablation bench uses
// to measure each with and without it. No imports: every module of the search room may read it.
/**
 * Families of query and ranking rules, each on by default. Every family has to earn its place on
 * the held-out test APIs: `npm run bench:search -- --quick --ablate` (bench/search-ablate.ts, also in
 * BENCHMARKS.md) measures each with and without it; the switch exists for that measurement only.
 * Last run (33 APIs, whole catalogue, test hit@1 / hit@5 / MRR, change with the family off): every
 * family but `pathWordsPrior` loses test hit@1 or MRR without it (`specChoice` -0.148 / -0.099 /
 * -0.120 the most, `abbreviations`, `synonyms`, `selfWords` and `missVerbHints` one query each).
 * `pathWordsPrior` off: +0.004 / -0.008 / +0.003: one test query more comes first, two leave the
 * top five (dev +0.004 / 0 / 0). Kept for the top five, a rule at the margin to measure again.
 * With the second test set (57 APIs, `--wide`; test2 never read): every family loses test or test2
 * MRR without it; none gains on both. Off, `verbHints` gains test2 +0.008 / 0 / +0.006 and loses
 * test -0.062 / -0.033 / -0.045; `synonyms`, `thingNotRead` and `selfWords` change nothing on
 * test2 (test -0.004, -0.008, -0.004 at hit@1); `pathWordsPrior` loses test2 -0.004 / 0 / -0.003.
 * `ownOrder` (session 14) off: test whole 0 / -0.004 / -0.001, test2 0 / -0.008 / -0.001, wide
 * -0.004 / -0.008 / -0.004; within a spec it changes nothing, by construction.
 */
export const RULES = {
  /** "the authenticated user", "current", "I": the caller, which APIs name `me`. */
  selfWords: true,
  /** Verbs that imply a CRUD intent (send -> create, rename -> update, revoke -> delete). */
  verbHints: true,
  /** The verb hints written from misses of the tuned query sets (take, release, mute, kick, purge, open). */
  missVerbHints: true,
  /** Abbreviations and spellings to one form (repo -> repository, org -> organization, msg -> message). */
  abbreviations: true,
  /** Words of one meaning to one (photo, picture, avatar -> image; mail -> email; sms -> message). */
  synonyms: true,
  /** Verb synonyms to the five CRUD verbs (fetch, retrieve -> get; remove, destroy -> delete; add -> create). */
  crudSynonyms: true,
  /** A command with no known verb ("rent a number") is probably not a read. */
  imperative: true,
  /** A query naming a thing and no action wants to read it. */
  thingNotRead: true,
  /** Collection vs item: "list", plurals, "all" want a collection; get/update/delete want an item. */
  shape: true,
  /** The endpoint's summary says what the query says and little else. */
  summaryFit: true,
  /** The query names the endpoint's resource and path words. */
  pathWords: true,
  /** The endpoint's operationId or path spells the query's verb (or another one). */
  verbAgreement: true,
  /** The share of path words the query says counts one said word of prior evidence. */
  pathWordsPrior: true,
  /** Across specs: the spec the query names, and specs whose vocabulary covers the query. */
  specChoice: true,
  /** Across specs: a spec whose whole name (or collection) the query says comes first, however common its words. */
  fullNames: true,
  /** Across specs: each spec's first hits in the order its own word statistics give them (a search within it). */
  ownOrder: true,
  /** A word no endpoint says and no English word, a typo's reach from a term of the catalogue, read as that term ("subscriptoin"). */
  spelling: true,
};
export type RuleFamily = keyof typeof RULES;

const listeners: (() => void)[] = [];

/** Call `fn` whenever rule families are switched (caches of what the rules produced must go). */
export function onRulesChange(fn: () => void): void {
  listeners.push(fn);
}

/** Run `fn` with some rule families switched (for the ablation bench), then restore them. */
export function withRules<T>(overrides: Partial<Record<RuleFamily, boolean>>, fn: () => T): T {
  const saved = { ...RULES };
  Object.assign(RULES, overrides);
  for (const l of listeners) l();
  try {
    return fn();
  } finally {
    Object.assign(RULES, saved);
    for (const l of listeners) l();
  }
}
