// The search index is loaded into MiniSearch from postings counted in one pass, not added
// document by document. These tests hold it to what MiniSearch's own `addAll` builds from the
// same documents, so scores stay MiniSearch's own.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import MiniSearch from 'minisearch';
import { MINI_OPTIONS, buildIndex, makeEntry } from '../../src/catalog/search.ts';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { CORPUS } from '../search/harness.ts';
import { petsSpec, spec } from './fixtures.ts';
import { builtAndAdded } from './index-reference.ts';

/**
 * The index built in one pass, two ways (loaded into MiniSearch from its lean postings, and its
 * lean postings as MiniSearch's serialized form, loaded) against `addAll`'s.
 */
function bothWays(imported: ImportedSpec): { bulk: unknown; added: unknown } {
  const paths = new Map();
  const entries = imported.endpoints.map((e, i) => makeEntry(e, i + 1, i, paths));
  const { bulk, added } = builtAndAdded(entries);
  // (Its terms come in first-seen order, MiniSearch's `toJSON` in its tree's: compared once loaded.)
  assert.deepEqual(MiniSearch.loadJS(buildIndex(entries).data(), MINI_OPTIONS).toJSON(), added, 'the lean postings as MiniSearch\'s serialized form');
  return { bulk, added };
}

describe('the search index, built in one pass', () => {
  it('holds what MiniSearch addAll builds: postings, field lengths and their averages', () => {
    const { bulk, added } = bothWays(petsSpec());
    assert.deepEqual(bulk, added);
  });

  it('counts an empty field and a repeated word as MiniSearch does', () => {
    const imported = spec('s', [
      { method: 'GET', path: '/a', summary: 'list list list things' },
      { method: 'POST', path: '/a/{id}/b' },
      { method: 'DELETE', path: '/', summary: '', description: 'Removes. Really removes it, it, it.' },
    ]);
    const { bulk, added } = bothWays(imported);
    assert.deepEqual(bulk, added);
  });

  const corpusFiles = ['swagger-2.0/kubernetes/swagger.json', 'openapi-3.0/atlassian-jira/platform-swagger.v3.json'];
  for (const rel of corpusFiles) {
    const file = path.join(CORPUS, rel);
    it(`holds what addAll builds for ${rel}`, { skip: existsSync(file) ? false : `corpus not found at ${CORPUS}` }, async () => {
      const outcome = await importSpec(file, { name: 'c', collection: 'c' });
      assert.ok(outcome.ok);
      const { bulk, added } = bothWays(outcome.spec);
      assert.deepEqual(bulk, added);
    });
  }
});
