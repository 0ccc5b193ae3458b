// When no word of a query matches as typed, the search falls back to fuzzy matching (rank.ts), and
// only for words of at least five letters: in a short word one changed letter is another word
// ("pods" / "pads"), in a long one mostly a typo ("widgetz"). Spelling (spelling.ts) reads most such
// typos before the fallback is reached: it is off here, so that these are the fallback's answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { RULES } from '../../src/catalog/rules.ts';
import { spec } from './fixtures.ts';

describe('the fuzzy fallback', () => {
  before(() => {
    RULES.spelling = false;
  });
  after(() => {
    RULES.spelling = true;
  });
  const catalog = new Catalog([
    spec('s', [
      { method: 'GET', path: '/gadgets', summary: 'List gadgets' },
      { method: 'GET', path: '/pods', summary: 'List pods' },
      { method: 'GET', path: '/gizmos', summary: 'List gizmos' },
    ]),
  ]);

  it('finds a long word with one letter wrong', () => {
    assert.equal(catalog.search('gadgetz')[0]?.endpoint.path, '/gadgets');
    // Five letters are enough.
    assert.equal(catalog.search('gizmu')[0]?.endpoint.path, '/gizmos');
  });

  it('leaves a word of four letters as typed', () => {
    assert.deepEqual(catalog.search('podz').map((h) => h.endpoint.path), []);
    assert.equal(catalog.search('pods')[0]?.endpoint.path, '/pods');
  });
});
