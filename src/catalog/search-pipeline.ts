// One search, start to end: a path the query names, then an endpoint the query quotes word for
// word, then the text ranking (the named API's matches first, see spec-choice.ts), and when no
// other word matched, the verbs alone.
import type { SearchHit } from './index.ts';
import type { Loaded } from './loaded.ts';
import { exactMatches, pathMatches } from './direct-matches.ts';
import { rankOne } from './rank-many.ts';
import { type Entry, type ParsedQuery, RULES, type Ranked, withTermsLowered, withVerbsSearched, withoutTerms } from './search.ts';
import { fullyNamed, namedSpecs } from './spec-choice.ts';
import type { SpecState } from './spec-state.ts';
import { NAMING_WORDS } from './weights.ts';

/** Which endpoints a search takes (its tag and method filters), and whether that is all of them. */
export interface Acceptance {
  readonly accept: (entry: Entry) => boolean;
  readonly all: boolean;
}

/** What the tag and method filters accept. */
export function acceptance(tag: string | undefined, method: string | undefined): Acceptance {
  const all = tag === undefined && method === undefined;
  const accept = all
    ? () => true
    : (entry: Entry) => (method === undefined || entry.endpoint.method === method) && (tag === undefined || entry.endpoint.tags.includes(tag));
  return { accept, all };
}

/**
 * How deep the ranking that orders several endpoints quoted word for word reaches. A fixed depth,
 * not the page's: the order must be the same for every page. Those past it keep catalogue order.
 */
const QUOTED_RANKED = 10;

/** The first `limit` hits of `query` (read as `parsed`) over `states`. */
export function searchHits(loaded: Loaded, states: readonly SpecState[], query: string, parsed: ParsedQuery, filter: Acceptance, limit: number): SearchHit[] {
  const { accept } = filter;
  const whole = states === loaded.states && states.length > 1 ? loaded.tables : undefined;
  // A path the query names outright comes first: the caller already knows what it wants.
  const named = parsed.paths.length > 0 ? pathMatches(states, parsed.paths, accept, limit, parsed.method, whole) : [];
  // Then an endpoint whose summary or operationId the query is, word for word. A query of a method
  // and paths alone is a path; one that says more and holds a path may be a summary that quotes one
  // ("Returns a user's following. (use /users/{user_id} instead)"): that endpoint comes first.
  const prose = parsed.words.length > 0;
  const exact = parsed.paths.length === 0 || prose ? exactMatches(states, parsed.exact, accept, whole) : [];
  const quoted = exact.length > 0 && named.length > 0;
  // Several endpoints say the same words: the ranking's first `QUOTED_RANKED` order them, so the
  // ranking reaches at least that deep.
  const depth = exact.length > 1 ? Math.max(limit, QUOTED_RANKED) : limit;
  // When the named path fills the page (the same path in many specs), the text ranking is not needed.
  let ranked = named.length >= limit && !quoted ? [] : rankText(loaded, states, query, parsed, depth, filter);
  // No other word matched: the verbs are what is left to find something by.
  const verbs = ranked.length === 0 && named.length < limit ? withVerbsSearched(parsed) : undefined;
  if (verbs) ranked = rankText(loaded, states, query, verbs, depth, filter);
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  const top = ranked[0]?.score ?? 1;
  const pushNamed = () => {
    for (const entry of named) {
      if (hits.length >= limit) break;
      if (seen.has(entry.endpoint.id)) continue;
      seen.add(entry.endpoint.id);
      hits.push({ endpoint: entry.endpoint, score: top * 2 + 1 });
    }
  };
  if (!quoted) pushNamed();
  if (exact.length > 0) {
    // Those among the ranking's first `QUOTED_RANKED` in its order, then the rest in catalogue order:
    // an order that does not depend on how deep the page reaches, or pages would show one twice.
    const place = new Map<Entry, number>();
    for (let i = 0; i < ranked.length && i < QUOTED_RANKED; i++) place.set(ranked[i]!.entry, i);
    const order = (e: Entry) => place.get(e) ?? QUOTED_RANKED;
    // The words match case and punctuation aside; a text the query is character for character
    // ("Create a Volume" beside another API's "Create a volume") is the one pasted, and goes first.
    const typed = query.trim();
    const literal = (e: Entry) => (e.endpoint.summary?.trim() === typed || e.endpoint.operationId?.trim() === typed ? 0 : 1);
    for (const entry of [...exact].sort((a, b) => literal(a) - literal(b) || order(a) - order(b))) {
      if (hits.length >= limit) break;
      if (seen.has(entry.endpoint.id)) continue;
      seen.add(entry.endpoint.id);
      hits.push({ endpoint: entry.endpoint, score: quoted ? top * 3 + 1 : top * 1.5 + 1 });
    }
  }
  if (quoted) pushNamed();
  for (const r of ranked) {
    if (hits.length >= limit) break;
    if (seen.has(r.entry.endpoint.id)) continue;
    hits.push({ endpoint: r.entry.endpoint, score: r.score });
  }
  return hits;
}

/** Ranks over one spec, or over several through the catalogue's ranker. */
export function rankIn(loaded: Loaded, states: readonly SpecState[], parsed: ParsedQuery, limit: number, filter: Acceptance): Ranked[] {
  if (states.length === 0) return [];
  if (states.length === 1) return rankOne(states[0]!, parsed, limit, filter.accept, filter.all);
  return loaded.ranker.rank(states, parsed, limit, filter.accept, filter.all);
}

/**
 * The text ranking over `states`. A query that names one of several APIs ("... in Trello") ranks
 * that API's matches first, searched without the naming words; the other APIs' matches follow.
 */
function rankText(loaded: Loaded, states: readonly SpecState[], query: string, parsed: ParsedQuery, limit: number, filter: Acceptance): Ranked[] {
  if (states.length === 1) {
    // Within one spec, its own name says nothing about which of its endpoints is meant.
    // Its name as the query writes it ("GitLab", whose terms are `git` and `lab`) counts as well as its name words.
    const full = RULES.specChoice && RULES.fullNames ? loaded.fullNames.named(query, new Set(states))?.terms : undefined;
    const own = RULES.specChoice ? parsed.terms.filter((t) => states[0]!.names.has(t) || full?.has(t)) : [];
    if (own.length === 0) return rankOne(states[0]!, parsed, limit, filter.accept, filter.all);
    const naming = new Set(own);
    const without = rankOne(states[0]!, withoutTerms(parsed, naming), limit, filter.accept, filter.all);
    return withNamingWords(without, limit, parsed, naming, (q) => rankOne(states[0]!, q, limit, filter.accept, filter.all));
  }
  const choice = RULES.specChoice ? ((RULES.fullNames ? fullyNamed(loaded, query, parsed, states) : undefined) ?? namedSpecs(loaded, parsed, states)) : undefined;
  if (!choice) return loaded.ranker.rank(states, parsed, limit, filter.accept, filter.all);
  // The named specs' matches first, searched without the naming words; then every other spec's.
  const dropped = new Set(parsed.terms.filter((t) => !choice.query.weights.has(t)));
  const first = withNamingWords(rankIn(loaded, choice.named, choice.query, limit, filter), limit, parsed, dropped, (q) => rankIn(loaded, choice.named, q, limit, filter));
  if (first.length >= limit) return first;
  const named = new Set(choice.named);
  return [...first, ...rankIn(loaded, states.filter((s) => !named.has(s)), parsed, limit - first.length, filter)];
}

/**
 * The named API's matches without the naming words, then, when they do not fill the page, its
 * matches with the naming words kept at a low weight (see `NAMING_WORDS`): they may be the only
 * words of the query that API holds, and a rule may lower a word's weight, never drop the only
 * words that match. When nothing matched without them, the verbs are searched too (as the search
 * does when no word matches at all).
 */
function withNamingWords(without: Ranked[], limit: number, parsed: ParsedQuery, naming: ReadonlySet<string>, rank: (q: ParsedQuery) => Ranked[]): Ranked[] {
  if (without.length >= limit) return without;
  const base = without.length === 0 ? (withVerbsSearched(parsed) ?? parsed) : parsed;
  const seen = new Set(without.map((r) => r.entry));
  const out = [...without];
  for (const r of rank(withTermsLowered(base, naming, NAMING_WORDS.weight))) {
    if (out.length >= limit) break;
    if (!seen.has(r.entry)) out.push(r);
  }
  return out;
}
