// The weight-fitting harness (bench/search-fit.ts) is right: a setting is patched in for one
// evaluation only and every table of weights.ts is as it was afterwards, a step the fit takes
// stays inside the bounds the pruning relies on, and the leave-one-API-out check counts a gain only
// when other APIs share it.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Fitter, crossValidated, fittedWeights } from '../../bench/search-fit.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { type Query, importFixtureSpecs } from './harness.ts';

const query = (text: string, accept: string[], spec: string, set: 'dev' | 'fresh' = 'dev'): Query => ({ spec, query: text, accept, set, heldOut: false, place: `fixture:${text}` });
const values = () => new Map(fittedWeights().map((w) => [w.name, w.table[w.key] as number]));

describe('weight-fitting harness', () => {
  let specs: ImportedSpec[];
  before(async () => {
    specs = await importFixtureSpecs(['alpha', 'beta']);
  });

  it('finds every weight it fits in the tables, each a positive number, the capped ones at most 1', () => {
    const weights = fittedWeights();
    assert.ok(weights.length >= 30, `${weights.length} weights`);
    assert.equal(new Set(weights.map((w) => w.name)).size, weights.length, 'names are unique');
    for (const w of weights) {
      const v = w.table[w.key];
      assert.equal(typeof v, 'number', w.name);
      assert.ok((v as number) > 0, w.name);
      if (w.atMostOne) assert.ok((v as number) <= 1, `${w.name} is at most 1`);
    }
    // What the pruning bounds take as at most 1 is fitted as such.
    for (const name of ['shape.itemForCollection', 'methodFitDefault', 'verb.unsaid', 'pathWordsBase', 'imperativeRemoval', 'naming.weight']) {
      assert.ok(weights.find((w) => w.name === name)?.atMostOne, name);
    }
  });

  it('patches a setting in for one evaluation and leaves every table as it was', () => {
    const queries = [query('list notes', ['alpha:GET:/notes'], 'alpha'), query('reports', ['beta:GET:/reports'], 'beta', 'fresh')];
    const fitter = new Fitter(specs, queries, new Set(['beta']));
    const names = fittedWeights().map((w) => w.name);
    const before = values();
    fc.assert(
      fc.property(fc.subarray(names, { minLength: 1, maxLength: 8 }), fc.double({ min: 0.1, max: 3, noNaN: true }), (picked, factor) => {
        const setting = new Map(picked.map((n) => [n, before.get(n)! * factor]));
        const groups = fitter.at(setting);
        assert.equal(groups.all.n, 2);
        assert.deepEqual(values(), before);
      }),
      { numRuns: 25 },
    );
  });

  it('finds the fixture answers and splits fit and held-out queries by API', () => {
    const queries = [query('list notes', ['alpha:GET:/notes'], 'alpha'), query('list reports', ['beta:GET:/reports'], 'beta', 'fresh')];
    const groups = new Fitter(specs, queries, new Set(['alpha'])).at(new Map());
    assert.equal(groups.fit.n, 1);
    assert.equal(groups.held.n, 1);
    assert.equal(groups.fit.hit1, 1);
    assert.equal(groups.held.hit1, 1);
    assert.deepEqual([...groups.fitByApi], [['alpha', 1]]);
  });
});

describe('leave-one-API-out check of a step', () => {
  const apis = ['a', 'b', 'c', 'd'];
  const scores = fc.array(fc.integer({ min: 0, max: 20 }), { minLength: apis.length, maxLength: apis.length });
  const asMap = (xs: readonly number[]) => new Map(apis.map((api, i) => [api, xs[i]!]));

  it('counts nothing when a single API alone gains or loses', () => {
    fc.assert(
      fc.property(scores, fc.array(fc.integer({ min: -10, max: 10 }), { minLength: 1, maxLength: 5 }), fc.nat(apis.length - 1), (base, deltas, who) => {
        const candidates = deltas.map((d) => asMap(base.map((s, i) => (i === who ? s + d : s))));
        assert.equal(crossValidated(asMap(base), candidates), 0);
      }),
    );
  });

  it('counts the whole gain when every API gains alike', () => {
    fc.assert(
      fc.property(scores, fc.integer({ min: 1, max: 5 }), (base, d) => {
        assert.equal(crossValidated(asMap(base), [asMap(base.map((s) => s + d))]), d * apis.length);
      }),
    );
  });

  it('never counts more than each API would gain by its own best candidate', () => {
    fc.assert(
      fc.property(scores, fc.array(scores, { minLength: 1, maxLength: 5 }), (base, others) => {
        const oracle = apis.reduce((sum, _, i) => sum + Math.max(0, ...others.map((o) => o[i]! - base[i]!)), 0);
        assert.ok(crossValidated(asMap(base), others.map(asMap)) <= oracle + 1e-9);
      }),
    );
  });
});
