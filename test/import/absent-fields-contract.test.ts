// What the importers read when a field is absent or of the wrong kind: a Postman raw body without
// text and form fields that are not a list make an optional body, a saved response with neither
// name nor status has an empty label, an Azure parameterized host without parameters has no
// variables, and an OAuth2 flow whose scopes are not an object lists none.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { docLoader } from './load-doc.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

const load = docLoader('svc-import-absent-');

const POSTMAN_21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const collection = (items: object[]): object => ({ info: { name: 'c', schema: POSTMAN_21 }, item: items });
const request = (name: string, extra: object): object => ({ name, request: { method: 'POST', url: 'https://api.example.com/x', ...extra } });

function byName(spec: ImportedSpec, summary: string): Endpoint {
  const e = spec.endpoints.find((x) => x.summary === summary);
  assert.ok(e, `no endpoint ${summary} in ${spec.endpoints.map((x) => x.summary).join(', ')}`);
  return e;
}

describe('Postman', () => {
  test('a raw body without text is an optional plain-text body; one with text is required', async () => {
    const spec = await load(collection([request('No text', { body: { mode: 'raw' } }), request('Some text', { body: { mode: 'raw', raw: 'hello' } })]));
    assert.deepEqual(byName(spec, 'No text').requestBody, { required: false, contents: [{ mediaType: 'text/plain' }] });
    assert.deepEqual(byName(spec, 'Some text').requestBody, { required: true, contents: [{ mediaType: 'text/plain' }] });
  });

  test('urlencoded or formdata fields that are not a list make an optional body with no properties', async () => {
    const spec = await load(
      collection([request('Url', { body: { mode: 'urlencoded', urlencoded: 'a=1' } }), request('Form', { body: { mode: 'formdata', formdata: { a: 1 } } })]),
    );
    for (const [name, mediaType] of [['Url', 'application/x-www-form-urlencoded'], ['Form', 'multipart/form-data']] as const) {
      const body = byName(spec, name).requestBody!;
      assert.equal(body.required, false);
      assert.deepEqual(body.contents.map((c) => [c.mediaType, c.schema?.node]), [[mediaType, { type: 'object', properties: {} }]]);
    }
  });

  test('a saved response with neither name nor status has an empty label; the name, else the status line, otherwise', async () => {
    const spec = await load(
      collection([
        {
          name: 'Saved',
          request: { method: 'GET', url: 'https://api.example.com/x' },
          response: [
            { code: 204 },
            { code: 200, status: 'OK\nsecond line' },
            { code: 201, name: '  Made  ', status: 'Created' },
          ],
        },
      ]),
    );
    assert.deepEqual(byName(spec, 'Saved').responses.map((r) => [r.status, r.label]), [['204', ''], ['200', 'OK'], ['201', 'Made']]);
  });
});

describe('Swagger 2.0 and OpenAPI', () => {
  test('a parameterized host without a parameter list is its template alone, without variables or warnings', async () => {
    const spec = await load({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      'x-ms-parameterized-host': { hostTemplate: 'fixed.example.com', parameters: 'none' },
      paths: { '/x': { get: { responses: { '200': { description: 'OK' } } } } },
    });
    assert.deepEqual(spec.servers, [{ url: 'https://fixed.example.com' }]);
    assert.deepEqual(spec.warnings, []);
  });

  test('an OAuth2 flow whose scopes are not an object lists no scopes; the scopes of the other flows are merged', async () => {
    const spec = await load({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        securitySchemes: {
          none: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://a.example.com/t', scopes: 'read' } } },
          some: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a.example.com/a', scopes: { r: '' } }, password: { tokenUrl: 'https://a.example.com/t', scopes: ['w'] } } },
        },
      },
    });
    assert.deepEqual(spec.securitySchemes, {
      none: { type: 'oauth2', tokenUrl: 'https://a.example.com/t' },
      some: { type: 'oauth2', tokenUrl: 'https://a.example.com/t', scopes: ['r'] },
    });
  });
});
