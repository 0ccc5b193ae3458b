// Which APIs a query names (spec-choice.ts), checked from the contract on generated catalogues: a
// full name counts when every one of its words is among the query's words (or two adjacent ones
// written together), the longest such name wins; a name word names its specs while few specs are
// named by it (or a vendor's group) and at most `SPEC_NAMING.fewSpecs` others use it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Loaded } from '../../src/catalog/loaded.ts';
import { fullyNamed, namedSpecs } from '../../src/catalog/spec-choice.ts';
import { fullNames } from '../../src/catalog/spec-names.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { TermHolders } from '../../src/catalog/term-holders.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { textTerms } from '../../src/catalog/text.ts';
import { SPEC_NAMING } from '../../src/catalog/weights.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { spec } from './fixtures.ts';

const NAME_WORDS = ['zoom', 'stripe', 'azure', 'blob', 'pet', 'store', 'petstore', 'quartz'];
const OTHER_WORDS = ['files', 'users', 'list', 'upload'];
const BUDGET = { maxIndexesSearched: -1, prune: true, budgetMs: Infinity, budgetPostings: Infinity };

interface SpecInput {
  name: string[];
  said: string[];
}
const specArb: fc.Arbitrary<SpecInput> = fc.record({
  name: fc.array(fc.constantFrom(...NAME_WORDS), { minLength: 1, maxLength: 2 }),
  said: fc.array(fc.constantFrom(...NAME_WORDS, ...OTHER_WORDS), { maxLength: 3 }),
});

/** Spec `i` named by its words (`zoom-blob-7`: the number is a version word, no name) saying `said` in one summary. */
function build(inputs: readonly SpecInput[]): Loaded {
  const specs: ImportedSpec[] = inputs.map((x, i) =>
    spec(`${x.name.join('-')}-${i}`, [{ method: 'GET', path: `/things${i}`, summary: ['things', ...x.said].join(' ') }], { collection: `c${i}` }),
  );
  const states = specs.map((s) => new SpecState(s));
  const terms = new TermHolders();
  terms.add(states);
  return new Loaded(states, terms, BUDGET);
}

const queryArb = fc.array(fc.constantFrom(...NAME_WORDS, ...OTHER_WORDS, 'the'), { minLength: 1, maxLength: 5 });

describe('the full name a query says', () => {
  it('names the specs of the longest full name all of whose words the query holds, two adjacent words counting as one (generated)', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 2, maxLength: 8 }), queryArb, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (inputs, words, pick) => {
        const loaded = build(inputs);
        const subset = loaded.states.filter((_, i) => pick[i]);
        const states = subset.length > 0 && subset.length < loaded.states.length ? subset : loaded.states;
        const query = words.join(' ');
        // Token -> the query words it is made of (the first time it is said).
        const tokens = new Map<string, string[]>();
        words.forEach((w, i) => {
          if (!tokens.has(w)) tokens.set(w, [w]);
          if (i + 1 < words.length && !tokens.has(w + words[i + 1])) tokens.set(w + words[i + 1], [w, words[i + 1]!]);
        });
        let best = 0;
        const named = new Set<SpecState>();
        for (const s of states) {
          for (const name of fullNames(s.spec)) {
            if (!name.every((w) => tokens.has(w)) || name.length < best) continue;
            if (name.length > best) named.clear();
            best = name.length;
            named.add(s);
          }
        }
        const got = fullyNamed(loaded, query, parseQuery(query), states);
        if (named.size === 0 || named.size === states.length) assert.equal(got, undefined, query);
        else {
          assert.deepEqual(new Set(got?.named), named, query);
          // The naming words are not searched within the named specs (unless they are all the query says).
          const naming = new Set<string>();
          for (const s of named) for (const name of fullNames(s.spec)) if (name.length === best && name.every((w) => tokens.has(w))) {
            for (const w of name) for (const typed of tokens.get(w)!) for (const t of textTerms(typed)) naming.add(t);
          }
          const terms = parseQuery(query).terms;
          const left = terms.filter((t) => !naming.has(t));
          assert.deepEqual(got!.query.terms, left.length > 0 ? left : terms, query);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads a name in the query\'s first 64 words only', () => {
    const loaded = build([{ name: ['zoom'], said: [] }, { name: ['quartz'], said: [] }]);
    const early = `${'files '.repeat(63)}zoom`;
    const late = `${'files '.repeat(64)}zoom`;
    assert.deepEqual(fullyNamed(loaded, early, parseQuery('files zoom'), loaded.states)?.named.map((s) => s.spec.name), ['zoom-0']);
    assert.equal(fullyNamed(loaded, late, parseQuery('files zoom'), loaded.states), undefined);
  });

  it('names by words as typed, in any case and with any punctuation between them', () => {
    const loaded = build([{ name: ['azure', 'blob'], said: [] }, { name: ['azure'], said: [] }, { name: ['pet', 'store'], said: [] }]);
    const names = (q: string) => fullyNamed(loaded, q, parseQuery(q), loaded.states)?.named.map((s) => s.spec.name);
    assert.deepEqual(names('AZURE, blob: list'), ['azure-blob-0']);
    assert.deepEqual(names('azure things'), ['azure-1']);
    assert.deepEqual(names('PetStore things'), undefined, 'one typed word is not two name words');
    assert.deepEqual(names('Pet-Store things'), ['pet-store-2']);
  });
});

describe('a name word in the query', () => {
  it('names the specs it names while few are named by it and at most a few others use it (generated catalogues of up to 90 specs)', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 2, maxLength: 90 }), queryArb, (inputs, words) => {
        const loaded = build(inputs);
        const parsed = parseQuery(words.join(' '));
        const total = loaded.states.length;
        const few = Math.max(SPEC_NAMING.fewSpecs, Math.ceil(SPEC_NAMING.fewShare * total));
        const group = Math.max(few, Math.ceil(SPEC_NAMING.groupShare * total));
        const named = new Set<SpecState>();
        const naming = new Set<string>();
        for (const t of parsed.terms) {
          const namers = loaded.states.filter((s) => s.names.has(t));
          if (namers.length === 0 || namers.length > group) continue;
          const others = (loaded.terms.holders(t)?.states ?? []).filter((s) => !namers.includes(s)).length;
          if (others > SPEC_NAMING.fewSpecs) continue;
          for (const s of namers) named.add(s);
          naming.add(t);
        }
        const got = namedSpecs(loaded, parsed, loaded.states);
        if (named.size === 0 || named.size === total) assert.equal(got, undefined);
        else {
          assert.deepEqual(got?.named, loaded.states.filter((s) => named.has(s)));
          const left = parsed.terms.filter((t) => !naming.has(t));
          assert.deepEqual(got!.query.terms, left.length > 0 ? left : parsed.terms);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('counts only the searched specs among the others, and names only searched specs', () => {
    // "zoom" names spec 0; four other specs use it, so over all it is a thing, not a name.
    const inputs: SpecInput[] = [{ name: ['zoom'], said: [] }, ...Array.from({ length: 4 }, () => ({ name: ['quartz'], said: ['zoom'] })), { name: ['stripe'], said: [] }];
    const loaded = build(inputs);
    const parsed = parseQuery('zoom files');
    assert.equal(namedSpecs(loaded, parsed, loaded.states), undefined);
    const some = [loaded.states[0]!, loaded.states[1]!, loaded.states[2]!, loaded.states[5]!];
    assert.deepEqual(namedSpecs(loaded, parsed, some)?.named.map((s) => s.spec.name), ['zoom-0']);
    assert.equal(namedSpecs(loaded, parsed, [loaded.states[1]!, loaded.states[5]!]), undefined, 'the spec it names is not searched');
  });

  it('names a vendor\'s group of specs while they are at most 5% of a large catalogue', () => {
    const catalogue = (group: number, total: number) =>
      build([...Array.from({ length: group }, () => ({ name: ['zoom'], said: [] })), ...Array.from({ length: total - group }, () => ({ name: ['quartz'], said: [] }))]);
    const named = (loaded: Loaded) => namedSpecs(loaded, parseQuery('zoom files'), loaded.states)?.named.length;
    assert.equal(named(catalogue(4, 80)), 4);
    assert.equal(named(catalogue(5, 80)), undefined);
    assert.equal(named(catalogue(3, 40)), 3);
    assert.equal(named(catalogue(4, 40)), undefined);
  });

  it('never takes a vocabulary\'s alternative as a name', () => {
    const loaded = build([{ name: ['zoom'], said: [] }, { name: ['stripe'], said: [] }, { name: ['quartz'], said: [] }]);
    const parsed = parseQuery('files');
    const withAlt = { ...parsed, terms: [...parsed.terms, 'zoom'], weights: new Map([...parsed.weights, ['zoom', 0.5]]), alternatives: new Map([['zoom', parsed.terms[0]!]]) };
    assert.equal(namedSpecs(loaded, withAlt, loaded.states), undefined);
    assert.deepEqual(namedSpecs(loaded, parseQuery('zoom files'), loaded.states)?.named.map((s) => s.spec.name), ['zoom-0']);
  });
});
