// Which kind of API description a document is, from the contract of src/import/detect.ts: every
// answer whole (format, the version as written, the warning or the refusal with its hint), and
// numeric YAML versions read back as written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { detectFormat } from '../../src/import/detect.ts';

const SUPPORTED = 'OpenAPI 3.0/3.1, Swagger 2.0 or a Postman collection v2.0/v2.1';
const notApi = (what: string) => ({ ok: false, code: 'not-an-api-description', message: `not an API description: ${what}`, hint: `Point svc at ${SUPPORTED} document.` });

test('a document that is not an object is refused, naming what it is', () => {
  assert.deepEqual(detectFormat(null), notApi('the document is null, not an object'));
  assert.deepEqual(detectFormat([1]), notApi('the document is a list, not an object'));
  assert.deepEqual(detectFormat('text'), notApi('the document is a string, not an object'));
  assert.deepEqual(detectFormat(3), notApi('the document is a number, not an object'));
  assert.deepEqual(detectFormat({ info: { title: 'x' } }), notApi('no "openapi", "swagger" or Postman "info"/"item" at the top'));
  assert.deepEqual(detectFormat({ info: [], item: [] }), notApi('no "openapi", "swagger" or Postman "info"/"item" at the top'));
  assert.deepEqual(detectFormat({ info: null, item: [] }), notApi('no "openapi", "swagger" or Postman "info"/"item" at the top'));
});

test('OpenAPI 3.0.x and 3.1.x by their version as written; later 3.x read as 3.1 with a warning; others refused', () => {
  fc.assert(
    fc.property(fc.nat({ max: 9 }), fc.option(fc.nat({ max: 20 }), { nil: undefined }), (minor, patch) => {
      const v = patch === undefined ? `3.${minor}` : `3.${minor}.${patch}`;
      const d = detectFormat({ openapi: v });
      if (minor === 0) assert.deepEqual(d, { ok: true, format: 'openapi-3.0', formatVersion: v });
      else if (minor === 1) assert.deepEqual(d, { ok: true, format: 'openapi-3.1', formatVersion: v });
      else assert.deepEqual(d, { ok: true, format: 'openapi-3.1', formatVersion: v, warning: `OpenAPI ${v} is read as OpenAPI 3.1; newer features are ignored` });
    }),
  );
  for (const v of ['2.0', '3', '30.1', '3.x', '4.0.0', 'v3.0', '3.a']) {
    assert.deepEqual(detectFormat({ openapi: v }), { ok: false, code: 'format-unsupported', message: `OpenAPI version "${v}" is not supported`, hint: `svc reads ${SUPPORTED}.` }, v);
  }
});

test('an unquoted YAML version (a number) is read back as written', () => {
  assert.deepEqual(detectFormat({ openapi: 3 }), { ok: true, format: 'openapi-3.0', formatVersion: '3.0' });
  assert.deepEqual(detectFormat({ openapi: 3.1 }), { ok: true, format: 'openapi-3.1', formatVersion: '3.1' });
  assert.deepEqual(detectFormat({ openapi: 3.25 }), { ok: true, format: 'openapi-3.1', formatVersion: '3.25', warning: 'OpenAPI 3.25 is read as OpenAPI 3.1; newer features are ignored' });
});

test('Swagger 2.0 (also written as the number 2); other Swagger versions refused with the way out', () => {
  for (const v of ['2.0', '2', 2]) assert.deepEqual(detectFormat({ swagger: v }), { ok: true, format: 'swagger-2.0', formatVersion: '2.0' });
  assert.deepEqual(detectFormat({ swagger: '1.2' }), { ok: false, code: 'format-unsupported', message: 'Swagger version "1.2" is not supported', hint: 'Convert it to OpenAPI 3 (e.g. with swagger2openapi) or Swagger 2.0.' });
  assert.deepEqual(detectFormat({ openapi: '3.0.0', swagger: '2.0' }), { ok: true, format: 'openapi-3.0', formatVersion: '3.0.0' }, 'openapi wins');
});

test('Postman v2.0 and v2.1 by their schema; an unknown Postman schema read as v2.1 with a warning; v1 refused', () => {
  const schema = (s: string) => ({ info: { schema: s }, item: [] });
  assert.deepEqual(detectFormat(schema('https://schema.getpostman.com/json/collection/v2.0.0/collection.json')), { ok: true, format: 'postman-2.0', formatVersion: 'v2.0.0' });
  assert.deepEqual(detectFormat(schema('https://schema.getpostman.com/json/collection/v2.1.0/collection.json')), { ok: true, format: 'postman-2.1', formatVersion: 'v2.1.0' });
  assert.deepEqual(detectFormat({ info: { schema: 'v2.0.0' } }), { ok: true, format: 'postman-2.0', formatVersion: 'v2.0.0' }, 'the schema alone decides');
  assert.deepEqual(detectFormat(schema('https://schema.getpostman.com/json/collection/v3/x.json')), { ok: true, format: 'postman-2.1', warning: 'unknown Postman schema "https://schema.getpostman.com/json/collection/v3/x.json"; read as v2.1' });
  assert.deepEqual(detectFormat(schema('https://example.com/POSTMAN/x')), { ok: true, format: 'postman-2.1', warning: 'unknown Postman schema "https://example.com/POSTMAN/x"; read as v2.1' });
  assert.deepEqual(detectFormat({ info: { schema: 'https://example.com/other' }, item: [] }), { ok: true, format: 'postman-2.1' });
  assert.deepEqual(detectFormat({ info: { schema: 'https://getpostman.com/x' } }), notApi('no "openapi", "swagger" or Postman "info"/"item" at the top'), 'a Postman schema without items');
  assert.deepEqual(detectFormat({ info: { name: 'x' }, item: [] }), { ok: true, format: 'postman-2.1' });
  const v1 = { ok: false, code: 'format-unsupported', message: 'Postman collection format v1 is not supported', hint: 'Export the collection from Postman as Collection v2.1.' };
  assert.deepEqual(detectFormat({ requests: [], order: [] }), v1);
  assert.deepEqual(detectFormat({ requests: [], name: 'c' }), v1);
  assert.deepEqual(detectFormat({ requests: [] }), notApi('no "openapi", "swagger" or Postman "info"/"item" at the top'));
  assert.deepEqual(detectFormat({ requests: {}, name: 'c' }), notApi('no "openapi", "swagger" or Postman "info"/"item" at the top'));
});
