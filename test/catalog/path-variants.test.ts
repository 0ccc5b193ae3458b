// Paths with a query string or fragment (`/files/{id}#add_shared_link`, `/{c}?restype=container&comp=acl`):
// how specs write several operations on one path. The variant's words are the path's words too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { documentOf, makeEntry, pathTerms } from '../../src/catalog/search.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { endpoint, spec } from './fixtures.ts';

/**
 * Made-up lower-case words: no vocabulary table knows them, so each is its own term. The pattern
 * also makes real stop words (`which`, found by a rare seed), which the tokenizer drops: left out.
 */
const wordArb = fc.stringMatching(/^[b-df-hj-np-tv-z]{2}[aeiou][b-df-hj-np-tv-z]{2}$/).filter((w) => termsOf(w).length > 0);
const term = (w: string) => termsOf(w)[0]!;

describe('path variants (query string, fragment)', () => {
  it('counts a fragment or query value as the last literal segment, and a key or identifier part not at all', () => {
    fc.assert(
      fc.property(wordArb, wordArb, wordArb, fc.constantFrom('#', '?'), (noun, key, variant, mark) => {
        fc.pre(new Set([noun, key, variant]).size === 3);
        const paths = [`/${noun}/{${noun}_id}${mark}${variant}`, `/${noun}/{${noun}_id}${mark}${key}=${variant}&uploadId`];
        for (const path of paths) {
          assert.deepEqual(pathTerms(path), [term(noun), term(variant)], path);
          const entry = makeEntry(endpoint('s', 'c', { method: 'GET', path }), 0);
          assert.deepEqual(entry.resource, [term(variant)], path);
          assert.equal(entry.item, false, path);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('finds the variant a query names among operations on one path', () => {
    const catalog = new Catalog([
      spec('box', [
        { method: 'GET', path: '/files/{file_id}' },
        { method: 'GET', path: '/files/{file_id}#get_shared_link' },
        { method: 'PUT', path: '/files/{file_id}' },
        { method: 'PUT', path: '/files/{file_id}#remove_shared_link' },
      ]),
      spec('blob', [
        { method: 'GET', path: '/{container}?restype=container&comp=acl' },
        { method: 'GET', path: '/{container}?restype=container&comp=metadata' },
      ]),
    ]);
    const first = (q: string) => catalog.search(q, {}, 5)[0]?.endpoint.id;
    assert.equal(first('shared link of a file'), 'box:GET:/files/{file_id}#get_shared_link');
    assert.equal(first('remove the shared link of a file'), 'box:PUT:/files/{file_id}#remove_shared_link');
    assert.equal(first('container acl'), 'blob:GET:/{container}?restype=container&comp=acl');
    assert.equal(first('container metadata'), 'blob:GET:/{container}?restype=container&comp=metadata');
  });
});

describe('what an endpoint says it does', () => {
  it('is its summary, else the first sentence of its description, else its operationId', () => {
    fc.assert(
      fc.property(wordArb, wordArb, wordArb, (a, b, c) => {
        fc.pre(new Set([a, b, c]).size === 3);
        const op = `${a}${b[0]!.toUpperCase()}${b.slice(1)}`;
        const doc = (input: { summary?: string; description?: string }) =>
          documentOf(makeEntry(endpoint('s', 'c', { method: 'GET', path: '/x', operationId: op, ...input }), 0)).s;
        assert.deepEqual(doc({}), [term(a), term(b)]);
        assert.deepEqual(doc({ description: `${c}. ${a}` }), [term(c)]);
        assert.deepEqual(doc({ summary: c, description: `${b}.` }), [term(c)]);
      }),
      { numRuns: 100 },
    );
  });
});
