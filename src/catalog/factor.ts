// API conventions as one multiplier per endpoint: what the query asks (intent, method, one thing or
// many) against what the endpoint is (method, item or collection, the words of its path and
// summary). Every number comes from `WEIGHTS`; `factorBound` there is the largest this can give.
import type { Entry } from './document.ts';
import type { ParsedQuery } from './query.ts';
import type { Intent } from './text.ts';
import { RULES } from './rules.ts';
import { PATH_EVIDENCE, SIBLING_WEIGHTS, WEIGHTS } from './weights.ts';

/** 1 when the endpoint's own words say the intent, -1 when they say another, 0 when they say none. */
export function verbAgreement(verbs: readonly Intent[], intent: Intent): number {
  if (verbs.length === 0) return 0;
  if (verbs.includes(intent)) return 1;
  // Reading one and reading many are close: `GetCustomers` lists, `listX` may be asked to "get all X".
  if ((intent === 'list' && verbs.includes('get')) || (intent === 'get' && verbs.includes('list'))) return 0;
  return -1;
}

/**
 * Multiplier from what the query asks against what the endpoint is. `coverage` (0..1) is the
 * share of the query's weight the endpoint's text matched; `summary` its summary's distinct terms.
 */
export function factor(entry: Entry, q: ParsedQuery, coverage: number, summary: readonly string[] | undefined): number {
  const e = entry.endpoint;
  let f = coverage * coverage;
  if (q.method) f *= e.method === q.method ? WEIGHTS.namedMethod.same : WEIGHTS.namedMethod.other;
  if (q.intent) {
    const fit = WEIGHTS.methodFit[q.intent][e.method as keyof (typeof WEIGHTS.methodFit)[Intent]] ?? WEIGHTS.methodFitDefault;
    const verb = RULES.verbAgreement ? verbAgreement(entry.verbs, q.intent) : 0;
    if (q.hinted) {
      // An implied intent ("send") is weaker evidence than a CRUD verb.
      f *= Math.sqrt(fit);
      if (verb > 0) f *= WEIGHTS.hintedVerb.agrees;
    } else {
      f *= fit;
      if (verb > 0) f *= WEIGHTS.verb.agrees;
      else if (verb < 0) f *= WEIGHTS.verb.disagrees;
      // Neither the method nor the name says the endpoint does this (RPC-style APIs post everything).
      else if (fit < 1 && RULES.verbAgreement) f *= WEIGHTS.verb.unsaid;
    }
  } else if (q.imperative) {
    // "rent a number": an action we have no verb for, so probably not a read.
    if (e.method === 'GET') f *= WEIGHTS.imperativeRead;
    // Nor a removal the endpoint's own name spells (`removeWatchers` for "frobnicate a widget"): the
    // words that ask to remove are the known ones, and the query said none of them.
    else if (entry.verbs.includes('delete')) f *= SIBLING_WEIGHTS.imperativeRemoval;
  } else if (RULES.thingNotRead && e.method !== 'GET') {
    // A query that names a thing and no action ("my playlists", "tax rates") wants to read it.
    f *= WEIGHTS.thingNotRead;
  }
  if (RULES.shape) f *= shape(entry, q);
  if (RULES.pathWords) {
    if (entry.resource.length > 0) {
      let hits = 0;
      for (const t of entry.resource) if (q.weights.has(t)) hits++;
      f *= 1 + WEIGHTS.resource * (hits / entry.resource.length);
    }
    if (entry.pathWords.length > 0) {
      let hits = 0;
      for (const t of entry.pathWords) if (q.weights.has(t)) hits++;
      // One said word of prior evidence: a path none of whose words the query says is not thereby
      // the wrong one (its API may name things otherwise), and a short path loses less for it.
      const prior = RULES.pathWordsPrior ? PATH_EVIDENCE.prior : 0;
      const share = (hits + prior) / (entry.pathWords.length + prior);
      f *= WEIGHTS.pathWordsBase + (1 - WEIGHTS.pathWordsBase) * share;
    }
  }
  if (e.deprecated) f *= WEIGHTS.deprecated;
  if (RULES.summaryFit) f *= summaryFit(summary, q);
  return f;
}

/**
 * An endpoint whose summary says what the query says, and little else ("Deletes a message." for
 * "delete a message"), is the one asked for; a summary that adds qualifiers ("Deletes a pending
 * scheduled message") names a narrower operation.
 */
function summaryFit(summary: readonly string[] | undefined, q: ParsedQuery): number {
  if (!summary || q.said.size === 0) return 1;
  let shared = 0;
  // Stryker disable next-line UpdateOperator: the count enters squared ((shared / a) x (shared / b)), so counting down gives the same fit
  for (const t of summary) if (q.said.has(t)) shared++;
  return 1 + WEIGHTS.summaryFit * (shared / summary.length) * (shared / q.said.size);
}

/** Collections for "list ..." and plurals, items for "get/update/delete a ..." and "this". */
function shape(entry: Entry, q: ParsedQuery): number {
  const wantsCollection = q.intent === 'list' || q.intent === 'create' || (q.plural && q.intent !== 'update');
  const wantsItem = !wantsCollection && (q.intent === 'get' || q.intent === 'update' || q.intent === 'delete');
  if (wantsCollection) return entry.item ? WEIGHTS.shape.itemForCollection : 1;
  if (wantsItem) return entry.item ? 1 : WEIGHTS.shape.collectionForItem;
  return 1;
}
