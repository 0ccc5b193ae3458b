// The vocabulary bridge: a query's rare words searched with their synonyms the catalogue holds, as
// low-weight alternatives that never remove or lower what the query said.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { withAlternatives } from '../../src/catalog/expand.ts';
import { parseQuery, withoutTerms } from '../../src/catalog/search.ts';
import { VOCABULARY_WEIGHTS } from '../../src/catalog/weights.ts';
import { type Vocabulary, WordNet, wordnetVocabulary } from '../../src/vocabulary/index.ts';
import { spec } from './fixtures.ts';

let vocabulary: Vocabulary;
before(async () => {
  vocabulary = wordnetVocabulary(await WordNet.load());
});

const billing = () =>
  spec('ledger', [
    { method: 'GET', path: '/bills/{id}', summary: 'Get a bill' },
    { method: 'GET', path: '/payments', summary: 'List payments' },
    { method: 'GET', path: '/customers', summary: 'List customers' },
  ]);

describe('withAlternatives', () => {
  const words = fc.array(fc.constantFrom('invoice', 'bill', 'show', 'customer', 'the', 'photo', 'cancel', 'order', 'list', 'zzqx', 'account'), { minLength: 1, maxLength: 6 });

  it('never removes or lowers a term the query said, and adds only held terms at a low weight', () => {
    const held = new Set(['bill', 'account', 'order', 'customer', 'call']);
    fc.assert(
      fc.property(words, fc.integer({ min: 0, max: 5 }), (ws, df) => {
        const q = parseQuery(ws.join(' '));
        const x = withAlternatives(q, vocabulary, (t) => (held.has(t) ? df : 0));
        for (const t of q.terms) {
          assert.ok(x.terms.includes(t));
          assert.equal(x.weights.get(t), q.weights.get(t));
        }
        assert.deepEqual(x.said, q.said);
        assert.equal(x.intent, q.intent);
        for (const t of x.terms.slice(q.terms.length)) {
          assert.ok(held.has(t), t);
          const source = x.alternatives?.get(t);
          assert.ok(source !== undefined && q.terms.includes(source));
          assert.ok(x.weights.get(t)! <= (q.weights.get(source) ?? 0) * VOCABULARY_WEIGHTS.related + 1e-12);
        }
      }),
    );
  });

  it('leaves a query whose words the catalogue holds often as it is (the same object)', () => {
    fc.assert(
      fc.property(words, (ws) => {
        const q = parseQuery(ws.join(' '));
        assert.equal(withAlternatives(q, vocabulary, () => VOCABULARY_WEIGHTS.rareAtMost + 1), q);
      }),
    );
  });

  it('expands a word the catalogue does not hold into its synonyms it does hold', () => {
    const q = withAlternatives(parseQuery('show invoice'), vocabulary, (t) => (t === 'bill' ? 4 : 0));
    assert.deepEqual([...(q.alternatives ?? [])], [['bill', 'invoic']]);
    assert.equal(q.weights.get('bill'), VOCABULARY_WEIGHTS.related);
  });

  it('drops an alternative with the word it stands for, and never leaves alternatives alone', () => {
    const q = withAlternatives(parseQuery('invoice customer'), vocabulary, (t) => (t === 'bill' ? 4 : 0));
    assert.ok(q.terms.includes('bill'));
    const without = withoutTerms(q, new Set(['invoic']));
    const customer = parseQuery('customer').terms[0]!;
    assert.deepEqual(without.terms, [customer]);
    assert.equal(withoutTerms(q, new Set([customer])).terms.includes('bill'), true);
    const alone = withAlternatives(parseQuery('invoice'), vocabulary, (t) => (t === 'bill' ? 4 : 0));
    assert.equal(withoutTerms(alone, new Set(['invoic'])), alone);
  });
});

describe('search with a vocabulary', () => {
  it('finds the endpoint by a synonym of a word no endpoint uses, and ranks nothing new without it', () => {
    const catalog = new Catalog([billing()]);
    assert.deepEqual(catalog.search('invoice').map((h) => h.endpoint.id), []);
    catalog.useVocabulary(vocabulary);
    assert.equal(catalog.search('invoice')[0]?.endpoint.id, 'ledger:GET:/bills/{id}');
    catalog.useVocabulary(undefined);
    assert.deepEqual(catalog.search('invoice').map((h) => h.endpoint.id), []);
  });

  it('gives the same results as without it when every word of the query is common in the catalogue', () => {
    const many = () =>
      spec('many', [
        { method: 'GET', path: '/bills', summary: 'List bills' },
        { method: 'POST', path: '/bills', summary: 'Create a bill' },
        { method: 'GET', path: '/bills/{id}', summary: 'Get a bill' },
        { method: 'GET', path: '/accounts', summary: 'List accounts' },
        { method: 'POST', path: '/accounts', summary: 'Create an account' },
        { method: 'DELETE', path: '/accounts/{id}', summary: 'Delete an account' },
      ]);
    const plain = new Catalog([many()]);
    const withVocabulary = new Catalog([many()], { vocabulary });
    for (const query of ['get a bill', 'list accounts', 'delete account', 'bills', 'account bill']) {
      assert.deepEqual(
        withVocabulary.search(query).map((h) => [h.endpoint.id, h.score]),
        plain.search(query).map((h) => [h.endpoint.id, h.score]),
        query,
      );
    }
  });

  it('counts endpoints found by an alternative in the total of a page', () => {
    const catalog = new Catalog([billing()], { vocabulary });
    const page = catalog.searchPage('invoice', {}, 0, 5);
    assert.ok(page.hits.some((h) => h.endpoint.id === 'ledger:GET:/bills/{id}'));
    assert.equal(page.total, page.hits.length);
  });

  it('never lets an alternative name an API (only words the query said do)', () => {
    const bills = spec(
      'bill',
      [
        { method: 'GET', path: '/statements', summary: 'List statements' },
        { method: 'POST', path: '/payments', summary: 'Pay a bill' },
      ],
      { title: 'Bill' },
    );
    const other = spec('shop', [{ method: 'GET', path: '/statements', summary: 'List statements' }]);
    const catalog = new Catalog([other, bills], { vocabulary });
    // "invoice" reaches "bill" only as an alternative: shop's endpoint, first in catalogue order, stays first.
    assert.equal(catalog.search('list invoice statements')[0]?.endpoint.spec, 'shop');
  });
});
