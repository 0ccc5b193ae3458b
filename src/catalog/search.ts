// The search room's public surface inside the catalogue: reading queries (query.ts), what an
// endpoint is to the index (document.ts), building a spec's index (index-build.ts), ranking within
// one index (rank.ts, factor.ts), and the one table of weights and pruning bounds (weights.ts).
export { type Doc, type Entry, type PathCache, makeEntry, documentOf, normalizePath, pathTerms, lastSegment } from './document.ts';
export { type BuiltIndex, type IndexImage, MINI_OPTIONS, type MiniIndexData, buildIndex } from './index-build.ts';
export { type ParsedQuery, MAX_QUERY_CHARS, MAX_QUERY_WORDS, MAX_SEARCHED_TERMS, QueryTooLargeError, exactKey, parseQuery, withTermsLowered, withVerbsSearched, withoutTerms } from './query.ts';
export { PREFIX_MIN, type RankOptions, type Ranked, SearchIndex, boundOf } from './rank.ts';
export { WEIGHTS, factorBound } from './weights.ts';
export { RULES, type RuleFamily, withRules } from './rules.ts';
