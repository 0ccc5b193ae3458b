// The pieces the OpenAPI 3.x and Swagger 2.0 importers share, from their contract, through real
// imports of generated documents: parameter merging, type labels, response labels, servers,
// security schemes, and the warnings that keep one bad item from sinking the rest.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { docLoader } from './load-doc.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

const load = docLoader('svc-import-common-');

const oas = (paths: object, extra: object = {}): object => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, ...extra });
const swagger = (paths: object, extra: object = {}): object => ({ swagger: '2.0', info: { title: 't', version: '1' }, paths, ...extra });
const ok = { '200': { description: 'OK' } };

async function only(doc: object): Promise<Endpoint> {
  const spec = await load(doc);
  assert.equal(spec.endpoints.length, 1, JSON.stringify(spec.warnings));
  return spec.endpoints[0]!;
}

describe('parameter merging', () => {
  // Locations both formats know (Swagger 2.0 has no cookie parameters).
  const param = fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), in: fc.constantFrom('query', 'header') });
  const list = fc.uniqueArray(param, { maxLength: 5, selector: (p) => `${p.name}|${p.in}` });

  test('path-item parameters come first, each replaced in place by the operation parameter of the same name and location; the rest follow', async () => {
    await fc.assert(
      fc.asyncProperty(list, list, fc.boolean(), async (itemParams, opParams, useSwagger) => {
        const mk = (p: { name: string; in: string }, from: string) => ({ ...p, description: from, ...(useSwagger ? { type: 'string' } : { schema: { type: 'string' } }) });
        const item = { parameters: itemParams.map((p) => mk(p, 'item')), get: { parameters: opParams.map((p) => mk(p, 'op')), responses: ok } };
        const e = await only((useSwagger ? swagger : oas)({ '/x': item }));
        const key = (p: { name: string; in: string }) => `${p.name}|${p.in}`;
        const opKeys = new Set(opParams.map(key));
        const itemKeys = new Set(itemParams.map(key));
        const expected = [
          ...itemParams.map((p) => ({ ...p, description: opKeys.has(key(p)) ? 'op' : 'item' })),
          ...opParams.filter((p) => !itemKeys.has(key(p))).map((p) => ({ ...p, description: 'op' })),
        ];
        assert.deepEqual(e.parameters.map((p) => ({ name: p.name, in: p.in, description: p.description })), expected);
      }),
      { numRuns: 60 },
    );
  });

  test('a parameter reached through $ref merges like an inline one', async () => {
    const e = await only(
      oas(
        { '/x': { parameters: [{ $ref: '#/components/parameters/A' }], get: { parameters: [{ name: 'a', in: 'query', description: 'op', schema: { type: 'integer' } }], responses: ok } } },
        { components: { parameters: { A: { name: 'a', in: 'query', description: 'item', schema: { type: 'string' } } } } },
      ),
    );
    assert.deepEqual(e.parameters.map((p) => [p.name, p.description, p.type]), [['a', 'op', 'integer']]);
  });

  test('unreadable parameters are warned with their pointer and dropped; the others stay', async () => {
    const spec = await load(
      oas({
        '/x': {
          get: {
            parameters: [5, { in: 'query' }, { name: 'n' }, { $ref: '#/nowhere' }, { name: 'good', in: 'query', schema: { type: 'string' } }],
            responses: ok,
          },
        },
      }),
    );
    assert.deepEqual(spec.endpoints[0]!.parameters.map((p) => p.name), ['good']);
    const w = spec.warnings.map((x) => [x.code, x.message, x.pointer]);
    assert.deepEqual(w.slice(0, 3), [
      ['parameter-invalid', 'parameter is not an object (a number); ignored', '/paths/~1x/get/parameters/0'],
      ['parameter-invalid', 'parameter has no "name"; ignored', '/paths/~1x/get/parameters/1'],
      ['parameter-invalid', 'parameter has no "in"; ignored', '/paths/~1x/get/parameters/2'],
    ]);
    assert.equal(w[3]![2], '/paths/~1x/get/parameters/3');
    assert.match(String(w[3]![1]), /^parameter: /);
    assert.equal(spec.warnings[0]!.hint, 'Every parameter needs a "name" and an "in" (path, query, header, cookie).');
    const notList = await load(oas({ '/x': { parameters: { a: 1 }, get: { responses: ok } } }));
    assert.deepEqual(notList.warnings.map((x) => [x.code, x.message, x.pointer]), [['parameters-invalid', '"parameters" is not an array; ignored', '/paths/~1x/parameters']]);
    assert.equal(notList.endpoints.length, 1);
  });
});

describe('the path walk', () => {
  test('reads every section in document order, skips x- keys, and warns about unreadable items and operations', async () => {
    const spec = await load(
      oas({
        'x-note': { get: { responses: ok } },
        '/a': { get: { responses: ok }, post: { responses: ok }, 'x-ext': {}, summary: 'not an operation', trace: { responses: ok }, query: { responses: ok } },
        '/b': 7,
        '/c': { get: [1], put: { $ref: '#/nope' } },
        '/d': { $ref: '#/missing' },
        '/e': { delete: { responses: ok }, patch: { responses: ok }, head: { responses: ok }, options: { responses: ok } },
      }),
    );
    assert.deepEqual(spec.endpoints.map((e) => `${e.method} ${e.path}`), ['GET /a', 'POST /a', 'DELETE /e', 'PATCH /e', 'HEAD /e', 'OPTIONS /e']);
    assert.deepEqual(spec.skipped.map((s) => [s.method, s.path, s.pointer]), [['TRACE', '/a', '/paths/~1a/trace'], ['QUERY', '/a', '/paths/~1a/query']]);
    assert.equal(spec.skipped[0]!.reason, 'method TRACE is not one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const w = spec.warnings.map((x) => `${x.code} ${x.pointer} ${x.message}`);
    assert.deepEqual(w, [
      'method-skipped /paths/~1a/trace TRACE /a skipped: svc serves only GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
      'method-skipped /paths/~1a/query QUERY /a skipped: svc serves only GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
      'path-item-invalid /paths/~1b path item /b is not an object (a number); skipped',
      'operation-invalid /paths/~1c/get GET /c: operation is not an object (an array); skipped',
      w[4]!,
      w[5]!,
    ]);
    assert.match(w[4]!, /^\S+ \/paths\/~1c\/put PUT \/c: /);
    assert.match(w[5]!, /^\S+ \/paths\/~1d path item \/d: /);
  });

  test('paths that is not an object is a warning, and the spec still imports', async () => {
    const spec = await load(oas([] as unknown as object));
    assert.deepEqual(spec.warnings.map((x) => [x.code, x.message, x.pointer]), [['paths-invalid', '"paths" is not an object; no endpoints read from it', '/paths']]);
    assert.equal(spec.endpoints.length, 0);
  });

  test('a path item or operation behind $ref points at where it lives', async () => {
    const spec = await load(
      oas({ '/a': { $ref: '#/components/x-items/A' } }, { components: { 'x-items': { A: { get: { $ref: '#/components/x-ops/G' } } }, 'x-ops': { G: { responses: ok } } } }),
    );
    assert.equal(spec.endpoints[0]!.source.pointer, '/components/x-ops/G');
  });
});

describe('type labels', () => {
  const cases: [unknown, string][] = [
    [{ type: 'string' }, 'string'],
    [{ type: 'integer', nullable: true }, 'integer|null'],
    [{ type: ['string', 'null'], nullable: true }, 'string|null'],
    [{ type: 'array', items: { type: 'integer' } }, 'integer[]'],
    [{ type: 'array' }, 'array'],
    [{ items: { type: 'boolean' } }, 'boolean[]'],
    [{ type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'string' } } } } }, 'array[][][]'],
    [{ type: ['array', 'null'], items: { type: 'string' } }, 'string[]|null'],
    [{ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }, '(string|integer)[]'],
    [{ oneOf: [{ type: 'string' }, { type: 'string' }, { type: 'number' }] }, 'string|number'],
    [{ anyOf: [{ type: 'boolean' }, { $ref: '#/components/schemas/Obj' }] }, 'boolean|object'],
    [{ allOf: [{ description: 'no type' }, { type: 'integer' }] }, 'integer'],
    [{ allOf: [{ description: 'no type' }] }, 'any'],
    [{ properties: { a: { type: 'string' } } }, 'object'],
    [{ additionalProperties: true }, 'object'],
    [{ enum: ['a', 'b'] }, 'string'],
    [{ enum: [3] }, 'number'],
    [{ enum: [null, 'x'] }, 'null'],
    [{ enum: [] }, 'any'],
    [{ type: [] }, 'any'],
    [{ $ref: '#/components/schemas/Obj' }, 'object'],
    [{ $ref: '#/components/schemas/Missing' }, 'any'],
    [{}, 'any'],
    [{ oneOf: [{ oneOf: [{ oneOf: [{ oneOf: [{ type: 'string' }] }] }] }] }, 'any'],
  ];

  test('each schema shape gets its compact label', async () => {
    const paths = Object.fromEntries(cases.map(([schema], i) => [`/p${i}`, { get: { parameters: [{ name: 'q', in: 'query', schema }], responses: ok } }]));
    const spec = await load(oas(paths, { components: { schemas: { Obj: { type: 'object' } } } }));
    assert.deepEqual(
      spec.endpoints.map((e) => e.parameters[0]!.type),
      cases.map(([, label]) => label),
    );
  });

  test('a parameter without a schema is any', async () => {
    const e = await only(oas({ '/x': { get: { parameters: [{ name: 'q', in: 'query' }], responses: ok } } }));
    assert.equal(e.parameters[0]!.type, 'any');
  });
});

describe('response labels', () => {
  test('the first line of the description, cut at a word near 120 characters, else the reason phrase', async () => {
    const long = `${'word '.repeat(40)}end`;
    const noSpace = 'x'.repeat(200);
    const lateSpace = `${'y'.repeat(100)} ${'z'.repeat(50)}`;
    const earlySpace = `${'a'.repeat(30)} ${'b'.repeat(150)}`;
    const exact = `${'c'.repeat(60)} ${'d'.repeat(80)}`;
    const responses = {
      '200': { description: '  First line  \nsecond line' },
      '201': { description: long },
      '202': { description: noSpace },
      '203': { description: lateSpace },
      '204': { description: earlySpace },
      '205': { description: exact },
      '404': { description: '   ' },
      '418': {},
      '299': { description: '' },
      default: { description: '' },
      '4XX': { description: '' },
    };
    const e = await only(oas({ '/x': { get: { responses } } }));
    const label = Object.fromEntries(e.responses.map((r) => [r.status, r.label]));
    assert.equal(label['200'], 'First line');
    assert.equal(label['201'], `${'word '.repeat(23)}word…`);
    assert.equal(label['202'], `${'x'.repeat(120)}…`);
    assert.equal(label['203'], `${'y'.repeat(100)}…`, 'cut at the last space before 120');
    assert.equal(label['204'], `${earlySpace.slice(0, 120)}…`, 'a space in the first half is too early to cut at');
    assert.equal(label['205'], `${exact.slice(0, 120)}…`, 'a space at exactly 60 is too early as well');
    assert.equal(label['404'], 'Not Found');
    assert.equal(label['418'], "I'm a Teapot");
    assert.equal(label['299'], '');
    assert.equal(label['default'], 'Default response');
    assert.equal(label['4XX'], '');
  });

  test('any description up to 120 characters on its first line is kept whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z][a-z ]{0,118}[a-z]$/), async (text) => {
        const e = await only(oas({ '/x': { get: { responses: { '200': { description: `${text}\nmore` } } } } }));
        assert.equal(e.responses[0]!.label, text);
      }),
      { numRuns: 20 },
    );
  });
});

describe('servers', () => {
  test('well-formed servers with descriptions and variables; malformed entries dropped', async () => {
    const spec = await load(
      oas(
        { '/x': { get: { responses: ok } } },
        {
          servers: [
            { url: 'https://{region}.example/{v}', description: 'main', variables: { region: { default: 'eu', enum: ['eu', 'us', 3], description: 'where' }, v: { default: 2 }, bad: 'x', none: {} } },
            { url: 'https://plain.example' },
            { url: 7 },
            'https://string.example',
            { url: 'https://empty-vars.example', variables: {} },
          ],
        },
      ),
    );
    assert.deepEqual(spec.servers, [
      { url: 'https://{region}.example/{v}', description: 'main', variables: { region: { default: 'eu', enum: ['eu', 'us', '3'], description: 'where' }, v: { default: '2' }, none: { default: '' } } },
      { url: 'https://plain.example' },
      { url: 'https://empty-vars.example' },
    ]);
    assert.deepEqual(spec.endpoints[0]!.servers, spec.servers);
  });
});

describe('security schemes', () => {
  test('each kind is normalized; what cannot be used becomes other with a description', async () => {
    const spec = await load(
      oas(
        { '/x': { get: { security: [{ bearer: [] }, 'junk'], responses: ok } } },
        {
          security: [{ key: [] }],
          components: {
            securitySchemes: {
              bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
              basic: { type: 'http', scheme: 'BASIC' },
              key: { type: 'apiKey', in: 'header', name: 'X-Key' },
              keyQ: { type: 'apiKey', in: 'query', name: 'k' },
              keyC: { type: 'apiKey', in: 'cookie', name: 'c' },
              keyBad: { type: 'apiKey', in: 'body', name: 'k' },
              oauth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a', scopes: { read: '' } }, clientCredentials: { tokenUrl: 'https://t', scopes: { read: '', write: '' } } } },
              oauthBare: { type: 'oauth2', flows: {} },
              oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example/.well-known' },
              oidcBad: { type: 'openIdConnect' },
              mtls: { type: 'mutualTLS', description: 'client certificates' },
              httpNoScheme: { type: 'http' },
            },
          },
        },
      ),
    );
    assert.deepEqual(spec.securitySchemes, {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      keyQ: { type: 'apiKey', in: 'query', name: 'k' },
      keyC: { type: 'apiKey', in: 'cookie', name: 'c' },
      keyBad: { type: 'other', description: 'security scheme of type apiKey' },
      oauth: { type: 'oauth2', tokenUrl: 'https://t', scopes: ['read', 'write'] },
      oauthBare: { type: 'oauth2' },
      oidc: { type: 'openIdConnect', url: 'https://id.example/.well-known' },
      oidcBad: { type: 'other', description: 'security scheme of type openIdConnect' },
      mtls: { type: 'other', description: 'client certificates' },
      httpNoScheme: { type: 'other', description: 'security scheme of type http' },
    });
    assert.deepEqual(spec.endpoints[0]!.security, [{ bearer: [] }]);
  });

  test('Swagger 2.0 basic and top-level oauth2 are read the same way', async () => {
    const spec = await load(
      swagger(
        { '/x': { get: { responses: ok } } },
        { securityDefinitions: { b: { type: 'basic' }, o: { type: 'oauth2', flow: 'application', tokenUrl: 'https://t', scopes: { s: '' } } }, security: [{ b: [] }, { o: ['s'] }] },
      ),
    );
    assert.deepEqual(spec.securitySchemes, { b: { type: 'http', scheme: 'basic' }, o: { type: 'oauth2', tokenUrl: 'https://t', scopes: ['s'] } });
    assert.deepEqual(spec.endpoints[0]!.security, [{ b: [] }, { o: ['s'] }]);
  });
});

describe('tags', () => {
  test('only string tags are kept; no tags is an empty list', async () => {
    const spec = await load(oas({ '/a': { get: { tags: ['x', 3, 'y'], responses: ok } }, '/b': { get: { tags: ['only'], responses: ok } }, '/c': { get: { tags: 'nope', responses: ok } } }));
    assert.deepEqual(spec.endpoints.map((e) => e.tags), [['x', 'y'], ['only'], []]);
  });
});
