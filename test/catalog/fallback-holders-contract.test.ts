// When no word of a query matches as typed, a search over many specs asks only the indexes whose
// fuzzy fallback can match (term-holders.ts `fallbackHolders`): for generated catalogues and
// misspelt queries, the answer is the one every index gives when asked (pruning off), no index
// outside those holders is loaded, and the edit distance is the one MiniSearch counts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { Loaded } from '../../src/catalog/loaded.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { editDistance } from '../../src/catalog/similar.ts';
import { TermHolders, letterMask } from '../../src/catalog/term-holders.ts';
import { spec } from './fixtures.ts';

const WORDS = ['gadgets', 'widgets', 'invoices', 'customers', 'subscriptions', 'pods', 'refunds', 'payouts'];
const specArb = fc.uniqueArray(
  fc.record({ word: fc.constantFrom(...WORDS), other: fc.constantFrom(...WORDS) }),
  { minLength: 1, maxLength: 5, selector: (e) => `${e.word}/${e.other}` },
);
/** A word with one or two letters changed, dropped or added (often no word of the catalogue). */
const misspelt = fc
  .tuple(fc.constantFrom(...WORDS), fc.array(fc.tuple(fc.constantFrom('change', 'drop', 'add'), fc.nat(), fc.constantFrom('z', 'q', 'x', 'e')), { minLength: 1, maxLength: 2 }))
  .map(([word, edits]) => {
    let w = word;
    for (const [kind, at, letter] of edits) {
      const i = at % w.length;
      w = kind === 'change' ? w.slice(0, i) + letter + w.slice(i + 1) : kind === 'drop' ? w.slice(0, i) + w.slice(i + 1) : w.slice(0, i) + letter + w.slice(i);
    }
    return w;
  });

function catalogue(raws: readonly (readonly { word: string; other: string }[])[], prune: boolean): Loaded {
  const states = raws.map((raw, i) => new SpecState(spec(`api${i}`, raw.map((e) => ({ method: 'GET' as const, path: `/${e.word}/${e.other}`, summary: `List ${e.word}` })))));
  const terms = new TermHolders();
  terms.add(states);
  return new Loaded(states, terms, { maxIndexesSearched: Infinity, prune, budgetMs: Infinity, budgetPostings: Infinity });
}

/** Whether each spec's index has been searched (loaded) yet: unloaded, its image is still the function that builds it. */
const searched = (loaded: Loaded) => loaded.states.map((s) => typeof s.index.image().mini !== 'function');

describe('the fuzzy fallback over many specs', () => {
  it('answers as asking every index does, and asks only those holding a term it can match', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 2, maxLength: 6 }), misspelt, fc.integer({ min: 1, max: 8 }), (raws, query, limit) => {
        const pruned = catalogue(raws, true);
        const open = catalogue(raws, false);
        const parsed = parseQuery(query);
        const ids = (l: Loaded) => l.ranker.rank(l.states, parsed, limit, () => true, true).map((r) => `${r.entry.endpoint.id} ${r.score}`);
        assert.deepEqual(ids(pruned), ids(open), query);
        // An index holding no term within reach of the query's was never loaded.
        const reach = (term: string) => pruned.states.filter((s) => [...s.index.terms()].some(([t]) => t === term || (term.length >= 5 && (t.startsWith(term) || editDistance(term, t, Math.round(term.length * 0.2)) <= Math.round(term.length * 0.2)))));
        const able = new Set(parsed.terms.flatMap(reach));
        pruned.states.forEach((s, i) => assert.ok(able.has(s) || !searched(pruned)[i], `${s.spec.name} searched for "${query}"`));
      }),
      { numRuns: 300 },
    );
  });

  it('loads no index for a word nothing in the catalogue is near', () => {
    const loaded = catalogue([[{ word: 'gadgets', other: 'widgets' }], [{ word: 'invoices', other: 'refunds' }]], true);
    assert.deepEqual(loaded.ranker.rank(loaded.states, parseQuery('zzzzzzz'), 5, () => true, true), []);
    assert.deepEqual(searched(loaded), [false, false]);
  });

  it('asks no more indexes than four times the budget once the page is full, the most promising first', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 14 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 5 }), fc.nat(), (n, budget, limit, strong) => {
        // Alike but for one, whose misspelt word is its path and its whole summary (its best score is higher).
        const k = strong % n;
        const states = Array.from({ length: n }, (_, i) =>
          new SpecState(
            spec(
              `s${i}`,
              i === k
                ? [{ method: 'GET', path: '/gadgets', summary: 'Gadgets' }, { method: 'GET', path: '/gadgets/{id}', summary: 'A gadget' }]
                : [{ method: 'GET', path: '/items', summary: 'List all the items of the account, gadgets among them' }, { method: 'GET', path: '/items/{id}', summary: 'Get one of the items, a gadget or another one' }],
            ),
          ),
        );
        const terms = new TermHolders();
        terms.add(states);
        const loaded = new Loaded(states, terms, { maxIndexesSearched: budget, prune: true, budgetMs: Infinity, budgetPostings: Infinity });
        const hits = loaded.ranker.rank(loaded.states, parseQuery('gadgetz'), limit, () => true, true);
        // Each index answers with two hits: the page is full after ceil(limit / 2) of them.
        const asked = Math.min(n, Math.max(4 * budget, Math.ceil(limit / 2)));
        assert.equal(searched(loaded).filter(Boolean).length, asked, `${n} specs, budget ${budget}, limit ${limit}`);
        assert.ok(searched(loaded)[k], 'the most promising is asked first');
        assert.equal(hits.length, Math.min(limit, 2 * asked));
      }),
      { numRuns: 100 },
    );
  });

  it('stops at its own time bound once it has a hit, the most promising index asked first', () => {
    // Every spec can answer "gadgetz"; one says it in its path and summary (the most promising).
    const states = Array.from({ length: 6 }, (_, i) =>
      new SpecState(spec(`s${i}`, i === 4 ? [{ method: 'GET', path: '/gadgets', summary: 'Gadgets' }] : [{ method: 'GET', path: '/items', summary: 'List all the items of the account, gadgets among them' }])),
    );
    const run = (fallbackMs: number | undefined) => {
      const fresh = states.map((s) => new SpecState(s.spec));
      const terms = new TermHolders();
      terms.add(fresh);
      const loaded = new Loaded(fresh, terms, { maxIndexesSearched: 1, prune: true, budgetMs: Infinity, budgetPostings: Infinity, ...(fallbackMs !== undefined ? { fallbackMs } : {}) });
      const hits = loaded.ranker.rank(loaded.states, parseQuery('gadgetz'), 10, () => true, true);
      return { hits: hits.map((h) => h.entry.endpoint.id), searched: searched(loaded) };
    };
    // Its time spent before it starts: it stops after the first index that answers.
    const spent = run(-1);
    assert.deepEqual(spent.searched, [false, false, false, false, true, false]);
    assert.deepEqual(spent.hits, ['s4:GET:/gadgets']);
    // With time left, it asks on (up to four times the index budget, the page not full).
    assert.equal(run(Infinity).searched.filter(Boolean).length, 6);
    assert.equal(run(undefined).searched.filter(Boolean).length, 6);
  });

  it('takes its time bound from the catalogue options', () => {
    const specs = [0, 1, 2].map((i) => spec(`s${i}`, [{ method: 'GET', path: i === 1 ? '/gadgets' : '/items', summary: i === 1 ? 'Gadgets' : 'List all the items of the account, gadgets among them' }]));
    // (A typo of the first letter: spelling leaves it to the fallback, see spelling.ts.)
    const spent = new Catalog(specs, { fallbackMs: -1 });
    assert.deepEqual(spent.search('xadgets').map((h) => h.endpoint.spec), ['s1']);
    const open = new Catalog(specs, { fallbackMs: Infinity });
    assert.deepEqual(open.search('xadgets').map((h) => h.endpoint.spec).sort(), ['s0', 's1', 's2']);
  });

  it('still finds a typo across specs', () => {
    const catalog = new Catalog([spec('a', [{ method: 'GET', path: '/gadgets', summary: 'List gadgets' }]), spec('b', [{ method: 'GET', path: '/pods', summary: 'List pods' }])]);
    assert.equal(catalog.search('xadgets')[0]?.endpoint.id, 'a:GET:/gadgets');
  });
});

describe('edits between two words', () => {
  // The reference: the full table of edits (with `swaps`, two adjacent letters swapped are one edit:
  // optimal string alignment).
  const distance = (a: string, b: string, swaps = false): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
    return d[a.length]![b.length]!;
  };
  const swapDistance = (a: string, b: string): number => distance(a, b, true);

  /** A catalogue's word statistics over one spec whose documents are `words` (one each), and the index's own terms. */
  const vocabularyOf = (words: readonly string[]): { terms: TermHolders; held: string[] } => {
    const terms = new TermHolders();
    const state = new SpecState(spec('v', words.map((w, i) => ({ method: 'GET' as const, path: `/x${i}`, summary: w }))));
    terms.add([state]);
    return { terms, held: [...state.index.terms()].map(([t]) => t) };
  };

  it('says a word is within a distance exactly when the full table does', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, d) => {
        assert.equal(editDistance(a, b, d) <= d, distance(a, b) <= d, `${a} / ${b} within ${d}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('never tells two words within d edits apart by more than 2 d letters (the mask that skips the table)', () => {
    const bits = (x: number) => x.toString(2).replaceAll('0', '').length;
    // Letters, digits and characters that share a mask bit with a letter (`0` and `p`, `1` and `q`).
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'p', 'q', '0', '1', 'z', 'é'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        assert.ok(bits((letterMask(a) ^ letterMask(b)) >>> 0) <= 2 * distance(a, b), `${a} / ${b}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds, among the catalogue\'s terms, exactly those the full table puts within reach', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'p', '0'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 30 }), word, fc.integer({ min: 0, max: 3 }), (vocabulary, term, d) => {
        // One document per word, its summary the word itself; the reference reads the index's own terms.
        const { terms, held } = vocabularyOf(vocabulary);
        const expected = held.filter((t) => distance(term, t) <= d).sort();
        assert.deepEqual(terms.near(term, d).sort(), expected, `${term} within ${d}`);
      }),
      { numRuns: 300 },
    );
  });

  it('counts two adjacent letters swapped as one edit when asked, exactly as the full table does', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, d) => {
        const found = editDistance(a, b, d, true);
        const exact = swapDistance(a, b);
        // Within reach: the distance itself; past it: anything past it.
        if (exact <= d) assert.equal(found, exact, `${a} / ${b}`);
        else assert.ok(found > d, `${a} / ${b} within ${d}`);
        assert.equal(editDistance(a, b, Infinity, true), exact, `${a} / ${b}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the closest of the catalogue\'s terms within reach, commonest first, or the term itself when held', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'p'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 30 }), word, fc.integer({ min: 0, max: 3 }), (vocabulary, term, d) => {
        // One document per word (a word repeated: more documents hold it).
        const { terms, held } = vocabularyOf(vocabulary);
        const found = terms.closest(term, d);
        if (held.includes(term)) return assert.deepEqual(found, [term]);
        const within = held.filter((t) => swapDistance(term, t) <= d);
        const least = Math.min(...within.map((t) => swapDistance(term, t)));
        const expected = within.filter((t) => swapDistance(term, t) === least);
        // Commonest first; among as common, in code-unit order (the same answer every time).
        expected.sort((a, b) => terms.df(b) - terms.df(a) || (a < b ? -1 : 1));
        assert.deepEqual(found, expected, `${term} within ${d}`);
      }),
      { numRuns: 500 },
    );
  });
});
