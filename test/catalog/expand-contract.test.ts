// The query's alternatives (expand.ts) against the rules their documentation states, on generated
// queries, vocabularies and catalogue counts: which words are looked up (rare, one term, not a verb,
// not an alternative already, the first 12 words, each once), which related words are taken (one
// word, one term, held, new, not a verb; at most 3 a word; never past 32 terms), at what weight;
// and the same for other forms (closed compounds of up to three words, derived forms of rare words).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type QueryVocabulary, withAlternatives, withForms } from '../../src/catalog/expand.ts';
import { derivedForms } from '../../src/catalog/morphology.ts';
import { MAX_SEARCHED_TERMS, type ParsedQuery, parseQuery } from '../../src/catalog/query.ts';
import { intentOfTerm, splitWords, termsOf } from '../../src/catalog/text.ts';
import { FORM_WEIGHTS, VOCABULARY_WEIGHTS } from '../../src/catalog/weights.ts';

const oneTerm = (word: string) => {
  const t = termsOf(word);
  return t.length === 1 ? t[0] : undefined;
};

/** What withAlternatives adds, as its documentation states it: [term, weight, source] in order. */
function alternativesModel(q: ParsedQuery, vocabulary: QueryVocabulary, documents: (t: string) => number): [string, number, string][] {
  const out: [string, number, string][] = [];
  const has = (t: string) => q.weights.has(t) || out.some(([x]) => x === t);
  const looked = new Set<string>();
  for (const word of q.words) {
    if (looked.size >= 12 || q.terms.length + out.length >= MAX_SEARCHED_TERMS) break;
    if (looked.has(word)) continue;
    looked.add(word);
    const source = oneTerm(word);
    if (source === undefined) continue;
    const weight = q.weights.get(source);
    if (weight === undefined || intentOfTerm(source) !== undefined || q.alternatives?.has(source)) continue;
    if (documents(source) > VOCABULARY_WEIGHTS.rareAtMost) continue;
    let added = 0;
    for (const related of vocabulary.related(word)) {
      if (added >= VOCABULARY_WEIGHTS.perWord || q.terms.length + out.length >= MAX_SEARCHED_TERMS) break;
      const words = splitWords(related);
      const term = words.length === 1 ? oneTerm(words[0]!) : undefined;
      if (term === undefined || has(term) || intentOfTerm(term) !== undefined || documents(term) === 0) continue;
      out.push([term, weight * VOCABULARY_WEIGHTS.related, source]);
      added++;
    }
  }
  return out;
}

/** The terms, weights and sources `x` added to `q`. */
function added(q: ParsedQuery, x: ParsedQuery): [string, number, string][] {
  assert.deepEqual(x.terms.slice(0, q.terms.length), q.terms, 'the query\'s own terms come first, unchanged');
  for (const t of q.terms) assert.equal(x.weights.get(t), q.weights.get(t), t);
  for (const [t, s] of q.alternatives ?? []) assert.equal(x.alternatives?.get(t), s, `earlier alternative ${t} kept`);
  return x.terms.slice(q.terms.length).map((t) => [t, x.weights.get(t)!, x.alternatives!.get(t)!]);
}

const RARE = ['invoice', 'ledger', 'voucher', 'parcel', 'ticket', 'badge', 'quota', 'widget', 'gadget', 'banner', 'coupon', 'tariff', 'pallet', 'docket', 'permit'];
const RELATED = ['bill', 'receipt', 'charge', 'statement', 'fetch', 'credit card', 'pr', 'the', 'invoice', 'tab', 'check', 'token', 'slip', 'record'];

describe('withAlternatives', () => {
  const vocabularyArb = fc.dictionary(fc.constantFrom(...RARE, 'list', 'pr'), fc.array(fc.constantFrom(...RELATED), { maxLength: 7 }));
  const queryArb = fc.array(fc.constantFrom(...RARE, 'list', 'the', 'pr', 'bill'), { minLength: 0, maxLength: 16 });

  it('adds exactly the related words its rules allow, at half the weight of the word they stand for (generated)', () => {
    fc.assert(
      fc.property(queryArb, vocabularyArb, fc.dictionary(fc.constantFrom(...RARE.map((w) => termsOf(w)[0]!), ...RELATED.flatMap((w) => termsOf(w))), fc.nat(4)), (words, related, counts) => {
        const vocabulary: QueryVocabulary = { related: (w) => related[w] ?? [] };
        const documents = (t: string) => counts[t] ?? 0;
        const q = parseQuery(words.join(' '));
        const x = withAlternatives(q, vocabulary, documents);
        const expected = alternativesModel(q, vocabulary, documents);
        assert.deepEqual(added(q, x), expected, words.join(' '));
        if (expected.length === 0) assert.equal(x, q, 'nothing to add: the query itself');
        assert.ok(x.terms.length <= Math.max(q.terms.length, MAX_SEARCHED_TERMS));
      }),
      { numRuns: 600 },
    );
  });

  const everything: QueryVocabulary = { related: () => ['bill', 'receipt', 'charge', 'statement', 'slip', 'record'] };

  it('takes at most three related words a word, however often the word is said', () => {
    const x = withAlternatives(parseQuery('invoice invoice invoice'), everything, () => 1);
    assert.deepEqual(x.terms.slice(x.terms.length - 3), ['bill', 'receipt', 'charg']);
    assert.equal(x.terms.length, 1 + 3);
  });

  it('looks up the first twelve words only', () => {
    const words = RARE.slice(0, 14);
    const byWord: QueryVocabulary = { related: (w) => [`${w}zz`] };
    const x = withAlternatives(parseQuery(words.join(' ')), byWord, () => 1);
    const sources = new Set(x.alternatives?.values());
    assert.equal(sources.size, 12);
    assert.ok(!sources.has(oneTerm(words[12]!)!) && !sources.has(oneTerm(words[13]!)!));
  });

  it('looks up a word held in at most two endpoints, not three', () => {
    for (const [n, expands] of [[0, true], [2, true], [3, false]] as const) {
      const x = withAlternatives(parseQuery('invoice'), everything, (t) => (t === 'invoic' ? n : 1));
      assert.equal(x.terms.length > 1, expands, `held ${n} times`);
    }
  });

  it('keeps the alternatives the query had, and never looks up a word that is one of them', () => {
    const formed = withForms(parseQuery('web hook'), (t) => (t === 'webhook' ? 1 : 0));
    assert.ok(formed.alternatives?.has('webhook'));
    const x = withAlternatives({ ...formed, words: [...formed.words, 'webhook'] }, { related: (w) => (w === 'webhook' ? ['callback'] : ['bill']) }, () => 1);
    assert.equal(x.alternatives?.get('webhook'), 'web');
    assert.ok(!x.terms.includes('callback'));
  });

  it('stops at 32 searched terms', () => {
    const many: QueryVocabulary = { related: (w) => [`${w}aa`, `${w}bb`, `${w}cc`] };
    const words = Array.from({ length: 12 }, (_, i) => `rareword${String.fromCharCode(97 + i)}`);
    const q = parseQuery(words.join(' '));
    const x = withAlternatives(q, many, () => 1);
    assert.equal(x.terms.length, Math.min(MAX_SEARCHED_TERMS, q.terms.length + 3 * words.length));
    const full = withAlternatives({ ...q, terms: [...q.terms, ...Array.from({ length: MAX_SEARCHED_TERMS - q.terms.length }, (_, i) => `pad${i}`)] }, many, () => 1);
    assert.equal(full.alternatives?.size ?? 0, 0);
  });
});

/** What withForms adds, as its documentation states it: [term, weight, source] in order. */
function formsModel(q: ParsedQuery, documents: (t: string) => number): [string, number, string][] {
  const out: [string, number, string][] = [];
  const add = (term: string, weight: number, source: string) => {
    if (weight <= 0 || q.weights.has(term) || out.some(([t]) => t === term) || intentOfTerm(term) !== undefined) return;
    if (q.terms.length + out.length >= MAX_SEARCHED_TERMS || documents(term) === 0) return;
    out.push([term, weight, source]);
  };
  const words = q.words;
  for (let i = 0; i < words.length && i < 24; i++) {
    let joined = words[i]!;
    const own = oneTerm(joined);
    let source = own !== undefined && q.weights.has(own) ? own : undefined;
    let weight = source !== undefined ? q.weights.get(source)! : 0;
    for (let j = i + 1; j < words.length && j < i + 3; j++) {
      joined += words[j]!;
      const part = oneTerm(words[j]!);
      if (part !== undefined && q.weights.has(part)) {
        source ??= part;
        weight = Math.max(weight, q.weights.get(part)!);
      }
      const term = oneTerm(joined);
      if (term !== undefined && source !== undefined) add(term, weight * FORM_WEIGHTS.compound, source);
    }
    if (own === undefined || !q.weights.has(own) || documents(own) > FORM_WEIGHTS.derivedRareAtMost) continue;
    for (const form of derivedForms(words[i]!)) {
      const term = oneTerm(form);
      if (term !== undefined && term !== own) add(term, q.weights.get(own)! * FORM_WEIGHTS.derived, own);
    }
  }
  return out;
}

describe('withForms', () => {
  const WORDS = ['web', 'hook', 'sign', 'in', 'up', 'subscribe', 'assign', 'react', 'the', 'my', 'list', 'delete', 'pod', 'auto', 'scaler', 'horizontal'];
  const HELD = ['webhook', 'signin', 'signup', 'subscription', 'assignment', 'reaction', 'autoscal', 'podautoscal', 'horizontalpod', 'webhookhook', 'delet', 'list'];

  it('adds exactly the other forms its rules allow, at their weights (generated)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 9 }), fc.dictionary(fc.constantFrom(...HELD, 'subscrib', 'assign', 'react'), fc.nat(7)), (words, counts) => {
        const documents = (t: string) => counts[t] ?? 0;
        const q = parseQuery(words.join(' '));
        const x = withForms(q, documents);
        const expected = formsModel(q, documents);
        assert.deepEqual(added(q, x), expected, words.join(' '));
        if (expected.length === 0) assert.equal(x, q);
      }),
      { numRuns: 600 },
    );
  });

  it('joins at most three adjacent words, and the heaviest of them sets the weight', () => {
    const q = parseQuery('horizontal pod auto scaler');
    const [three, other, four] = ['horizontalpodauto', 'podautoscaler', 'horizontalpodautoscaler'].map((w) => oneTerm(w)!);
    const x = withForms(q, (t) => (t === three || t === other || t === four ? 1 : 0));
    assert.ok(x.terms.includes(three!) && x.terms.includes(other!), x.terms.join(' '));
    assert.ok(!x.terms.includes(four!), 'four words are not joined');
    const heaviest = Math.max(...['horizontal', 'pod', 'auto'].map((w) => q.weights.get(oneTerm(w)!) ?? 0));
    assert.equal(x.weights.get(three!), heaviest * FORM_WEIGHTS.compound);
  });

  it('adds no form for words of no weight', () => {
    const q = parseQuery('web hook');
    const weightless = { ...q, weights: new Map([...q.weights.keys()].map((t) => [t, 0])) };
    assert.equal(withForms(weightless, () => 1), weightless);
    assert.ok(withForms(q, () => 1).terms.includes(oneTerm('webhook')!));
  });

  it('derives forms of a word held in at most five endpoints, not six', () => {
    const form = oneTerm('subscription')!;
    for (const [n, derives] of [[5, true], [6, false]] as const) {
      const x = withForms(parseQuery('subscribe'), (t) => (t === form ? 1 : n));
      assert.equal(x.terms.includes(form), derives, `held ${n} times`);
    }
  });

  it('stops at 32 searched terms, and looks at the first 24 words only', () => {
    const q = parseQuery(Array.from({ length: 20 }, (_, i) => `web${String.fromCharCode(97 + i)} hook`).join(' '));
    const x = withForms(q, () => 1);
    assert.ok(x.terms.length <= MAX_SEARCHED_TERMS);
    const late = parseQuery(`${Array.from({ length: 24 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}x`).join(' ')} sign in`);
    assert.equal(withForms(late, (t) => (t === 'signin' ? 1 : 0)).terms.includes('signin'), false);
  });
});
