// The OpenAPI 3.0/3.1 importer from its contract, through real imports of generated documents:
// parameters (schema or first content entry, style, explode, example), request bodies and
// responses by media type, the servers and summary an operation inherits from its path item and
// the document, webhooks, security schemes, and a warning naming the pointer for each item that
// cannot be used while the rest imports.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { docLoader } from './load-doc.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

const load = docLoader('svc-import-openapi-');

const oas = (paths: object, extra: object = {}): object => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, ...extra });
const ok = { '200': { description: 'OK' } };
/** What JSON keeps of a generated value (undefined members dropped). */
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

async function only(doc: object): Promise<{ spec: ImportedSpec; e: Endpoint }> {
  const spec = await load(doc);
  assert.equal(spec.endpoints.length, 1, JSON.stringify(spec.warnings));
  return { spec, e: spec.endpoints[0]! };
}

const warningsOf = (spec: ImportedSpec) => spec.warnings.map((w) => ({ code: w.code, message: w.message, pointer: w.pointer, ...(w.hint !== undefined ? { hint: w.hint } : {}) }));

describe('parameters', () => {
  const schema = fc.option(
    fc.record({ type: fc.constantFrom('string', 'integer'), default: fc.constantFrom('d', 0), example: fc.constantFrom('e', 1) }, { requiredKeys: ['type'] }),
    { nil: undefined },
  );
  const param = fc.record(
    {
      name: fc.constantFrom('a', 'b', 'c'),
      in: fc.constantFrom('path', 'query', 'header', 'cookie'),
      required: fc.constantFrom(true, false, 'true'),
      deprecated: fc.constantFrom(true, false, 'yes'),
      description: fc.constantFrom('about', 3),
      style: fc.constantFrom('form', 'simple', 4),
      explode: fc.constantFrom(true, false, 'no'),
      example: fc.constantFrom('ex', 0, null),
      schema,
      content: fc.option(
        fc.constantFrom({ 'application/json': { schema: { type: 'boolean', default: true } }, 'text/plain': { schema: { type: 'string' } } }, { 'application/json': 'x' }, { 'application/json': null }, {}),
        { nil: undefined },
      ),
    },
    { requiredKeys: ['name', 'in'] },
  );

  test('every field read as written when well-typed; the schema, else the first content entry\'s; the example, else the schema\'s default, else its example', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(param, { maxLength: 4, selector: (p) => `${p.name}|${p.in}` }), async (generated) => {
        const written = json(generated);
        const { spec, e } = await only(oas({ '/x/{a}/{b}/{c}': { get: { parameters: written, responses: ok } } }));
        const expected = written.map((p, i) => {
          let s: unknown = p.schema;
          // Where the schema sits: the parameter's own, else its first content entry's.
          let at = `/paths/~1x~1{a}~1{b}~1{c}/get/parameters/${i}/schema`;
          if (s === undefined && p.content !== undefined) {
            const [mediaType, first] = Object.entries(p.content)[0] ?? [];
            if (typeof first === 'object' && first !== null) {
              s = (first as { schema?: unknown }).schema;
              at = `/paths/~1x~1{a}~1{b}~1{c}/get/parameters/${i}/content/${mediaType!.replace('/', '~1')}/schema`;
            }
          }
          const so = s as { type?: string; default?: unknown; example?: unknown } | undefined;
          const example = p.example !== undefined ? p.example : (so?.default ?? so?.example);
          return {
            name: p.name,
            in: p.in,
            required: p.in === 'path' ? true : p.required === true,
            type: so?.type ?? 'any',
            ...(typeof p.description === 'string' ? { description: p.description } : {}),
            ...(p.deprecated === true ? { deprecated: true } : {}),
            ...(s !== undefined ? { schema: { file: spec.file, node: s, pointer: at } } : {}),
            ...(typeof p.style === 'string' ? { style: p.style } : {}),
            ...(typeof p.explode === 'boolean' ? { explode: p.explode } : {}),
            ...(example !== undefined ? { example } : {}),
          };
        });
        assert.deepEqual(e.parameters, expected);
        assert.deepEqual(spec.warnings, []);
      }),
      { numRuns: 100 },
    );
  });

  test('a parameter in body or formData is warned with a hint about requestBody, another unknown location without one, and both are dropped', async () => {
    const { spec, e } = await only(
      oas({
        '/x': {
          get: {
            parameters: [{ name: 'b', in: 'body' }, { name: 'f', in: 'formData' }, { name: 'm', in: 'matrix' }, { name: 'q', in: 'query' }],
            responses: ok,
          },
        },
      }),
    );
    assert.deepEqual(e.parameters.map((p) => p.name), ['q']);
    const hint = 'OpenAPI 3 describes bodies with requestBody.';
    assert.deepEqual(warningsOf(spec), [
      { code: 'parameter-invalid', message: 'parameter "b" has in: "body", not one of path, query, header, cookie; ignored', pointer: '/paths/~1x/get/parameters/0', hint },
      { code: 'parameter-invalid', message: 'parameter "f" has in: "formData", not one of path, query, header, cookie; ignored', pointer: '/paths/~1x/get/parameters/1', hint },
      { code: 'parameter-invalid', message: 'parameter "m" has in: "matrix", not one of path, query, header, cookie; ignored', pointer: '/paths/~1x/get/parameters/2' },
    ]);
    assert.ok(spec.warnings.every((w) => w.file === spec.file));
  });
});

describe('request bodies', () => {
  const media = fc.record(
    { schema: fc.constantFrom({ type: 'object' }, { type: 'string' }), encoding: fc.constantFrom({ f: { contentType: 'image/png' } }, 'x') },
    { requiredKeys: [] },
  );
  test('one content per media type in document order, each with its schema and encoding; required and description as written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('application/json', 'text/plain', 'multipart/form-data', 'application/xml'), fc.oneof(media, fc.constant('x') as fc.Arbitrary<unknown>), { maxKeys: 4 }),
        fc.constantFrom(true, false, 'yes', undefined),
        fc.constantFrom('the body', 1, undefined),
        fc.boolean(),
        async (content, required, description, viaRef) => {
          const body = json({ content, required, description });
          const op = { requestBody: viaRef ? { $ref: '#/components/requestBodies/B' } : body, responses: ok };
          const { spec, e } = await only(oas({ '/x': { post: op } }, viaRef ? { components: { requestBodies: { B: body } } } : {}));
          const contents = Object.entries(body.content).map(([mediaType, m]) => {
            const mo = typeof m === 'object' && m !== null ? (m as { schema?: unknown; encoding?: unknown }) : {};
            return {
              mediaType,
              ...(mo.schema !== undefined
                ? { schema: { file: spec.file, node: mo.schema, pointer: `${viaRef ? '/components/requestBodies/B' : '/paths/~1x/post/requestBody'}/content/${mediaType.replace('/', '~1')}/schema` } }
                : {}),
              ...(typeof mo.encoding === 'object' && mo.encoding !== null ? { encoding: mo.encoding } : {}),
            };
          });
          assert.deepEqual(e.requestBody, { required: required === true, ...(typeof description === 'string' ? { description } : {}), contents });
        },
      ),
      { numRuns: 80 },
    );
  });

  test('a request body that cannot be read is warned at its pointer and left out; content that is not an object gives no contents', async () => {
    const spec = await load(
      oas({
        '/a': { post: { requestBody: { $ref: '#/components/requestBodies/Missing' }, responses: ok } },
        '/b': { post: { requestBody: 'text', responses: ok } },
        '/c': { post: { requestBody: { content: [] }, responses: ok } },
      }),
    );
    const [a, b, c] = spec.endpoints;
    assert.equal('requestBody' in a!, false);
    assert.equal('requestBody' in b!, false);
    assert.deepEqual(c!.requestBody, { required: false, contents: [] });
    const got = warningsOf(spec);
    assert.equal(got.length, 2, JSON.stringify(got));
    assert.equal(got[0]!.pointer, '/paths/~1a/post/requestBody');
    assert.match(got[0]!.message, /^request body: .*Missing/);
    assert.notEqual(got[0]!.code, 'request-body-invalid');
    assert.deepEqual(got[1], { code: 'request-body-invalid', message: 'requestBody is not an object; ignored', pointer: '/paths/~1b/post/requestBody' });
    assert.ok(spec.warnings.every((w) => w.file === spec.file));
  });
});

describe('responses', () => {
  test('media types in order; the schema of the first JSON type, else of the first type; x- keys skipped; a broken $ref keeps its reason phrase', async () => {
    const types = fc.uniqueArray(fc.constantFrom('text/plain', 'application/json', 'application/problem+json', 'text/html'), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(types, fc.boolean(), fc.boolean(), async (list, shared, withSchema) => {
        // Without a schema, a media type is still listed, and the response links no schema.
        const content = Object.fromEntries(list.map((t) => [t, withSchema ? { schema: { title: t } } : {}]));
        const response = { description: 'Done', content };
        const responses = shared
          ? { '200': { $ref: '#/components/responses/R' }, '201': { $ref: '#/components/responses/R' }, 'x-a': {}, '404': { $ref: '#/components/responses/Nope' } }
          : { '200': response, '201': response, 'x-a': {}, '404': { $ref: '#/components/responses/Nope' } };
        const { spec, e } = await only(oas({ '/x': { get: { responses } } }, { components: { responses: { R: response } } }));
        const preferred = list.find((t) => t.includes('json')) ?? list[0];
        const built = (status: string) => ({
          status,
          label: 'Done',
          ...(list.length > 0 ? { contentTypes: list } : {}),
          ...(list.length > 0 && withSchema
            ? { schema: { file: spec.file, node: { title: preferred }, pointer: `${shared ? '/components/responses/R' : `/paths/~1x/get/responses/${status}`}/content/${preferred!.replace('/', '~1')}/schema` } }
            : {}),
        });
        assert.deepEqual(e.responses, [built('200'), built('201'), { status: '404', label: 'Not Found' }]);
        const got = warningsOf(spec);
        assert.equal(got.length, 1, JSON.stringify(got));
        assert.equal(got[0]!.pointer, '/paths/~1x/get/responses/404');
        assert.match(got[0]!.message, /^response 404: .*Nope/);
      }),
      { numRuns: 40 },
    );
  });

  test('a response that is not an object keeps its status and reason phrase; responses that are not an object give none', async () => {
    const spec = await load(oas({ '/a': { get: { responses: { '500': 'x', default: null } } }, '/b': { get: { responses: 'x' } } }));
    assert.deepEqual(spec.endpoints[0]!.responses, [{ status: '500', label: 'Internal Server Error' }, { status: 'default', label: 'Default response' }]);
    assert.deepEqual(spec.endpoints[1]!.responses, []);
  });
});

describe('what an operation inherits', () => {
  const servers = (tag: string) => fc.option(fc.constant([{ url: `https://${tag}.example.com` }]), { nil: undefined });
  const text = (tag: string) => fc.option(fc.constantFrom(tag, 7), { nil: undefined });
  test('servers: the operation\'s, else the path item\'s, else the document\'s; summary and description: the operation\'s, else the path item\'s; security: the operation\'s, else the document\'s', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(servers('op'), servers('item'), servers('doc')),
        fc.tuple(text('op summary'), text('item summary'), text('op description'), text('item description')),
        fc.tuple(fc.constantFrom(undefined, [], [{ o: [] }]), fc.constantFrom(undefined, [{ d: ['r'] }])),
        async ([opServers, itemServers, docServers], [opSummary, itemSummary, opDesc, itemDesc], [opSecurity, docSecurity]) => {
          const op = json({ servers: opServers, summary: opSummary, description: opDesc, security: opSecurity, responses: ok });
          const item = json({ servers: itemServers, summary: itemSummary, description: itemDesc, get: op });
          const { spec, e } = await only(oas({ '/x': item }, json({ servers: docServers, security: docSecurity })));
          assert.deepEqual(spec.servers, docServers ?? []);
          assert.deepEqual(e.servers, opServers ?? itemServers ?? docServers ?? []);
          const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
          const summary = str(opSummary) ?? str(itemSummary);
          const description = str(opDesc) ?? str(itemDesc);
          assert.equal(e.summary, summary);
          assert.equal('summary' in e, summary !== undefined);
          assert.equal(e.description, description);
          assert.equal('description' in e, description !== undefined);
          const security = opSecurity ?? docSecurity;
          assert.deepEqual(e.security, security);
          assert.equal('security' in e, security !== undefined);
        },
      ),
      { numRuns: 80 },
    );
  });

  test('operationId only when a string; deprecated only when true; the source points at the operation', async () => {
    const spec = await load(
      oas({ '/a': { get: { operationId: 'getA', deprecated: true, responses: ok }, put: { operationId: 5, deprecated: 'true', responses: ok } } }),
    );
    const [get, put] = spec.endpoints;
    assert.equal(get!.operationId, 'getA');
    assert.equal(get!.deprecated, true);
    assert.equal('operationId' in put!, false);
    assert.equal(put!.deprecated, false);
    assert.deepEqual(put!.source, { file: spec.file, pointer: '/paths/~1a/put' });
  });
});

describe('the document', () => {
  test('webhooks are counted without x- keys; title and version as strings when present', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom('a', 'b', 'x-c', 'x-d', 'e'), { maxLength: 5 }),
        fc.option(fc.oneof(fc.constant('T'), fc.integer()), { nil: undefined }),
        fc.option(fc.oneof(fc.constant('2.0'), fc.integer()), { nil: undefined }),
        async (hooks, title, version) => {
          const info = json({ title, version });
          const spec = await load({ openapi: '3.1.0', info, paths: {}, webhooks: Object.fromEntries(hooks.map((h) => [h, { post: { responses: ok } }])) });
          assert.equal(spec.webhooks, hooks.filter((h) => !h.startsWith('x-')).length);
          assert.equal(spec.title, title === undefined ? undefined : String(title));
          assert.equal(spec.version, version === undefined ? undefined : String(version));
          assert.equal('title' in spec, title !== undefined);
          assert.equal('version' in spec, version !== undefined);
        },
      ),
      { numRuns: 40 },
    );
    const none = await load({ openapi: '3.1.0', info: {}, paths: {}, webhooks: 'x' });
    assert.equal(none.webhooks, 0);
  });

  test('security schemes: each object normalized, a $ref followed; one that is not an object or cannot be found is warned at its pointer and left out', async () => {
    const spec = await load(
      oas(
        { '/x': { get: { responses: ok } } },
        {
          components: {
            securitySchemes: {
              key: { type: 'apiKey', in: 'query', name: 'k' },
              viaRef: { $ref: '#/components/x-schemes/bearer' },
              text: 'nope',
              gone: { $ref: '#/components/x-schemes/gone' },
            },
            'x-schemes': { bearer: { type: 'http', scheme: 'Bearer' } },
          },
        },
      ),
    );
    assert.deepEqual(spec.securitySchemes, { key: { type: 'apiKey', in: 'query', name: 'k' }, viaRef: { type: 'http', scheme: 'bearer' } });
    const got = warningsOf(spec);
    assert.equal(got.length, 2, JSON.stringify(got));
    assert.deepEqual(got[0], { code: 'security-scheme-invalid', message: 'security scheme text: not an object; ignored', pointer: '/components/securitySchemes/text' });
    assert.equal(got[1]!.pointer, '/components/securitySchemes/gone');
    assert.match(got[1]!.message, /^security scheme gone: .*gone.*; ignored$/);
    assert.notEqual(got[1]!.code, 'security-scheme-invalid');
  });

  test('no components, or components without security schemes, give no schemes', async () => {
    assert.deepEqual((await load(oas({}))).securitySchemes, {});
    assert.deepEqual((await load(oas({}, { components: { securitySchemes: 'x' } }))).securitySchemes, {});
    assert.deepEqual((await load(oas({}, { components: 'x' }))).securitySchemes, {});
  });
});
