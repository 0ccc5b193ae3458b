// Filling a catalogue in steps (`replaceInSteps`, a daemon's start): the thread is handed back
// between batches of specs while the word statistics take them in, only while the catalogue serves
// nothing yet, and the catalogue that results answers exactly as one filled at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { spec } from './fixtures.ts';

const WORDS = ['gadgets', 'widgets', 'invoices', 'customers', 'refunds', 'payouts', 'pods', 'users'];
const specsArb = fc.array(fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 150 }).map((all) =>
  all.map((pairs, i) => spec(`s${i}`, [...new Map(pairs.map(([a, b]) => [`/${a}/${b}`, { method: 'GET' as const, path: `/${a}/${b}`, summary: `List ${a} of ${b}` }])).values()])),
);
const QUERIES = ['list gadgets', 'widgets of customers', 'refund', 'pods users', 'gadgetz'];
const answers = (catalog: Catalog) => QUERIES.map((q) => catalog.search(q, {}, 10).map((h) => `${h.endpoint.id} ${h.score}`));

describe('a catalogue filled in steps', () => {
  it('answers as one filled at once, and hands the thread back between batches', async () => {
    await fc.assert(
      fc.asyncProperty(specsArb, async (specs) => {
        const once = new Catalog(specs);
        const stepped = new Catalog();
        let pauses = 0;
        // Searched between two batches, it serves nothing yet: no answer, and nothing thrown.
        await stepped.replaceInSteps(specs, async () => {
          pauses++;
          assert.deepEqual(stepped.search('list gadgets'), []);
        }, -1);
        assert.deepEqual(answers(stepped), answers(once));
        assert.deepEqual(stepped.specs().map((s) => s.name), specs.map((s) => s.name));
        // A batch is 64 specs; with no time allowed a step, a pause after each.
        assert.equal(pauses, Math.ceil(specs.length / 64));
      }),
      { numRuns: 40 },
    );
  });

  it('takes each spec into the word statistics once, however many batches (200 specs, four batches)', async () => {
    const specs = Array.from({ length: 200 }, (_, i) => spec(`s${i}`, [{ method: 'GET', path: `/${WORDS[i % WORDS.length]}/${WORDS[(i * 3) % WORDS.length]}`, summary: `List ${WORDS[i % WORDS.length]}` }]));
    const stepped = new Catalog();
    let pauses = 0;
    await stepped.replaceInSteps(specs, async () => void pauses++, -1);
    assert.equal(pauses, 4);
    assert.deepEqual(answers(stepped), answers(new Catalog(specs)));
  });

  it('replaces a catalogue that serves specs already at once, as replace does', async () => {
    const first: ImportedSpec[] = [spec('a', [{ method: 'GET', path: '/gadgets', summary: 'List gadgets' }])];
    const second: ImportedSpec[] = [spec('b', [{ method: 'GET', path: '/widgets', summary: 'List widgets' }]), first[0]!];
    const stepped = new Catalog(first);
    let pauses = 0;
    await stepped.replaceInSteps(second, async () => void pauses++, -1);
    assert.equal(pauses, 0);
    assert.deepEqual(answers(stepped), answers(new Catalog(second)));
  });

  it('refuses two specs of one name before it takes any in', async () => {
    const catalog = new Catalog();
    const twice = [spec('x', [{ method: 'GET', path: '/a', summary: 'A' }]), spec('x', [{ method: 'GET', path: '/b', summary: 'B' }])];
    await assert.rejects(catalog.replaceInSteps(twice, async () => {}, -1), /Two specs are named "x"/);
    assert.deepEqual(catalog.specs(), []);
    assert.deepEqual(catalog.search('a'), []);
  });
});
