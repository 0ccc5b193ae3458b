// Word statistics over the specs of a catalogue, kept spec by spec as specs come and go, against a
// model recounted from the specs held after each step: documents per term, the specs holding each
// term (in the order they came) with its count and best score there, and the longer words each
// query word of five letters or more begins.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PREFIX_MIN } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { TermHolders, idf } from '../../src/catalog/term-holders.ts';
import { spec } from './fixtures.ts';

const WORDS = ['invoice', 'invoices', 'invoicing', 'customer', 'custom', 'card', 'cards', 'refund', 'payout', 'report'];
const specArb = fc.array(fc.record({ path: fc.constantFrom('/a', '/b', '/c', '/d'), summary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 4 });

describe('TermHolders', () => {
  it('counts documents, holders and longer words exactly as the specs held after every addition and removal', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.boolean(), fc.nat({ max: 5 })), { maxLength: 10 }), (raw, steps) => {
        const states = raw.map((endpoints, i) => {
          const seen = new Set<string>();
          return new SpecState(spec(`s${i}`, endpoints.filter((e) => !seen.has(e.path) && seen.add(e.path)).map((e) => ({ method: 'GET' as const, path: e.path, summary: e.summary.join(' ') }))));
        });
        const terms = new TermHolders();
        let held: SpecState[] = [];
        const check = () => {
          const vocabulary = new Set(held.flatMap((s) => [...s.index.terms()].map(([t]) => t)));
          for (const t of [...vocabulary, 'absent']) {
            const holding = held.filter((s) => s.index.df(t) > 0);
            assert.equal(terms.df(t), holding.reduce((n, s) => n + s.index.df(t), 0), t);
            const h = terms.holders(t);
            if (holding.length === 0) assert.equal(h, undefined, t);
            else {
              assert.deepEqual(h?.states, holding, t);
              assert.deepEqual(h?.stats, holding.flatMap((s) => [s.index.df(t), s.index.best(t)]), t);
            }
          }
          const asked = ['invoic', 'invo', 'custom', 'cust', 'card', 'refund', 'repor', 'zzzzz'];
          const want = new Map<string, string[]>();
          for (const t of asked) {
            if (t.length < PREFIX_MIN) continue;
            const longer = [...vocabulary].filter((v) => v.startsWith(t) && v !== t).sort();
            if (longer.length > 0) want.set(t, longer);
          }
          assert.deepEqual(terms.expansions(asked), want);
        };
        for (const [add, i] of steps) {
          const s = states[i % states.length]!;
          if (add && !held.includes(s)) {
            terms.add([s]);
            held.push(s);
          } else if (!add && held.includes(s)) {
            terms.remove(new Set([s]));
            held = held.filter((x) => x !== s);
          }
          check();
        }
        terms.remove(new Set(held));
        held = [];
        check();
        terms.remove(new Set());
        check();
      }),
      { numRuns: 150 },
    );
  });
});

describe('idf', () => {
  it('is BM25\'s inverse document frequency: positive, and lower the more documents hold the word', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.nat(), fc.nat(), (n, a, b) => {
        const x = a % (n + 1);
        const y = b % (n + 1);
        assert.ok(idf(n, x) > 0);
        assert.equal(idf(n, x), Math.log(1 + (n - x + 0.5) / (x + 0.5)));
        if (x < y) assert.ok(idf(n, x) > idf(n, y));
      }),
    );
  });
});
