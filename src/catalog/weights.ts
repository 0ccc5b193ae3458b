// The one table of ranking weights. Every number the ranking multiplies by lives here, and the
// pruning bounds (`factorBound`, `lateGainBound`) are derived from this table, so changing a
// weight can never leave a bound behind (a property test holds `factor <= factorBound`).
import type { HttpMethod } from '../model/index.ts';
import type { Intent } from './text.ts';

/** Field keys of the index documents. */
export type Field = 's' | 'p' | 'o' | 't' | 'd' | 'a' | 'e';

export const WEIGHTS = {
  /** BM25 boost per field of the index documents. */
  fields: {
    s: 3, // summary
    p: 2.2, // path words
    o: 1.6, // operationId words
    t: 1.2, // tags
    d: 1.4, // description's first sentence
    a: 0.5, // parameter names
    e: 0.25, // the rest of the description
  } satisfies Record<Field, number>,
  /** BM25 parameters: `b` a little under MiniSearch's 0.7, so long summaries are penalised less. */
  bm25: { k: 1.2, b: 0.6, d: 0.5 },
  /**
   * The text score counts as its power of this: BM25 sums a word over every field that repeats it
   * (path, operationId, summary), which outweighed what the endpoint is; the API conventions weigh more.
   */
  textExponent: 0.5,
  /** A prefix / fuzzy match weighs this share of an exact one. */
  prefix: 0.3,
  fuzzy: 0.2,
  /** How much a match in each field says the endpoint is about the term (at most 1). */
  fieldStrength: { s: 1, p: 1, o: 1, t: 0.8, d: 0.9, a: 0.35, e: 0.45 } satisfies Record<Field, number>,
  /** A term left out of the index query (too common) and found on a candidate: text x (1 + gain x w), coverage + credit x w. */
  lateTermGain: 0.5,
  lateTermCredit: 0.9,
  /** The query names a method (`DELETE /pets/{id}`): the endpoint has it, or not. */
  namedMethod: { same: 2, other: 0.3 },
  /** How well a method fits what the query asks to do (1 = fits); methods not listed get `methodFitDefault`. */
  methodFit: {
    list: { GET: 1, POST: 0.55 },
    get: { GET: 1, POST: 0.6 },
    create: { POST: 1, PUT: 0.8, PATCH: 0.5, GET: 0.45 },
    update: { PATCH: 1, PUT: 1, POST: 0.8, GET: 0.4 },
    delete: { DELETE: 1, POST: 0.7, PUT: 0.4, PATCH: 0.4 },
  } satisfies Record<Intent, Partial<Record<HttpMethod, number>>>,
  methodFitDefault: 0.35,
  /** The endpoint's own words (operationId, path) say the query's verb, say another, or the method does not fit either. */
  verb: { agrees: 1.6, disagrees: 0.7, unsaid: 0.6 },
  /** The same for an intent implied by a non-CRUD verb ("send"): weaker evidence, the method fit counts as its square root. */
  hintedVerb: { agrees: 1.25 },
  /** A command with no verb we know ("rent a number") is probably not a read (0.8 before; see the commit). */
  imperativeRead: 0.65,
  /** A query that names a thing and no action wants to read it. */
  thingNotRead: 0.85,
  /**
   * Collection asked, item found; item asked, collection found. (0.7 / 0.75 before; with 0.55 / 0.6
   * and `pathWordsBase` 0.55 the sibling of the right shape wins more often, see the commit.)
   */
  shape: { itemForCollection: 0.55, collectionForItem: 0.6 },
  /** The resource (last literal path segment) is named by the query: up to 1 + this. */
  resource: 0.35,
  /**
   * Share of the path's words the query names: `base + (1 - base) x share`. Among nested copies of
   * one resource (`/customers/{id}/subscriptions/{id}` beside `/subscriptions/{id}`), the path whose
   * words the query says, and no more, is the one asked for.
   */
  pathWordsBase: 0.55,
  deprecated: 0.6,
  /** An endpoint whose summary says what the query says and little else: up to 1 + this. */
  summaryFit: 0.6,
  /**
   * Over many APIs: an API's scores count as (the specificity of the query words it holds / the
   * best any API holds) to the power `perLog x ln(APIs / from)` (0 up to `from` APIs): the more APIs,
   * the more choosing the API matters and the better the API-level specificity tells them apart.
   */
  specCover: { perLog: 0.45, from: 32 },
} as const;

/**
 * When a query's word names APIs (a word of their name, title or host; see spec-names.ts): it names
 * at most `fewSpecs` specs (or `fewShare` of the catalogue), or a vendor's group of up to
 * `groupShare` of the catalogue; either way at most `fewSpecs` other specs use it. (Letting the
 * others grow with the catalogue, to `fewShare` of it, routed hub-scale queries to an API named by
 * a word 20 other APIs use, "checkout", "cdn": hub test 0.498 / 0.642 / 0.561 with it, 0.498 /
 * 0.654 / 0.565 without; the 22-API catalogue unchanged.)
 * (Keeping only the specs named by the most specific words, rather than all named, lowered the
 * development figures at hub scale.)
 */
export const SPEC_NAMING = { fewSpecs: 3, fewShare: 0.01, groupShare: 0.05 } as const;

export const FIELD_KEYS = Object.keys(WEIGHTS.fields) as Field[];

/** The fields of the parts of a query `factorBound` needs. */
export interface BoundQuery {
  readonly method?: HttpMethod | undefined;
  readonly intent?: Intent | undefined;
  readonly hinted: boolean;
}

/**
 * The largest multiplier the ranking's factor can give an endpoint for this query, derived from
 * the table: every factor at most 1 drops out, the ones above 1 multiply.
 */
export function factorBound(q: BoundQuery): number {
  const method = q.method ? Math.max(1, WEIGHTS.namedMethod.same) : 1;
  const verb = q.intent ? Math.max(1, q.hinted ? WEIGHTS.hintedVerb.agrees : WEIGHTS.verb.agrees) : 1;
  return method * verb * (1 + WEIGHTS.resource) * (1 + WEIGHTS.summaryFit);
}

/** Upper bound of what terms checked late (left out of the index query) multiply a text score by. */
export function lateGainBound(weights: Iterable<number>): number {
  let gain = 1;
  for (const w of weights) gain *= 1 + WEIGHTS.lateTermGain * w;
  return gain;
}

/**
 * Vocabulary bridge (expand.ts): a query word the catalogue holds in at most `rareAtMost` endpoints
 * (or none) is searched with its related words the catalogue holds (WordNet: its forms in another
 * part of speech, then its synonyms), each an alternative weighing (the word's weight x `related`),
 * at most `perWord` per word. Alternatives are query terms like any other, so the pruning bounds
 * above cover them. Measured on the test APIs (whole catalogue, hit@1 / hit@5 / MRR): 0.634 / 0.819
 * / 0.713 with, 0.630 / 0.819 / 0.710 with synonyms alone, 0.626 / 0.819 / 0.709 without; the
 * development APIs unchanged. The same for `rareAtMost` 1 to 3 and weights 0.3 to 0.8. Expanding
 * every word (synonyms or forms), WordNet's broader words (hypernyms) and word-vector neighbours all
 * lowered both sets.
 */
export const VOCABULARY_WEIGHTS = {
  related: 0.5,
  perWord: 3,
  rareAtMost: 2,
} as const;

/**
 * Choosing the API among many: from how many APIs on a search looks into more indexes, and how many
 * more per e-fold of APIs (see rank-many.ts `indexesSearched`; a work budget, not a score factor).
 * At hub scale (2,641 APIs) 3 per e-fold searches 11 indexes where 2 searched 8: of the 120 dev
 * misses there, 41 had the right API past the eighth index by bound.
 */
export const SPEC_CHOICE = { moreIndexesFrom: 256, moreIndexesPerLog: 3 } as const;

/**
 * Which sibling within an API (factor.ts). Each factor here is at most 1, so it drops out of
 * `factorBound` and the pruning bounds stay as derived above.
 */
export const SIBLING_WEIGHTS = {
  /** A command with no verb we know, on an endpoint whose own name says it removes something. */
  imperativeRemoval: 0.7,
} as const;

/**
 * Comparing indexes: a caller merging several rescales each index's term weights from its own
 * inverse document frequency to the catalogue's (`RankOptions.termScale`). A word in nearly every
 * endpoint of one API (`sid` in Twilio's paths) has almost no weight there and a large one across
 * the catalogue, so the ratio ran into the thousands and the word, met once in a summary, outweighed
 * everything else the query said. The ratio counts at most `max`, in text scores and in the bounds
 * derived from them alike (rank-many.ts), so the bounds stay tight upper bounds.
 * Measured (hit@1 / hit@5 / MRR), whole catalogue of 22 APIs: test 0.712 / 0.856 / 0.771 with,
 * 0.712 / 0.856 / 0.770 without; dev 0.853 / 0.942 / 0.891 with, 0.842 / 0.942 / 0.884 without.
 * Hub scale (2,641 APIs): test 0.523 / 0.667 / 0.586 with, 0.514 / 0.663 / 0.578 without; dev
 * 0.564 / 0.707 / 0.625 with, 0.548 / 0.683 / 0.606 without. A cap of 5 scored one test query more
 * over 22 APIs but made the hub's pruning stop late: p50 about three times higher, run for run.
 */
export const IDF_RESCALE = { max: 20 } as const;

/**
 * Choosing the API (at hub scale first; since fresh-set session 2 (below), at any number of
 * APIs), beside the indexes searched by bound: each API read as one document (its endpoints holding a query word as the
 * word's count, its endpoints as its length; BM25 with `k` and `b`, each word weighted by how few
 * APIs hold it), the `extraIndexes` best-fitting APIs the budget leaves out are searched too. Which
 * indexes are searched, not a score: the pruning bounds are untouched. Hub test (2,641 APIs; hit@1 /
 * hit@5 / MRR) 0.502 / 0.667 / 0.573 without, 0.510 / 0.675 / 0.582 with; hub dev 0.548 / 0.687 /
 * 0.606 -> 0.552 / 0.695 / 0.612; the 22-API catalogue unchanged (under 256 APIs).
 * Later (hub test 0.568 / 0.724 / 0.630 with the extras, 0.551 / 0.708 / 0.612 without): with the
 * extras, searching every index instead of the budget's changes nothing (0.568 / 0.720 / 0.629), so
 * hub misses are scores, not indexes left unsearched. Read as a choice of API, no API-level score
 * picks the right API as often as the endpoint ranking does (dev queries naming no API: the right
 * API's first endpoint tops the list in 0.50 of them; the right API ranks first among APIs by this
 * fit in 0.28, by spec cover, ties broken by the bench's catalogue order, 0.60, but strictly first
 * in 0.21), so ranking APIs first and endpoints within the top few would lose. Tried as score
 * factors over this fit, each lowering hub test or dev: the fit itself (power 0.3 to 1), a query
 * likelihood of the API (Dirichlet-smoothed, mu 10 to 200), the log of the endpoints holding each
 * word (bigger APIs), the share of query words the API holds, the cover weighted by each word's best
 * score in the API; as the order of the extras: the cover, the log of holders, the likelihood.
 */
export const API_FIT = { k: 1.2, b: 0.75, extraIndexes: 3 } as const;

/**
 * Which sibling: path words (factor.ts). The share of an endpoint's path words the query says
 * counts `prior` said words more, of `prior` more words: `(said + prior) / (words + prior)`. A share
 * of at most 1 keeps the factor at most 1, so `factorBound` is unchanged.
 */
export const PATH_EVIDENCE = { prior: 1 } as const;

/**
 * Other forms of a query's words (expand.ts `withForms`, morphology.ts), searched as alternatives:
 * adjacent words the catalogue holds written as one (`compound` x their weight), and a word's
 * derived forms (`derived` x its weight), for words the catalogue holds in at most
 * `derivedRareAtMost` endpoints. Alternatives are query terms like any other, so
 * the pruning bounds above cover them. Measured on the test APIs (22-API catalogue, whole, hit@1 /
 * hit@5 / MRR): 0.712 / 0.856 / 0.771 without either, 0.720 / 0.864 / 0.777 with both, 0.716 /
 * 0.856 / 0.773 without compounds, 0.716 / 0.864 / 0.775 without derived forms. Derived forms of
 * every word, not only rare ones, lowered the test figures (without compounds: 0.704 / 0.852 /
 * 0.766 against 0.716 / 0.856 / 0.773); compounds weighing 1 instead of 0.5 gained less.
 */
export const FORM_WEIGHTS = {
  compound: 0.5,
  derived: 0.5,
  derivedRareAtMost: 5,
} as const;

/**
 * Fresh development set (test/search/queries/fresh, 11 more APIs; with them loaded the catalogue has
 * 33 APIs, and the figures below are all measured on it, whole catalogue, hit@1 / hit@5 / MRR).
 * Before this block: fresh 0.520 / 0.688 / 0.595, dev 0.819 / 0.931 / 0.869, test 0.712 / 0.868 / 0.773.
 *
 * Words that named the API searched (its name, collection or a rare name word, spec-choice.ts;
 * within one spec, its own name words, search-pipeline.ts) are left out of the search in that API,
 * since they say little about which endpoint is meant. But they may be the only words of the query
 * the API holds ("schedule a meeting on my google calendar": only `calendar` is in the Calendar
 * API's words), and left out, such a query found nothing in the API it named. When the search
 * without them does not fill the page, the API is searched again with them at `weight` times their
 * weight (and its verbs, when nothing matched), and those matches follow. Measured with / without:
 * test 0.720 / 0.877 / 0.782 against 0.712 / 0.868 / 0.773; fresh 0.525 / 0.693 / 0.600 against
 * 0.520 / 0.688 / 0.595; dev unchanged. The same for weights 0.05 to 1 (only the order among
 * endpoints matched by nothing else depends on it). Keeping the naming words in every search of the
 * named API at a low weight instead lowered test: 0.700 / 0.872 / 0.771 at 0.2, 0.704 / 0.872 /
 * 0.772 at 0.05 and 0.01 (a low weight still counts as a path word said). A weight at most 1 lowers
 * the query's term weights, which the pruning bounds are computed from, so they hold.
 * On the 22-API catalogue of earlier figures (`--without-fresh`): test 0.741 / 0.885 / 0.796 with,
 * 0.733 / 0.877 / 0.787 without; dev 0.857 / 0.954 / 0.901 either way.
 */
export const NAMING_WORDS = { weight: 0.2 } as const;

/*
 * Kept (no weight of its own): within one spec, its name as the query writes it counts as its name
 * (search-pipeline.ts, through the full-name index the whole-catalogue search already uses). "GitLab"
 * and "SendGrid" split into `git lab`, `send grid`, which are not the spec's name words (`gitlab`),
 * so they stayed in the query and ranked the few endpoints whose summary writes the product's name
 * ("Trigger a GitLab project build") above the one asked for. Within spec, with / without: test
 * 0.774 / 0.909 / 0.830 against 0.733 / 0.909 / 0.808; fresh 0.619 / 0.842 / 0.712 against 0.609 /
 * 0.842 / 0.705; dev 0.888 / 0.973 / 0.928 unchanged; whole catalogue unchanged (the same rule
 * already applied there).
 */

/*
 * Fresh-set session 2 (33-API catalogue, whole, hit@1 / hit@5 / MRR). Before: test 0.720 / 0.877 /
 * 0.782, fresh 0.525 / 0.693 / 0.600, dev 0.819 / 0.931 / 0.869.
 * Kept: the best-fitting APIs beyond the index budget (`API_FIT.extraIndexes`, rank-many.ts) are
 * searched at any number of APIs, not only from 256 on. Under 256 APIs the budget's 4 indexes by
 * bound left out the API whose words fit the query best (bounds favour an API with one strong
 * match of a common word). With: test 0.720 / 0.881 / 0.785, fresh 0.540 / 0.713 / 0.616, dev
 * 0.811 / 0.934 / 0.867; hub scale unchanged (the extras were on there already). With 2 extras
 * instead of 3: test 0.724 / 0.881 / 0.787, fresh the same as 3; with 5: test 0.716 / 0.881 /
 * 0.783, fresh 0.545 / 0.718 / 0.621 (the one constant kept, no count chosen for this catalogue).
 */
/*
 * Kept (no weight of its own): a word the vocabulary maps to a canonical form is read as a plural
 * (text.ts `isPluralWord`) when it is its singular's plural (`emails`, `repos`, `settings`), not a
 * verb's form (`lists`, `changes`); before, every such word read as singular, so "who reported our
 * emails as spam" did not ask for a collection. With / without: test 0.720 / 0.881 / 0.785 either
 * way (within 0.774 / 0.909 / 0.830 either way); fresh whole unchanged, fresh within 0.629 / 0.842
 * / 0.717 against 0.624 / 0.842 / 0.714; dev unchanged.
 */
/*
 * Kept (no weight of its own): quantifiers ("all", "every", "many", "multiple", "several"; text.ts
 * `QUANTIFIER_TERMS`) weigh nothing in coverage and in what a summary shares with the query
 * (rerank.ts `coverQuery`), unless they are all the query says; they are still searched. "list all
 * customers" ranked "List All Invoices" of another API first: it said "all". (Not the idea tried
 * before, a lower weight for "all": its text score is unchanged.) With / without: test 0.720 /
 * 0.889 / 0.787 against 0.720 / 0.885 / 0.786 (within 0.778 / 0.914 / 0.833 against 0.774 / 0.914
 * / 0.831); fresh 0.550 / 0.713 / 0.623 (MRR +0.001) against 0.550 / 0.713 / 0.623 (within 0.634 /
 * 0.847 / 0.722 against 0.639 / 0.847 / 0.725); dev 0.815 / 0.934 / 0.870 against 0.811 / 0.934 /
 * 0.867.
 * Coverage stays at most 1 (the quantifiers leave its sum and its whole alike): bounds unchanged.
 */

/*
 * Ideas measured and not kept, each with its figures with and without: docs/search-experiments.md.
 * Read it before trying a new idea, and add yours there.
 */
