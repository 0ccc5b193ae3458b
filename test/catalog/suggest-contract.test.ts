// "Did you mean" for unknown ids, from its parts' contracts: the edit distance is Levenshtein's,
// capped at one past the limit asked; path similarity is 1 for the same path and 0..1 otherwise;
// suggestions come from the named spec, else from every spec a typo away (all of them when several
// are equally close), else from every spec.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { editDistance, pathSimilarity } from '../../src/catalog/similar.ts';
import { spec } from './fixtures.ts';

/** Levenshtein distance, the textbook way. */
function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return d[a.length]![b.length]!;
}

const short = fc.stringMatching(/^[abc/{}]{0,9}$/);

describe('editDistance', () => {
  it('is Levenshtein\'s distance within the limit, and some distance past the limit beyond it', () => {
    fc.assert(
      fc.property(short, short, fc.option(fc.nat({ max: 6 }), { nil: undefined }), (a, b, max) => {
        const d = levenshtein(a, b);
        if (max === undefined) assert.equal(editDistance(a, b), d);
        else if (d <= max) assert.equal(editDistance(a, b, max), d, `${a} ${b} ${max}`);
        else assert.ok(editDistance(a, b, max) > max && editDistance(a, b, max) <= d, `${a} ${b} ${max}`);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('pathSimilarity', () => {
  const path = fc.array(fc.constantFrom('pets', 'pet', '{}', 'owners', 'toys'), { maxLength: 4 }).map((s) => `/${s.join('/')}`);

  it('is 1 for the same path, symmetric, within 0..1, and 0 between no segments and some', () => {
    fc.assert(
      fc.property(path, path, (a, b) => {
        assert.equal(pathSimilarity(a, a), 1);
        const s = pathSimilarity(a, b);
        assert.ok(s >= 0 && s <= 1, `${a} ${b} ${s}`);
        assert.ok(Math.abs(s - pathSimilarity(b, a)) < 1e-12);
        if (a !== b) assert.ok(s < 1, `${a} ${b}`);
      }),
    );
    assert.equal(pathSimilarity('/', '/'), 1);
    assert.equal(pathSimilarity('', '/pets'), 0);
    assert.equal(pathSimilarity('/pets', '/'), 0);
    assert.ok(pathSimilarity('/repos/{}/pull', '/repos/{}/pulls') > pathSimilarity('/repos/{}/pull', '/users/{}'));
  });
});

describe('Catalog.suggest', () => {
  const catalog = new Catalog([
    spec('pets1', [{ method: 'GET', path: '/pets', summary: 'List pets' }, { method: 'GET', path: '/owners', summary: 'List owners' }, { method: 'DELETE', path: '/toys/{id}', summary: 'Delete a toy' }]),
    spec('pets2', [{ method: 'GET', path: '/toys', summary: 'List toys' }, { method: 'POST', path: '/toys', summary: 'Create a toy' }]),
    spec('zoo', [{ method: 'GET', path: '/animals', summary: 'List animals' }]),
  ]);

  it('suggests from every spec whose name is equally close to a mistyped one', () => {
    const ids = catalog.suggest('pets3:GET:/toys', 10);
    assert.equal(ids[0], 'pets2:GET:/toys');
    assert.ok(ids.includes('pets1:DELETE:/toys/{id}'), ids.join(' '));
    assert.ok(!ids.includes('zoo:GET:/animals'), ids.join(' '));
    assert.deepEqual(catalog.suggest('pets2:GET:/toy', 2), ['pets2:GET:/toys', 'pets2:POST:/toys']);
    // The same method first among equally close paths.
    assert.deepEqual(catalog.suggest('pets2:POST:/toy', 2), ['pets2:POST:/toys', 'pets2:GET:/toys']);
    // Three edits away is still a typo of that name: only its endpoints.
    assert.ok(catalog.suggest('zoo123:GET:/toys', 10).every((id) => id.startsWith('zoo:')));
    assert.ok(catalog.suggest('zoo1234:GET:/toys', 10).includes('pets2:GET:/toys'));
  });

  it('looks in every spec when no name is close, and searches for what is not an id', () => {
    assert.equal(catalog.suggest('elsewhere:GET:/animals', 1)[0], 'zoo:GET:/animals');
    assert.deepEqual(catalog.suggest('list animals', 1), ['zoo:GET:/animals']);
    assert.deepEqual(catalog.suggest('pets1:GET:/pets', 0), []);
  });
});
