// What a $ref's file part is (src/import/documents.ts): a URL only when it starts with http(s)://
// or a scheme; text like that later in a relative path is part of a file name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentSet } from '../../src/import/documents.ts';

test('a relative path holding "https://" or "name:" after its first segment is a file path, not a URL or scheme', () => {
  const docs = DocumentSet.fromDocs(
    new Map<string, unknown>([
      ['/r/root.json', {}],
      ['/r/dir/ab:c.json', { a: { type: 'integer' } }],
    ]),
  );
  assert.deepEqual(docs.lookup('dir/ab:c.json#/a', '/r/root.json'), { ok: true, file: '/r/dir/ab:c.json', pointer: '/a', node: { type: 'integer' } });
  // A file path, and (the set is rebuilt from an import's documents) a file that is not there.
  const notLoaded = docs.lookup('dir/https://x.json#/a', '/r/root.json');
  assert.equal(notLoaded.ok, false);
  assert.equal(!notLoaded.ok && notLoaded.code, 'ref-file-missing');
  assert.equal(!notLoaded.ok && notLoaded.message, '$ref to /r/dir/https:/x.json: file not found');
  const url = docs.lookup('https://example.com/x.json#/a', '/r/root.json');
  assert.equal(!url.ok && url.code, 'ref-file-not-loaded');
  assert.match(!url.ok ? url.message : '', /file https:\/\/example\.com\/x\.json was not loaded/);
});
