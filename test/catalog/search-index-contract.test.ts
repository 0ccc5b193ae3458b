// One spec's search index (rank.ts) from its contract, on generated specs: which documents hold a
// query's words (what a page's total counts), what it says of its terms (documents per term, each
// term's best score), its image (summaries without repeats), built once, loaded on first use or
// ahead of it, and the same answers however it was loaded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SearchIndex, documentOf, makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { textTerms } from '../../src/catalog/text.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { type EndpointInput, endpoint, spec } from './fixtures.ts';

const WORDS = ['list', 'invoice', 'invoices', 'customer', 'card', 'refund', 'webhook', 'report', 'the', 'all'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'DELETE'];
const endpointArb: fc.Arbitrary<EndpointInput> = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('invoices', 'customers', 'cards', '{id}'), { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  summary: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((w) => w.join(' ')),
  description: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => `${w.join(' ')}.`),
});
const unique = (inputs: EndpointInput[]) => {
  const seen = new Set<string>();
  return inputs.filter((x) => !seen.has(`${x.method} ${x.path}`) && seen.add(`${x.method} ${x.path}`));
};

/** Every term of an entry's index document, over all fields. */
function docTerms(entry: ReturnType<typeof makeEntry>): Set<string> {
  const d = documentOf(entry);
  return new Set([...d.s, ...d.p, ...d.o, ...d.t, ...d.d, ...d.a, ...d.e].filter((t) => t !== ''));
}

describe('a spec\'s search index', () => {
  it('finds exactly the documents holding one of the words, those a filter takes (generated specs)', () => {
    fc.assert(
      fc.property(fc.array(endpointArb, { minLength: 1, maxLength: 15 }), fc.array(fc.constantFrom(...WORDS, 'zzqx'), { minLength: 1, maxLength: 3 }), fc.boolean(), (inputs, words, filtered) => {
        const state = new SpecState(spec('s', unique(inputs)));
        const terms = parseQuery(words.join(' ')).terms.length > 0 ? [...new Set(words.flatMap((w) => textTerms(w)))] : [];
        const accept = filtered ? (e: { endpoint: { method: string } }) => e.endpoint.method === 'GET' : undefined;
        const got = state.index.matching(terms, accept);
        const expected = new Set(state.entries.filter((e) => (!accept || accept(e)) && terms.some((t) => docTerms(e).has(t))).map((e) => e.doc));
        assert.deepEqual(got, expected, words.join(' '));
        for (const doc of got) assert.equal(state.index.entryOf(doc)?.doc, doc);
      }),
      { numRuns: 150 },
    );
  });

  it('counts each term\'s documents, and lists every term with its count', () => {
    fc.assert(
      fc.property(fc.array(endpointArb, { minLength: 1, maxLength: 12 }), (inputs) => {
        const state = new SpecState(spec('s', unique(inputs)));
        const counted = new Map<string, number>();
        for (const e of state.entries) for (const t of docTerms(e)) counted.set(t, (counted.get(t) ?? 0) + 1);
        assert.deepEqual(new Map(state.index.terms()), counted);
        for (const [t, n] of counted) {
          assert.equal(state.index.df(t), n);
          assert.ok(state.index.best(t) > 0, t);
        }
        assert.equal(state.index.df('zzqx'), 0);
        assert.equal(state.index.best('zzqx'), 0);
        assert.equal(state.index.size, state.entries.length);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps each summary\'s terms once, in first-seen order, in its image', () => {
    const state = new SpecState(spec('s', [{ method: 'GET', path: '/cards', summary: 'card refund card report refund' }, { method: 'GET', path: '/x' }]));
    const image = state.index.image();
    const [first, second] = state.entries;
    assert.deepEqual(image.summaries[first!.doc], textTerms('card refund report'));
    assert.equal(image.summaries[second!.doc], null);
    assert.deepEqual(image.df, image.terms.map((t) => state.index.df(t)));
    assert.deepEqual(image.best, image.terms.map((t) => state.index.best(t)));
  });

  it('is built once: loading it again is refused', () => {
    const entries = [makeEntry(endpoint('s', 'c', { method: 'GET', path: '/cards', summary: 'List cards' }), 0)];
    const index = new SearchIndex();
    index.add(entries);
    assert.throws(() => index.add(entries), /built once/);
  });

  it('answers the same whether it loads on the first search, ahead of it, or twice ahead', async () => {
    const inputs: EndpointInput[] = [
      { method: 'GET', path: '/invoices', summary: 'List invoices' },
      { method: 'GET', path: '/invoices/{id}', summary: 'Get an invoice' },
      { method: 'POST', path: '/refunds', summary: 'Create a refund for a card' },
    ];
    const answer = (index: SearchIndex) => index.rank(parseQuery('invoice refund'), { limit: 5, accept: () => true, all: true }).map((r) => `${r.entry.endpoint.id} ${r.score}`);
    const lazy = new SpecState(spec('s', inputs));
    const early = new SpecState(spec('s', inputs));
    assert.equal(typeof early.index.image().mini, 'function', 'not loaded before use');
    await early.index.preload();
    assert.notEqual(typeof early.index.image().mini, 'function', 'loaded ahead');
    await early.index.preload();
    assert.deepEqual(answer(early.index), answer(lazy.index));
    assert.deepEqual(early.index.toJSON(), lazy.index.toJSON());
    // An empty index answers nothing, and preloading it is harmless.
    const empty = new SearchIndex();
    await empty.preload();
    assert.deepEqual(answer(empty), []);
    assert.deepEqual(empty.matching(['invoic']), new Set());
  });
});
