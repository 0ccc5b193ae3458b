// Other forms of a query's words: adjacent words the API writes as one ("web hook" -> webhook) and
// derived forms ("subscribe" -> subscription), searched as low-weight alternatives that never
// remove or lower what the query said.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { withForms } from '../../src/catalog/expand.ts';
import { derivedForms } from '../../src/catalog/morphology.ts';
import { parseQuery, withoutTerms } from '../../src/catalog/search.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { FORM_WEIGHTS } from '../../src/catalog/weights.ts';
import { spec } from './fixtures.ts';

const term = (word: string) => termsOf(word)[0]!;

describe('derivedForms', () => {
  const cases: [string, string][] = [
    ['verify', 'verification'],
    ['notification', 'notify'],
    ['subscribe', 'subscription'],
    ['subscription', 'subscribe'],
    ['react', 'reaction'],
    ['reaction', 'react'],
    ['approve', 'approval'],
    ['assignment', 'assign'],
    ['assign', 'assignment'],
    ['depend', 'dependency'],
    ['perform', 'performance'],
    ['authorize', 'authorization'],
    ['available', 'availability'],
    ['delete', 'deletion'],
    ['execute', 'execution'],
  ];
  for (const [word, form] of cases) {
    it(`${word} -> ${form}`, () => assert.ok(derivedForms(word).includes(form), derivedForms(word).join(' ')));
  }

  it('never gives the word itself, and leaves short words alone', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,14}$/), (word) => {
        const forms = derivedForms(word);
        assert.ok(!forms.includes(word));
        if (word.length < 4) assert.deepEqual(forms, []);
        for (const f of forms) assert.ok(f.length >= 3, f);
      }),
    );
  });
});

describe('withForms', () => {
  const words = fc.array(
    fc.constantFrom('web', 'hook', 'sign', 'in', 'subscribe', 'customer', 'the', 'a', 'list', 'delete', 'react', 'user', 'name', 'zzqx'),
    { minLength: 1, maxLength: 7 },
  );
  const held = new Set(['webhook', 'signin', 'subscription', 'reaction', 'usernam', 'customer', 'user', 'hook']);

  it('never removes or lowers a term the query said, and adds only held terms, at a low weight, each standing for a term said', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 0, max: 8 }), (ws, df) => {
        const q = parseQuery(ws.join(' '));
        const x = withForms(q, (t) => (held.has(t) ? df : 0));
        for (const t of q.terms) {
          assert.ok(x.terms.includes(t));
          assert.equal(x.weights.get(t), q.weights.get(t));
        }
        assert.deepEqual(x.said, q.said);
        assert.equal(x.intent, q.intent);
        const heaviest = Math.max(0, ...q.weights.values());
        for (const t of x.terms.slice(q.terms.length)) {
          assert.ok(held.has(t) && df > 0, t);
          assert.ok(q.terms.includes(x.alternatives?.get(t) ?? ''), t);
          assert.ok(x.weights.get(t)! <= heaviest * Math.max(FORM_WEIGHTS.compound, FORM_WEIGHTS.derived) + 1e-12);
        }
        if (x.terms.length === q.terms.length) assert.equal(x, q);
      }),
    );
  });

  it('joins adjacent words the catalogue holds as one, a stop word included ("sign in" -> signin)', () => {
    const q = withForms(parseQuery('sign in with a web hook'), (t) => (held.has(t) ? 1 : 0));
    assert.equal(q.alternatives?.get('signin'), 'sign');
    assert.equal(q.alternatives?.get('webhook'), 'web');
    assert.equal(q.weights.get('webhook'), FORM_WEIGHTS.compound);
  });

  it('derives forms of a rare word only, never of a word the catalogue holds often', () => {
    const rare = withForms(parseQuery('subscribe customer'), (t) => (t === 'subscription' ? 3 : 0));
    assert.equal(rare.alternatives?.get('subscription'), term('subscribe'));
    assert.equal(rare.weights.get('subscription'), (rare.weights.get(term('subscribe')) ?? 0) * FORM_WEIGHTS.derived);
    const common = withForms(parseQuery('subscribe customer'), (t) => (t === 'subscription' ? 3 : FORM_WEIGHTS.derivedRareAtMost + 1));
    assert.equal(common.alternatives?.has('subscription') ?? false, false);
  });

  it('never adds a CRUD verb (verbs are read as intent)', () => {
    const q = withForms(parseQuery('deletion of a user'), () => 1);
    assert.ok(!q.terms.includes(term('delete')));
  });

  it('drops a form with the word it stands for', () => {
    const q = withForms(parseQuery('react customer'), (t) => (t === 'reaction' || t === 'customer' ? 1 : 0));
    assert.ok(q.terms.includes('reaction'));
    assert.deepEqual(withoutTerms(q, new Set([term('react')])).terms, ['customer']);
  });
});

describe('search with other forms of the query words', () => {
  const hooks = () =>
    spec('hooks', [
      { method: 'DELETE', path: '/users/{id}', summary: 'Delete a user', params: ['id'] },
      { method: 'GET', path: '/webhooks', summary: 'List webhooks' },
      { method: 'DELETE', path: '/webhooks/{id}', summary: 'Delete a webhook', params: ['id'] },
      { method: 'POST', path: '/subscriptions', summary: 'Create a subscription' },
      { method: 'GET', path: '/users', summary: 'List users' },
    ]);

  it('finds an endpoint by words the API writes as one', () => {
    const catalog = new Catalog([hooks()]);
    assert.equal(catalog.search('delete a web hook')[0]?.endpoint.id, 'hooks:DELETE:/webhooks/{id}');
  });

  it('finds an endpoint by another form of a word no endpoint uses', () => {
    const catalog = new Catalog([hooks()]);
    assert.equal(catalog.search('subscribe')[0]?.endpoint.id, 'hooks:POST:/subscriptions');
  });
});
