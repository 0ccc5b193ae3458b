// How much of a query a result covers: each query term counted once, by its weight times the
// strength of the strongest field it matched in; an index term counts for the query term it is,
// else the longest query term it extends, else (a fuzzy match) the first query term not yet counted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fieldCoverage } from '../../src/catalog/coverage.ts';
import { parseQuery } from '../../src/catalog/search.ts';
import { WEIGHTS } from '../../src/catalog/weights.ts';

const strength = WEIGHTS.fieldStrength as Record<string, number>;
const result = (match: Record<string, string[]>): Record<string, string[]> => match;
const FIELDS = ['s', 'p', 'o', 't', 'd', 'a', 'e'];

describe('fieldCoverage, by example', () => {
  it('counts each exactly matched query term once, by its strongest field', () => {
    fc.assert(
      fc.property(fc.subarray(['pod', 'user', 'messag', 'list'], { minLength: 1 }), fc.array(fc.subarray(FIELDS, { minLength: 1 }), { minLength: 4, maxLength: 4 }), (terms, fields) => {
        const q = { ...parseQuery(terms.join(' ')), terms, weights: new Map(terms.map((t, i) => [t, i % 2 === 0 ? 1 : 0.5])) };
        const match: Record<string, string[]> = {};
        terms.forEach((t, i) => (match[t] = fields[i]!));
        const want = terms.reduce((sum, t, i) => sum + q.weights.get(t)! * Math.max(...fields[i]!.map((f) => strength[f]!)), 0);
        assert.ok(Math.abs(fieldCoverage(result(match), q) - want) < 1e-12);
      }),
    );
  });

  it('credits a longer index word to the longest query term it extends, and a fuzzy one to the first term not yet credited', () => {
    const q = { ...parseQuery('x'), terms: ['pod', 'podcast', 'user'], weights: new Map([['pod', 1], ['podcast', 0.5], ['user', 0.25]]) };
    // `podcasts` extends both `pod` and `podcast`: it counts for `podcast` (0.5 x summary strength 1).
    assert.equal(fieldCoverage(result({ podcasts: ['s'] }), q), 0.5);
    // A fuzzy match: the first term not yet credited (`pod`, weight 1), then the next (`podcast`).
    assert.equal(fieldCoverage(result({ pid: ['s'] }), q), 1);
    assert.equal(fieldCoverage(result({ pod: ['a'], pid: ['s'] }), q), 1 * strength.a! + 0.5);
    // Every term credited already: a fuzzy match adds nothing.
    assert.equal(fieldCoverage(result({ pod: ['s'], podcast: ['s'], user: ['t'], usr: ['s'] }), q), 1 + 0.5 + 0.25 * strength.t!);
    // A term matched twice counts once, by its stronger field.
    assert.equal(fieldCoverage(result({ pod: ['a'], pods: ['s'] }), { ...q, terms: ['pod'], weights: new Map([['pod', 1]]) }), 1);
    assert.equal(fieldCoverage(result({ pods: ['s'], pod: ['a'] }), { ...q, terms: ['pod'], weights: new Map([['pod', 1]]) }), 1);
    // A field the table does not know counts half.
    assert.equal(fieldCoverage(result({ pod: ['zz'] }), { ...q, terms: ['pod'], weights: new Map([['pod', 1]]) }), 0.5);
    assert.equal(fieldCoverage(result({}), q), 0);
  });
});
