// The Swagger 2.0 importer from its contract, through real imports of generated documents:
// host/schemes/basePath (or x-ms-parameterized-host) become servers, non-body parameters carry
// their collectionFormat as style/explode and are their own schema, `body` and `formData`
// parameters become the request body under `consumes`, responses take `produces`, and each item
// that cannot be used is a warning naming its pointer while the rest imports.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { docLoader } from './load-doc.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

const loadDoc = docLoader('svc-import-swagger-');

async function load(doc: object): Promise<ImportedSpec> {
  const spec = await loadDoc(doc);
  assert.equal(spec.format, 'swagger-2.0');
  return spec;
}

const swagger = (paths: object, extra: object = {}): object => ({ swagger: '2.0', info: { title: 't', version: '1' }, paths, ...extra });
const ok = { '200': { description: 'OK' } };

async function only(doc: object): Promise<{ spec: ImportedSpec; e: Endpoint }> {
  const spec = await load(doc);
  assert.equal(spec.endpoints.length, 1, JSON.stringify(spec.warnings));
  return { spec, e: spec.endpoints[0]! };
}

const warningsOf = (spec: ImportedSpec) => spec.warnings.map((w) => ({ code: w.code, message: w.message, pointer: w.pointer }));

describe('servers', () => {
  const host = fc.option(fc.constantFrom('', 'api.example.com', 'localhost:8080', 'h.test'), { nil: undefined });
  const schemes = fc.option(fc.subarray(['http', 'https', 'ws', 'wss']), { nil: undefined });
  const basePath = fc.option(
    fc.tuple(fc.constantFrom('', '/v1', '/a/b', '/api'), fc.nat({ max: 3 })).map(([p, slashes]) => p + '/'.repeat(slashes)),
    { nil: undefined },
  );

  test('host, schemes and basePath: one server per scheme (https when none), the base path without trailing slashes, or the base path alone without a host', async () => {
    await fc.assert(
      fc.asyncProperty(host, schemes, basePath, async (h, s, b) => {
        const extra = { ...(h !== undefined ? { host: h } : {}), ...(s !== undefined ? { schemes: s } : {}), ...(b !== undefined ? { basePath: b } : {}) };
        const { spec, e } = await only(swagger({ '/x': { get: { responses: ok } } }, extra));
        const base = (b ?? '').replace(/\/+$/, '');
        const expected =
          h !== undefined && h !== ''
            ? (s !== undefined && s.length > 0 ? s : ['https']).map((scheme) => ({ url: `${scheme}://${h}${base}` }))
            : [{ url: base === '' ? '/' : base }];
        assert.deepEqual(spec.servers, expected);
        assert.deepEqual(e.servers, expected);
      }),
      { numRuns: 60 },
    );
  });

  test('x-ms-parameterized-host: the template behind the first scheme (or https, or none), its named parameters as variables, unnamed or broken ones warned', async () => {
    const variable = fc.record(
      {
        name: fc.constantFrom('account', 'region', 'zone'),
        default: fc.oneof(fc.constantFrom('prod', 'eu'), fc.integer({ min: 0, max: 9 })),
        enum: fc.array(fc.oneof(fc.constantFrom('a', 'b'), fc.integer({ min: 0, max: 3 })), { maxLength: 3 }),
        description: fc.constantFrom('the account', ''),
        in: fc.constant('path'),
      },
      { requiredKeys: ['name', 'in'] },
    );
    const entry = fc.oneof(
      { weight: 4, arbitrary: variable.map((v) => ({ kind: 'ok' as const, v })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'unnamed' as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'broken' as const }) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(entry, { maxLength: 4, selector: (x) => (x.kind === 'ok' ? x.v.name : x.kind) }),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.option(fc.subarray(['http', 'https']), { nil: undefined }),
        fc.constantFrom(undefined, '/v2', '/v2/'),
        async (entries, useSchemePrefix, schemes, basePath) => {
          const parameters = entries.map((x) => (x.kind === 'ok' ? x.v : x.kind === 'unnamed' ? { in: 'path', default: 'x' } : { $ref: '#/parameters/missing' }));
          const msHost = { hostTemplate: '{account}.example.com', parameters, ...(useSchemePrefix !== undefined ? { useSchemePrefix } : {}) };
          const extra = {
            host: 'ignored.example.com',
            'x-ms-parameterized-host': msHost,
            ...(schemes !== undefined ? { schemes } : {}),
            ...(basePath !== undefined ? { basePath } : {}),
          };
          const { spec } = await only(swagger({ '/x': { get: { responses: ok } } }, extra));
          const prefix = useSchemePrefix === false ? '' : `${schemes?.[0] ?? 'https'}://`;
          const url = `${prefix}{account}.example.com${(basePath ?? '').replace(/\/+$/, '')}`;
          const variables: Record<string, object> = {};
          const warnings: object[] = [];
          entries.forEach((x, i) => {
            const pointer = `/x-ms-parameterized-host/parameters/${i}`;
            if (x.kind === 'ok') {
              const v = x.v;
              variables[v.name] = {
                default: v.default === undefined ? '' : String(v.default),
                ...(v.enum !== undefined ? { enum: v.enum.map(String) } : {}),
                ...(v.description !== undefined ? { description: v.description } : {}),
              };
            } else if (x.kind === 'unnamed') {
              warnings.push({ code: 'parameter-invalid', message: 'x-ms-parameterized-host parameter has no name; ignored', pointer });
            }
          });
          assert.deepEqual(spec.servers, [Object.keys(variables).length > 0 ? { url, variables } : { url }]);
          const got = warningsOf(spec);
          const brokenAt = entries.findIndex((x) => x.kind === 'broken');
          if (brokenAt >= 0) {
            const broken = got.find((w) => w.pointer === `/x-ms-parameterized-host/parameters/${brokenAt}`);
            assert.ok(broken, JSON.stringify(got));
            assert.match(broken.message, /^x-ms-parameterized-host parameter .*missing.*; ignored$/);
            assert.notEqual(broken.code, 'parameter-invalid');
          }
          assert.deepEqual(got.filter((w) => w.code === 'parameter-invalid'), warnings);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a parameterized host without a string template falls back to host', async () => {
    const { spec } = await only(swagger({ '/x': { get: { responses: ok } } }, { host: 'h.test', 'x-ms-parameterized-host': { hostTemplate: 3 } }));
    assert.deepEqual(spec.servers, [{ url: 'https://h.test' }]);
  });
});

describe('parameters', () => {
  const formats = ['csv', 'multi', 'ssv', 'pipes', 'tsv', undefined] as const;
  const param = fc.record(
    {
      name: fc.constantFrom('a', 'b', 'c'),
      in: fc.constantFrom('path', 'query', 'header'),
      required: fc.constantFrom(true, false, 'yes'),
      collectionFormat: fc.constantFrom(...formats),
      'x-example': fc.constantFrom('ex', 0, false),
      default: fc.constantFrom('def', 7),
      description: fc.constantFrom('about it', 5),
    },
    { requiredKeys: ['name', 'in'] },
  );

  const styleOf = (format: string | undefined, where: string) =>
    format === 'csv' ? { style: where === 'query' ? 'form' : 'simple', explode: false }
    : format === 'multi' ? { style: 'form', explode: true }
    : format === 'ssv' ? { style: 'spaceDelimited', explode: false }
    : format === 'pipes' ? { style: 'pipeDelimited', explode: false }
    : {};

  test('path parameters are always required, others only when required is true; collectionFormat becomes style and explode; x-example wins over default; the parameter is its own schema', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(param, { maxLength: 4, selector: (p) => `${p.name}|${p.in}` }), async (params) => {
        const written = params.map((p) => JSON.parse(JSON.stringify({ ...p, type: 'array', items: { type: 'string' } })) as typeof p);
        const { spec, e } = await only(swagger({ '/x/{a}/{b}/{c}': { get: { parameters: written, responses: ok } } }));
        const expected = written.map((p, i) => {
          const example = p['x-example'] !== undefined ? p['x-example'] : p.default;
          return {
            name: p.name,
            in: p.in,
            required: p.in === 'path' ? true : p.required === true,
            type: 'string[]',
            schema: { file: spec.file, node: p, pointer: `/paths/~1x~1{a}~1{b}~1{c}/get/parameters/${i}` },
            ...(typeof p.description === 'string' ? { description: p.description } : {}),
            ...styleOf(p.collectionFormat, p.in),
            ...(example !== undefined ? { example } : {}),
          };
        });
        assert.deepEqual(e.parameters, expected);
        assert.deepEqual(spec.warnings, []);
      }),
      { numRuns: 80 },
    );
  });

  test('a parameter in a location 2.0 does not have is warned with its name, location and pointer, and dropped', async () => {
    const { spec, e } = await only(
      swagger({ '/x': { get: { parameters: [{ name: 'q', in: 'query', type: 'string' }, { name: 'sid', in: 'cookie', type: 'string' }], responses: ok } } }),
    );
    assert.deepEqual(e.parameters.map((p) => p.name), ['q']);
    assert.deepEqual(spec.warnings.map((w) => ({ code: w.code, message: w.message, pointer: w.pointer, file: w.file })), [
      {
        code: 'parameter-invalid',
        message: 'parameter "sid" has in: "cookie", not one of path, query, header, body, formData; ignored',
        pointer: '/paths/~1x/get/parameters/1',
        file: spec.file,
      },
    ]);
  });
});

describe('request bodies', () => {
  const media = fc.option(fc.subarray(['application/json', 'application/xml', 'text/plain', 7 as unknown as string]), { nil: undefined });
  const strings = (list: readonly unknown[] | undefined) => list?.filter((x): x is string => typeof x === 'string');

  test('a body parameter: one content per media type the operation consumes (else the document, else JSON), with its schema, required and description', async () => {
    await fc.assert(
      fc.asyncProperty(
        media,
        media,
        fc.boolean(),
        fc.constantFrom(true, false, undefined),
        fc.constantFrom('the pet', undefined),
        async (rootConsumes, opConsumes, withSchema, required, description) => {
          const body = { name: 'pet', in: 'body', ...(withSchema ? { schema: { type: 'object' } } : {}), ...(required !== undefined ? { required } : {}), ...(description ? { description } : {}) };
          const op = { parameters: [body], responses: ok, ...(opConsumes !== undefined ? { consumes: opConsumes } : {}) };
          const { e } = await only(swagger({ '/x': { post: op } }, rootConsumes !== undefined ? { consumes: rootConsumes } : {}));
          const chosen = strings(opConsumes) ?? strings(rootConsumes) ?? [];
          const types = chosen.length > 0 ? chosen : ['application/json'];
          assert.deepEqual(e.requestBody, {
            required: required === true,
            ...(description ? { description } : {}),
            contents: types.map((mediaType) => (withSchema ? { mediaType, schema: { file: e.source.file, node: { type: 'object' }, pointer: '/paths/~1x/post/parameters/0/schema' } } : { mediaType })),
          });
          assert.deepEqual(e.parameters, []);
        },
      ),
      { numRuns: 80 },
    );
  });

  test('formData parameters: one object schema of the fields under the form media types consumed, else multipart with a file field, else urlencoded', async () => {
    const field = fc.record(
      { name: fc.constantFrom('f1', 'f2', 'f3'), type: fc.constantFrom('string', 'file', 'integer'), required: fc.constantFrom(true, false), format: fc.constant('x') },
      { requiredKeys: ['name', 'type'] },
    );
    const consumes = fc.option(fc.subarray(['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded; charset=utf-8', 'text/plain']), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(field, { minLength: 1, maxLength: 3, selector: (f) => f.name }), consumes, async (fields, c) => {
        const op = { parameters: [...fields.map((f) => ({ ...f, in: 'formData' })), { name: 'q', in: 'query', type: 'string' }], responses: ok, ...(c ? { consumes: c } : {}) };
        const { e } = await only(swagger({ '/x': { post: op } }));
        const form = (c ?? []).filter((t) => t.startsWith('application/x-www-form-urlencoded') || t.startsWith('multipart/form-data'));
        const types = form.length > 0 ? form : [fields.some((f) => f.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded'];
        const required = fields.filter((f) => f.required === true).map((f) => f.name);
        const properties = Object.fromEntries(fields.map(({ name, required: _r, ...rest }) => [name, rest]));
        const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
        assert.deepEqual(e.requestBody, { required: required.length > 0, contents: types.map((mediaType) => ({ mediaType, schema: { file: e.source.file, node: schema } })) });
        assert.deepEqual(e.parameters.map((p) => p.name), ['q']);
      }),
      { numRuns: 80 },
    );
  });

  test('a body parameter wins over formData parameters; an operation without either has no request body', async () => {
    const both = await only(
      swagger({ '/x': { post: { parameters: [{ name: 'f', in: 'formData', type: 'string' }, { name: 'b', in: 'body', schema: { type: 'string' } }], responses: ok } } }),
    );
    assert.deepEqual(both.e.requestBody?.contents.map((c) => c.mediaType), ['application/json']);
    assert.deepEqual(both.e.requestBody?.contents[0]?.schema?.node, { type: 'string' });
    const none = await only(swagger({ '/x': { get: { responses: ok } } }));
    assert.equal('requestBody' in none.e, false);
  });
});

describe('responses', () => {
  test('every status but x- keys, in order; a schema gets the media types produced (operation, else document, else JSON); a broken $ref keeps the status with its reason phrase and is warned', async () => {
    const produces = fc.option(fc.subarray(['application/json', 'application/xml', 'text/csv']), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(produces, produces, fc.boolean(), async (rootProduces, opProduces, withSchema) => {
        const responses = {
          '200': { description: 'Fine\nmore text', ...(withSchema ? { schema: { type: 'string' } } : {}) },
          'x-note': { description: 'not a response' },
          '201': { $ref: '#/responses/Made' },
          '404': { $ref: '#/responses/Missing' },
          default: 'not an object',
        };
        const op = { responses, ...(opProduces !== undefined ? { produces: opProduces } : {}) };
        const shared = { responses: { Made: { description: 'Made', schema: { type: 'integer' } } } };
        const { spec, e } = await only(swagger({ '/x': { get: op } }, { ...shared, ...(rootProduces !== undefined ? { produces: rootProduces } : {}) }));
        const chosen = opProduces ?? rootProduces ?? [];
        const types = chosen.length > 0 ? chosen : ['application/json'];
        assert.deepEqual(e.responses, [
          withSchema ? { status: '200', label: 'Fine', contentTypes: types, schema: { file: spec.file, node: { type: 'string' }, pointer: '/paths/~1x/get/responses/200/schema' } } : { status: '200', label: 'Fine' },
          // A shared response: its schema sits under the $ref's target.
          { status: '201', label: 'Made', contentTypes: types, schema: { file: spec.file, node: { type: 'integer' }, pointer: '/responses/Made/schema' } },
          { status: '404', label: 'Not Found' },
          { status: 'default', label: 'Default response' },
        ]);
        const warned = spec.warnings.filter((w) => w.pointer === '/paths/~1x/get/responses/404');
        assert.equal(warned.length, 1, JSON.stringify(spec.warnings));
        assert.match(warned[0]!.message, /^response 404: .*Missing/);
        assert.equal(warned[0]!.file, spec.file);
      }),
      { numRuns: 30 },
    );
  });

  test('responses that are not an object give an empty list', async () => {
    const { e } = await only(swagger({ '/x': { get: { responses: ['200'] } } }));
    assert.deepEqual(e.responses, []);
  });
});

describe('the document', () => {
  test('title and version as strings when present; operation fields read as written; security of the operation replaces the document one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.oneof(fc.constantFrom('Pets', ''), fc.integer()), { nil: undefined }),
        fc.option(fc.oneof(fc.constantFrom('1.0', ''), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0))), { nil: undefined }),
        fc.constantFrom(undefined, [], [{ key: [] }]),
        fc.record(
          { summary: fc.constantFrom('List', 3), description: fc.constantFrom('Lists', null), operationId: fc.constantFrom('list', 4), deprecated: fc.constantFrom(true, false, 'true'), tags: fc.constantFrom(['a', 1, 'b'], 'a') },
          { requiredKeys: [] },
        ),
        async (title, version, opSecurity, fields) => {
          const info = { ...(title !== undefined ? { title } : {}), ...(version !== undefined ? { version } : {}) };
          const op = { ...fields, responses: ok, ...(opSecurity !== undefined ? { security: opSecurity } : {}) };
          const spec = await load({ swagger: '2.0', info, paths: { '/x': { get: op } }, security: [{ doc: [] }] });
          assert.equal(spec.title, title !== undefined ? String(title) : undefined);
          assert.equal(spec.version, version !== undefined ? String(version) : undefined);
          assert.equal('title' in spec, title !== undefined);
          assert.equal('version' in spec, version !== undefined);
          const e = spec.endpoints[0]!;
          assert.equal(e.summary, typeof fields.summary === 'string' ? fields.summary : undefined);
          assert.equal(e.description, typeof fields.description === 'string' ? fields.description : undefined);
          assert.equal(e.operationId, typeof fields.operationId === 'string' ? fields.operationId : undefined);
          assert.equal('summary' in e, typeof fields.summary === 'string');
          assert.equal('description' in e, typeof fields.description === 'string');
          assert.equal('operationId' in e, typeof fields.operationId === 'string');
          assert.equal(e.deprecated, fields.deprecated === true);
          assert.deepEqual(e.tags, Array.isArray(fields.tags) ? ['a', 'b'] : []);
          assert.deepEqual(e.security, opSecurity ?? [{ doc: [] }]);
          assert.deepEqual(e.source, { file: spec.file, pointer: '/paths/~1x/get' });
          assert.equal(e.id.length > 0, true);
          assert.equal(spec.webhooks, 0);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('no document security and none on the operation leaves security unset', async () => {
    const { e } = await only(swagger({ '/x': { get: { responses: ok } } }));
    assert.equal('security' in e, false);
  });

  test('x-ms-paths are read after paths; a security definition that is not an object is warned with its pointer and dropped', async () => {
    const spec = await load(
      swagger(
        { '/a': { get: { responses: ok } } },
        { 'x-ms-paths': { '/a?op=b': { post: { responses: ok } } }, securityDefinitions: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, bad: 'nope' } },
      ),
    );
    assert.deepEqual(spec.endpoints.map((e) => `${e.method} ${e.path}`), ['GET /a', 'POST /a?op=b']);
    assert.deepEqual(spec.securitySchemes, { key: { type: 'apiKey', in: 'header', name: 'X-Key' } });
    assert.deepEqual(warningsOf(spec), [
      { code: 'security-scheme-invalid', message: 'security definition bad is not an object; ignored', pointer: '/securityDefinitions/bad' },
    ]);
  });
});
