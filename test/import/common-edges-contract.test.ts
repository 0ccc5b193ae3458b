// Edges of what the OpenAPI and Swagger importers share (src/import/common.ts), from its contract:
// each security scheme kind needs its own type and fields (a field of another kind does not make
// it that kind), type labels look three combinator levels deep, response labels are the first
// non-blank line and keep 120 characters whole, endpoints of one server list share it, a null
// schema is `any`, and a broken operation $ref is warned with the lookup's hint.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { docLoader } from './load-doc.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

const load = docLoader('svc-import-common-edges-');

const oas = (paths: object, extra: object = {}): object => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, ...extra });
const ok = { '200': { description: 'OK' } };

describe('security schemes', () => {
  test('a scheme is the kind its type says, with that kind\'s fields; fields of another kind change nothing', async () => {
    const spec = await load(
      oas({}, {
        components: {
          securitySchemes: {
            keyWithScheme: { type: 'apiKey', scheme: 'bearer', name: 'k', in: 'header' },
            oauthWithScheme: { type: 'oauth2', scheme: 'basic', flows: {} },
            httpWithKeyFields: { type: 'http', name: 'k', in: 'query' },
            keyWithoutName: { type: 'apiKey', in: 'header' },
            tlsWithOidcUrl: { type: 'mutualTLS', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' },
            tlsWithNumberDescription: { type: 'mutualTLS', description: 5 },
            nullFlow: { type: 'oauth2', flows: { implicit: null, password: { tokenUrl: 'https://a.example.com/t', scopes: { r: '' } } } },
          },
        },
      }),
    );
    assert.deepEqual(spec.securitySchemes, {
      keyWithScheme: { type: 'apiKey', in: 'header', name: 'k' },
      oauthWithScheme: { type: 'oauth2' },
      httpWithKeyFields: { type: 'other', description: 'security scheme of type http' },
      keyWithoutName: { type: 'other', description: 'security scheme of type apiKey' },
      tlsWithOidcUrl: { type: 'other', description: 'security scheme of type mutualTLS' },
      tlsWithNumberDescription: { type: 'other', description: 'security scheme of type mutualTLS' },
      nullFlow: { type: 'oauth2', tokenUrl: 'https://a.example.com/t', scopes: ['r'] },
    });
  });
});

describe('type labels', () => {
  const nest = (levels: number): object => (levels === 0 ? { type: 'string' } : { allOf: [nest(levels - 1)] });
  test('allOf is looked into three levels deep, not further; a null schema is any', async () => {
    const spec = await load(
      oas({
        '/x': {
          get: {
            parameters: [
              { name: 'three', in: 'query', schema: nest(3) },
              { name: 'four', in: 'query', schema: nest(4) },
              { name: 'none', in: 'query', schema: null },
            ],
            responses: ok,
          },
        },
      }),
    );
    assert.deepEqual(spec.endpoints[0]!.parameters.map((p) => [p.name, p.type]), [['three', 'string'], ['four', 'any'], ['none', 'any']]);
  });
});

describe('response labels', () => {
  test('blank lines before the first line are skipped, and a first line of exactly 120 characters is kept whole', async () => {
    const exactly = `${'word '.repeat(23)}wxyz`;
    assert.equal(exactly.length, 119);
    const long = `${exactly}!`;
    const spec = await load(oas({ '/x': { get: { responses: { '200': { description: '\n\n  First line\nsecond' }, '201': { description: long }, '202': { description: `${long} more words` } } } } }));
    const [a, b, c] = spec.endpoints[0]!.responses;
    assert.equal(a!.label, 'First line');
    assert.equal(b!.label, long);
    assert.equal(c!.label, `${long}…`);
  });
});

describe('servers', () => {
  test('endpoints under one servers list share one server list object', async () => {
    const spec = await load(oas({ '/x': { servers: [{ url: 'https://a.example.com' }], get: { responses: ok }, put: { responses: ok } } }));
    const [get, put] = spec.endpoints;
    assert.deepEqual(get!.servers, [{ url: 'https://a.example.com' }]);
    assert.equal(get!.servers, put!.servers);
  });
});

describe('broken operations', () => {
  test('an operation $ref that finds nothing is warned with the lookup\'s hint', async () => {
    const spec = await load(oas({ '/x': { get: { $ref: '#/components/x-ops/missing' } } }));
    assert.deepEqual(spec.warnings.map((w) => [w.code, w.pointer, w.hint]), [['ref-missing', '/paths/~1x/get', 'Fix the pointer after # or add the missing definition.']]);
  });
});
