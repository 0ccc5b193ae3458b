// Which API a search over many chooses when the query says an API's whole name: that API's matches
// first, even when its name is a word every other API uses. One row per way of saying a name; each
// row must fail with the rule family switched off.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { withRules } from '../../src/catalog/search.ts';
import { isGenericNameWord } from '../../src/catalog/spec-names.ts';
import { termsOf } from '../../src/catalog/text.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { spec } from './fixtures.ts';

/** An API about files and folders that says `word` (as a query would) all over its paths and summaries. */
function filesApi(name: string, word: string): ImportedSpec {
  const slug = word.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return spec(name, [
    { method: 'GET', path: `/${slug}`, summary: `List ${word} items` },
    { method: 'POST', path: `/${slug}/{id}/files`, summary: `Upload one file to ${word}` },
    { method: 'GET', path: `/${slug}/{id}/files`, summary: `List files in ${word}` },
    { method: 'GET', path: `/${slug}/{id}/buckets`, summary: `List all buckets of ${word}` },
    { method: 'POST', path: `/${slug}/{id}/embeddings`, summary: `Create one embedding for ${word}` },
    { method: 'GET', path: `/${slug}/{id}/containers`, summary: `List the containers of ${word} in storage` },
  ]);
}

/** The named API: plain endpoints that say nothing of its name. */
function namedApi(name: string): ImportedSpec {
  return spec(name, [
    { method: 'POST', path: '/files/content', summary: 'Upload a file' },
    { method: 'GET', path: '/files', summary: 'List files' },
    { method: 'GET', path: '/buckets', summary: 'List buckets' },
    { method: 'POST', path: '/embeddings', summary: 'Create an embedding' },
    { method: 'GET', path: '/containers', summary: 'List containers' },
  ]);
}

interface Row {
  readonly name: string;
  /** The name as the query says it. */
  readonly said: string;
  readonly query: string;
}

const ROWS: readonly Row[] = [
  { name: 'box', said: 'box', query: 'upload a file to box' },
  { name: 'openai', said: 'OpenAI', query: 'OpenAI: create an embedding' },
  { name: 'petstore', said: 'Pet Store', query: 'list files of the Pet Store' },
  { name: 's3', said: 'S3', query: 'list buckets in S3' },
  { name: 'azure-blob', said: 'Azure Blob', query: 'list containers in Azure Blob storage' },
  { name: 'stripe.com', said: 'stripe', query: 'list files on stripe' },
];

/** Many APIs that use the name's words (`box`, `azure blob`, ...) in their own endpoints, and the named API last. */
function catalogFor(name: string, said: string): Catalog {
  const others: ImportedSpec[] = [];
  for (let i = 0; i < 8; i++) others.push(filesApi(`other${i}`, said));
  return new Catalog([...others, namedApi(name)]);
}

describe('a query that says an API whole name', () => {
  for (const row of ROWS) {
    it(`"${row.query}" ranks ${row.name} first, and not without the rule`, () => {
      const catalog = catalogFor(row.name, row.said);
      assert.equal(catalog.search(row.query)[0]?.endpoint.spec, row.name);
      const without = withRules({ fullNames: false }, () => catalog.search(row.query)[0]?.endpoint.spec);
      assert.notEqual(without, row.name);
    });
  }

  it('the longest name said wins: "azure blob" names azure-blob before azure', () => {
    const catalog = new Catalog([namedApi('azure'), filesApi('other', 'Azure Blob'), namedApi('azure-blob')]);
    assert.equal(catalog.search('list containers in Azure Blob storage')[0]?.endpoint.spec, 'azure-blob');
  });

  it('a name said in part (one word of two) does not name the API', () => {
    const others = [0, 1, 2, 3, 4, 5].map((i) => filesApi(`other${i}`, 'blob'));
    const catalog = new Catalog([...others, namedApi('azure-blob')]);
    assert.equal(catalog.search('upload a file to a blob')[0]?.endpoint.spec, 'other0');
  });

  it('a name of stop words names no API: "to" in a query does not name dev.to', () => {
    const others = [0, 1, 2, 3, 4, 5].map((i) => filesApi(`other${i}`, 'drive'));
    const catalog = new Catalog([...others, namedApi('dev.to')]);
    assert.equal(catalog.search('upload a file to drive')[0]?.endpoint.spec, 'other0');
  });

  it('a stop word beside other words stays part of the name: "tracking" alone does not name here-tracking', () => {
    const others = [0, 1, 2, 3, 4, 5].map((i) => filesApi(`other${i}`, 'tracking'));
    const catalog = new Catalog([...others, namedApi('here-tracking')]);
    assert.equal(catalog.search('upload a file to tracking')[0]?.endpoint.spec, 'other0');
    assert.equal(catalog.search('upload a file to here tracking')[0]?.endpoint.spec, 'here-tracking');
  });

  it('within one spec its name is not searched', () => {
    const catalog = new Catalog([namedApi('box')]);
    assert.equal(catalog.search('upload a file to box', { spec: 'box' })[0]?.endpoint.id, 'box:POST:/files/content');
  });

  it('any name said in a query ranks that API first among APIs that all use the name words', () => {
    const word = fc.stringMatching(/^[a-z]{3,8}$/);
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 2 }), fc.constantFrom('upload a file to', 'list buckets in', 'create an embedding on'), (words, action) => {
        // Stop words alone name nothing (the test above), nor words every API uses of itself ("api").
        fc.pre(words.some((w) => termsOf(w).length > 0 && !isGenericNameWord(w)));
        const name = words.join('-');
        const catalog = catalogFor(name, words.join(' '));
        const hit = catalog.search(`${action} ${words.join(' ')}`)[0];
        assert.equal(hit?.endpoint.spec, name);
      }),
      { numRuns: 40 },
    );
  });
});
