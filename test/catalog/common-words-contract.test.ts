// Queries of common words, from the contract of each step: when an index narrows (its rarest held
// word in more than 1,500 documents, or in more than 100 and a fifth of them, and no filter); which
// documents a common word scores (only those a rarer word marked first, prefixes of rare words
// counting as rare); which candidates are taken (heavy terms only, resources first, the first set
// whole and the rest within 2,000) and which 600 of too many (the best fits, then document order).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type IndexView, candidateGate, gateCommon, namedDocuments, narrows } from '../../src/catalog/narrowing.ts';
import { makeEntry, parseQuery } from '../../src/catalog/search.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { endpoint, summaryScan } from './fixtures.ts';

const viewOf = (size: number, df: Record<string, number>): IndexView => ({ size, df: (t) => df[t] ?? 0, entryOf: () => undefined, summaryOf: () => undefined });

describe('narrows', () => {
  it('narrows past 1,500 documents, or past 100 and a fifth of the index, and never under a filter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 20_000 }), fc.boolean(), (rarest, size, all) => {
        const want = all && (rarest > 1500 || (rarest > 100 && rarest > size * 0.2));
        assert.equal(narrows(viewOf(size, {}), rarest, all), want, `${rarest} of ${size}`);
      }),
      { numRuns: 2000 },
    );
    for (const [rarest, size, want] of [[1501, 100_000, true], [1500, 100_000, false], [101, 500, true], [100, 400, false], [101, 505, false], [102, 505, true]] as const) {
      assert.equal(narrows(viewOf(size, {}), rarest, true), want, `${rarest} of ${size}`);
    }
  });
});

describe('gateCommon', () => {
  /** Runs the gate as MiniSearch does, term by term in query order, and returns what each term scored. */
  function scored(gate: ReturnType<typeof gateCommon>, terms: readonly string[], docsOf: Record<string, number[]>): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const t of terms) out[t] = (docsOf[t] ?? []).filter((d) => (gate ? gate(d, t) : 1) > 0);
    return out;
  }

  it('lets a common word score only documents a rarer word scored first', () => {
    const view = viewOf(1000, { zeta: 50, alpha: 500, beta: 600, edge: 200, over: 201 });
    const docs = { zeta: [1, 2, 3], alpha: [1, 3, 4, 5], beta: [2, 4, 6], edge: [4, 7], over: [7, 8] };
    const gate = gateCommon(view, ['zeta', 'alpha', 'beta'], false, undefined);
    assert.deepEqual(scored(gate, ['zeta', 'alpha', 'beta'], docs), { zeta: [1, 2, 3], alpha: [1, 3], beta: [2] });
    // A document the inner gate refuses is not marked by the rare word either.
    const inner = (id: number) => (id === 3 ? 0 : 1);
    assert.deepEqual(scored(gateCommon(view, ['zeta', 'alpha'], false, inner), ['zeta', 'alpha'], docs), { zeta: [1, 2], alpha: [1] });
    // The threshold is inclusive: 200 of 1,000 documents is rare, 201 common.
    assert.deepEqual(scored(gateCommon(view, ['zeta', 'edge', 'over'], false, undefined), ['zeta', 'edge', 'over'], docs), { zeta: [1, 2, 3], edge: [4, 7], over: [7] });
  });

  it('counts words a rare word begins as rare when prefixes are searched, and only then', () => {
    const view = viewOf(1000, { zeta: 50, alpha: 500 });
    const docs = { zeta: [1], zetas: [2], alpha: [2, 1] };
    assert.deepEqual(scored(gateCommon(view, ['zeta', 'alpha'], true, undefined), ['zeta', 'zetas', 'alpha'], docs), { zeta: [1], zetas: [2], alpha: [2, 1] });
    assert.deepEqual(scored(gateCommon(view, ['zeta', 'alpha'], false, undefined), ['zeta', 'zetas', 'alpha'], docs), { zeta: [1], zetas: [], alpha: [1] });
  });

  it('leaves the gate as it is for one word, one held word, or words all rare; the rarest held word gates the rest', () => {
    const inner = () => 1;
    const view = viewOf(1000, { alpha: 500, beta: 600, zeta: 50, eta: 60 });
    assert.equal(gateCommon(view, ['alpha'], false, inner), inner);
    assert.equal(gateCommon(view, ['nope', 'alpha'], false, inner), inner);
    assert.equal(gateCommon(view, ['zeta', 'eta'], false, inner), inner);
    assert.equal(gateCommon(view, ['zeta', 'eta'], false, undefined), undefined);
    // Every word common: the rarest the index holds is the rare one; a word it lacks gates nothing.
    const docs = { nope: [], alpha: [1, 2], beta: [2, 3] };
    assert.deepEqual(scored(gateCommon(view, ['nope', 'alpha', 'beta'], false, undefined), ['nope', 'alpha', 'beta'], docs), { nope: [], alpha: [1, 2], beta: [2] });
    // A small index: the threshold is 100 documents.
    const small = viewOf(300, { zeta: 50, eta: 100, alpha: 101 });
    assert.deepEqual(scored(gateCommon(small, ['zeta', 'eta', 'alpha'], false, undefined), ['zeta', 'eta', 'alpha'], { zeta: [1], eta: [2], alpha: [1, 2, 3] }), { zeta: [1], eta: [2], alpha: [1, 2] });
  });
});

describe('candidateGate, which candidates', () => {
  function index(inputs: { method: HttpMethod; path: string; summary?: string }[]) {
    const entries = inputs.map((input, i) => makeEntry(endpoint('s', 'c', input), i + 1, i));
    const byDoc: (typeof entries)[number][] = [];
    for (const e of entries) byDoc[e.doc] = e;
    const summaries = new Map(entries.map((e) => [e.doc, e.endpoint.summary ? [...new Set(parseQuery(e.endpoint.summary).terms)] : undefined]));
    const view: IndexView = { size: entries.length, df: () => entries.length, entryOf: (doc) => byDoc[doc], summaryOf: (doc) => summaries.get(doc) };
    return { view, named: () => namedDocuments(byDoc, summaryScan(byDoc, (doc) => summaries.get(doc))) };
  }
  const through = (gate: ((id: number, term: string) => number) | undefined, n: number) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => gate && gate(d, 'x') > 0);

  it('of too many, keeps the 600 that fit the query best, then the first in document order', () => {
    const inputs: { method: HttpMethod; path: string }[] = [];
    for (let i = 0; i < 800; i++) inputs.push({ method: 'DELETE', path: `/v${i}/pods/{id}` });
    for (let i = 0; i < 400; i++) inputs.push({ method: 'GET', path: `/w${i}/pods` });
    const { view, named } = index(inputs);
    const q = parseQuery('list pods');
    const gate = candidateGate(view, named, q.terms, q, { limit: 10, accept: () => true, all: true, order: (e) => e.position });
    const kept = through(gate, 1200);
    assert.equal(kept.length, 600);
    // Every collection GET (the best fit), then the first 200 DELETEs.
    assert.deepEqual(kept, [...Array.from({ length: 200 }, (_, i) => i + 1), ...Array.from({ length: 400 }, (_, i) => 801 + i)]);
    // Without an order, document order breaks ties; with one, that order does.
    assert.deepEqual(through(candidateGate(view, named, q.terms, q, { limit: 10, accept: () => true, all: true }), 1200), kept);
    const reversed = through(candidateGate(view, named, q.terms, q, { limit: 10, accept: () => true, all: true, order: (e) => -e.position }), 1200);
    assert.deepEqual(reversed, [...Array.from({ length: 200 }, (_, i) => 601 + i), ...Array.from({ length: 400 }, (_, i) => 801 + i)]);
  });

  it('takes candidates of heavy words only, resources first, the first set whole and later ones within 2,000', () => {
    const inputs: { method: HttpMethod; path: string; summary?: string }[] = [];
    for (let i = 0; i < 300; i++) inputs.push({ method: 'GET', path: `/a${i}/pods`, summary: `Pods ${i}` });
    for (let i = 0; i < 250; i++) inputs.push({ method: 'GET', path: `/b${i}/things`, summary: 'All the users' });
    const { view, named } = index(inputs);
    const heavy = parseQuery('pods users');
    const light = { ...heavy, weights: new Map([['pod', 1], ['user', 0.5]]) };
    const gate = (q: typeof heavy) => candidateGate(view, named, q.terms, q, { limit: 10, accept: () => true, all: true });
    assert.equal(through(gate(heavy), 550).length, 550);
    assert.equal(through(gate(light), 550).length, 300, 'a light word names no candidates');
    // Over 2,000 together: the first set is kept whole, a later one that would pass the cap is skipped.
    const many: { method: HttpMethod; path: string; summary?: string }[] = [];
    for (let i = 0; i < 1900; i++) many.push({ method: 'GET', path: `/a${i}/pods` });
    for (let i = 0; i < 150; i++) many.push({ method: 'GET', path: `/b${i}/things`, summary: 'All the users' });
    for (let i = 0; i < 90; i++) many.push({ method: 'GET', path: `/c${i}/cards` });
    const big = index(many);
    const q = parseQuery('pods users cards');
    const cap = candidateGate(big.view, big.named, q.terms, q, { limit: 10, accept: () => true, all: true });
    // Resources first: pods (1,900) and cards (90), then the users of the summaries would pass 2,000.
    const kept = through(cap, 2140);
    assert.equal(kept.length, 600);
    assert.ok(kept.every((d) => d <= 1900 || d > 2050), 'no users candidate');
    // A first set larger than 2,000 is taken whole.
    const huge = index(Array.from({ length: 2100 }, (_, i) => ({ method: 'GET' as const, path: `/a${i}/pods` })));
    const pods = parseQuery('pods');
    assert.equal(through(candidateGate(huge.view, huge.named, pods.terms, pods, { limit: 10, accept: () => true, all: true }), 2100).length, 600);
  });
});
