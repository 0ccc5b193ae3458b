// Field coverage (coverage.ts), from its contract: each query term counts once, by the strongest
// field any index term it led to matched in (an index term leads back to itself when it is a query
// term, else to the longest query term it begins, else, a fuzzy match, to the first query term not
// counted yet); a term's weight times that strength, summed in the order terms were first counted.
// Held to a plain model of that rule on generated matches and queries, call after call.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fieldCoverage, fieldStrength } from '../../src/catalog/coverage.ts';
import type { ParsedQuery } from '../../src/catalog/query.ts';
import { WEIGHTS } from '../../src/catalog/weights.ts';

const WORDS = ['pod', 'pods', 'list', 'user', 'users', 'repo', 'label', 'gist', '404', '2'];
const FIELDS = ['s', 'p', 'o', 't', 'd', 'a', 'e', 'x'];

/** The rule, written plainly with a Map. */
function model(match: Record<string, readonly string[]>, terms: readonly string[], weights: ReadonlyMap<string, number>): number {
  const counted = new Map<string, number>();
  for (const key of Object.keys(match)) {
    const strength = Math.max(0, ...match[key]!.map((f) => (WEIGHTS.fieldStrength as Record<string, number>)[f] ?? 0.5));
    let source: string | undefined;
    if (weights.has(key)) source = key;
    else {
      for (const t of terms) if (key.startsWith(t) && (source === undefined || t.length > source.length)) source = t;
      if (source === undefined) source = terms.find((t) => !counted.has(t));
    }
    if (source === undefined) continue;
    if (counted.has(source)) counted.set(source, Math.max(counted.get(source)!, strength));
    else if (strength > 0) counted.set(source, strength);
  }
  let sum = 0;
  for (const [t, strength] of counted) sum += strength * (weights.get(t) ?? 1);
  return sum;
}

const query = fc
  .uniqueArray(fc.constantFrom(...WORDS, 'us', 'po'), { minLength: 1, maxLength: 4 })
  .chain((terms) => fc.tuple(fc.constant(terms), fc.array(fc.constantFrom(1, 0.5, 0.3, 0.1, 0.7), { minLength: terms.length, maxLength: terms.length })));
const indexTerm = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS).map((w) => `${w}s`), fc.constantFrom('zebra', 'lsit', 'usr', 'x1', '10'));
const match = fc.dictionary(indexTerm, fc.array(fc.constantFrom(...FIELDS), { maxLength: 3 }), { maxKeys: 6 });

describe('field coverage', () => {
  it('counts each query term once, by its strongest field, as the plain rule does, call after call', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(match, query), { minLength: 1, maxLength: 4 }), (cases) => {
        for (const [m, [terms, ws]] of cases) {
          const weights = new Map(terms.map((t, i) => [t, ws[i]!]));
          const q = { terms, weights } as unknown as ParsedQuery;
          assert.equal(fieldCoverage(m, q), model(m, terms, weights));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads the strength of each field from the weights, and 0.5 for a field it does not know', () => {
    for (const [field, strength] of Object.entries(WEIGHTS.fieldStrength)) assert.equal(fieldStrength(field), strength);
    assert.equal(fieldStrength('unknown'), 0.5);
  });

  it('counts nothing for a match in no field, and a term matched twice once', () => {
    const q = { terms: ['pods', 'list'], weights: new Map([['pods', 1], ['list', 0.5]]) } as unknown as ParsedQuery;
    assert.equal(fieldCoverage({ pods: [] }, q), 0);
    assert.equal(fieldCoverage({ pods: ['a'], podsx: ['s'] }, q), 1);
    assert.equal(fieldCoverage({ lsit: ['s'] }, q), 1, 'a fuzzy match counts for the first term not counted yet');
    assert.equal(fieldCoverage({ pods: ['s'], lsit: ['t'] }, q), 1 + 0.8 * 0.5);
  });
});
