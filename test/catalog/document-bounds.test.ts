// What an endpoint's entry and index document read from its path and description, at their edges.
// A Postman-style `:name` segment is a placeholder like `{name}`, and so is a segment with a
// placeholder inside (`report-{date}`): not the resource, not a path word. Only the first 1,800
// characters of a description are read (three times the 600 that are indexed: room for markup),
// however much markup they hold: the bound on the work one huge description costs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { documentOf, makeEntry } from '../../src/catalog/document.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { endpoint } from './fixtures.ts';

const entryOf = (path: string, description = '') => makeEntry(endpoint('s', 'c', { method: 'GET', path, summary: 'Show one', description }), 1, 0);

describe('a `:name` path segment', () => {
  it('is a placeholder wherever it stands: never the resource, never a path word', () => {
    const NAMES = ['widgets', 'orders', 'teams', 'members'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.boolean()), { minLength: 1, maxLength: 4 }), (segments) => {
        const colon = `/${segments.map(([name, param]) => (param ? `${name}/:${name.slice(0, -1)}Id` : name)).join('/')}`;
        const braces = `/${segments.map(([name, param]) => (param ? `${name}/{${name.slice(0, -1)}Id}` : name)).join('/')}`;
        const a = entryOf(colon);
        const b = entryOf(braces);
        assert.deepEqual([a.item, a.resource, a.pathWords], [b.item, b.resource, b.pathWords], colon);
        for (const w of a.pathWords) assert.ok(!w.endsWith('id'), `${w} in ${colon}`);
      }),
      { numRuns: 60 },
    );
  });

  it('and a segment with a placeholder inside (`report-{date}`) is one too', () => {
    const e = entryOf('/files/report-{date}');
    assert.deepEqual([e.item, e.resource, e.pathWords], [true, termsOf('files'), termsOf('files')]);
  });
});

describe('a long description', () => {
  it('is read for its first 1,800 characters only, markup included', () => {
    const marker = termsOf('zebrafish')[0]!;
    // A link target is markup: it leaves one space behind, so the word after it would be well
    // within the indexed 600 characters, were the description read past 1,800.
    const late = `Lists widgets. https://docs.example/${'a'.repeat(2000)} zebrafish`;
    assert.ok(!documentOf(entryOf('/widgets', late)).e.includes(marker));
    // Within the window the same word is indexed: the cut, not the markup, left it out.
    const early = `Lists widgets. https://docs.example/${'a'.repeat(1500)} zebrafish`;
    assert.ok(documentOf(entryOf('/widgets', early)).e.includes(marker));
  });
});
