// Warming a catalogue (`Catalog.warm`, a daemon's start once the first answers are out) builds in
// steps what the first search would build; it changes no answer, and tables built before a change
// are built again after it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { TermHolders } from '../../src/catalog/term-holders.ts';
import { spec } from './fixtures.ts';

const WORDS = ['gadgets', 'widgets', 'invoices', 'customers', 'subscriptions', 'refunds', 'payouts', 'gizmos'];
const specsArb = fc.array(fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 5 });
const queries = ['gadgets', 'widgetz', 'subscriptoins list', 'invoice', 'gizmos refunds', 'custom', 'xadgets'];

const specsOf = (raws: readonly (readonly string[])[]) => raws.map((words, i) => spec(`api${i}`, words.map((w) => ({ method: 'GET' as const, path: `/${w}`, summary: `List ${w}` }))));
const answers = (c: Catalog) => queries.map((q) => c.searchPage(q, {}, 0, 5)).map((p) => [p.readAs, p.total, p.hits.map((h) => h.endpoint.id)]);

describe('warming a catalogue', () => {
  it('changes no answer, and hands the thread back between its steps', async () => {
    await fc.assert(
      fc.asyncProperty(specsArb, async (raws) => {
        const cold = new Catalog(specsOf(raws), { english: { has: () => false } });
        const warm = new Catalog(specsOf(raws), { english: { has: () => false } });
        let pauses = 0;
        await warm.warm(async () => void pauses++);
        assert.equal(pauses, 2);
        assert.deepEqual(answers(warm), answers(cold));
      }),
      { numRuns: 60 },
    );
  });

  it('builds its word tables again after a change', () => {
    const terms = new TermHolders();
    const first = new SpecState(spec('a', [{ method: 'GET', path: '/gadgets', summary: 'List gadgets' }]));
    terms.add([first]);
    terms.warm();
    assert.deepEqual(terms.expansions(['gadget']).get('gadget') ?? [], []);
    terms.add([new SpecState(spec('b', [{ method: 'GET', path: '/gadgetry', summary: 'List gadgetry' }]))]);
    // The sorted terms and the terms by length know the new spec's words.
    assert.deepEqual(terms.expansions(['gadget']).get('gadget'), ['gadgetri']);
    assert.deepEqual(terms.closest('gadgetru', 1), ['gadgetri']);
    terms.remove(new Set([first]));
    terms.warm();
    assert.deepEqual(terms.closest('gadgex', 1), []);
  });
});
