// inspect's text over real imported descriptions: the fixed order (METHOD /path; deprecation;
// Summary; Description; Parameters one line each; Body; Responses one line each), summary and
// description carried over unchanged, parameter types from their schemas, the body's preferred
// media type, the success response's fields, and depth.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { benchOfSources, openapi, type Bench } from './support.ts';

const COMPONENTS = {
  schemas: {
    Color: { type: 'string', enum: ['c1', 'c2'] },
    Thing: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        size: { type: 'integer', default: 3 },
        inner: { type: 'object', properties: { deeper: { type: 'object', properties: { deepest: { type: 'object', properties: { leaf: { type: 'string' } } } } } } },
      },
    },
  },
};

const PATHS = {
  '/things/{id}': {
    get: {
      summary: 'Get a thing  \n',
      description: 'Line one.\n\n  Line two.  \n',
      deprecated: true,
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' }, description: 'The id. More text.' },
        { name: 'color', in: 'query', schema: { type: 'string', enum: ['red', 'green'], default: 'red' } },
        { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
        { name: 'ref', in: 'query', schema: { $ref: '#/components/schemas/Color' } },
        { name: 'list', in: 'query', schema: { type: 'array', items: { $ref: '#/components/schemas/Color' } } },
        { name: 'plain', in: 'query', schema: { type: 'array', items: { type: 'string', format: 'uuid' } } },
        { name: 'old', in: 'header', deprecated: true, schema: { type: 'string' }, example: 'x1' },
        { name: 'ex', in: 'query', schema: { type: 'string', example: 'schemaex' }, example: 'own' },
        { name: 'same', in: 'query', schema: { type: 'string', example: 'same' }, example: 'same' },
        { name: 'dflt', in: 'query', schema: { type: 'integer', default: 7 }, example: 7 },
        { name: 'both', in: 'query', schema: { type: 'integer', default: 7, example: 8 } },
        { name: 'obj', in: 'query', schema: { type: 'object', example: { a: 1 } }, example: { a: 2 } },
        { name: 'noschema', in: 'cookie' },
        { name: 'fmt', in: 'query', schema: { type: 'string', format: 'date time!' } },
        { name: 'day', in: 'query', schema: { type: 'string', format: 'date' } },
      ],
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        '404': { description: 'Not   found\there\nsecond line' },
      },
    },
    post: {
      summary: 'Make a thing',
      requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' } }, 'application/vnd.x+json': { schema: { $ref: '#/components/schemas/Thing' } } } },
      responses: {
        '201': { description: 'Created' },
        '202': { description: 'Accepted', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        '203': { description: 'Also', content: { 'application/json': { schema: { type: 'object', properties: { other: { type: 'string' } } } } } },
      },
    },
    put: { requestBody: { content: {} }, responses: {} },
    options: {
      requestBody: { content: { 'text/plain': { schema: { type: 'string' } }, 'Application/JSON; charset=utf-8': { schema: { type: 'integer' } }, 'text/json': { schema: { type: 'boolean' } } } },
      responses: { '200': { description: 'OK' } },
    },
    delete: { requestBody: { content: { 'application/json': {} } }, responses: { default: { description: 'x'.repeat(100) }, '599': { description: '' } } },
    patch: {
      requestBody: { content: { 'text/csv': { schema: { type: 'string' } }, 'application/xml': { schema: { type: 'string' } }, 'application/jsonl': { schema: { type: 'string' } }, 'application/xjson': {} } },
      responses: { '302': { description: 'Moved', content: { 'application/json': { schema: { type: 'object', properties: { to: { type: 'string' } } } } } } },
    },
  },
};

let bench: Bench;
before(async () => {
  bench = await benchOfSources([{ file: 'things.json', text: openapi(PATHS, COMPONENTS) }]);
});
after(() => bench?.cleanup());

const inspect = async (endpointId: string, depth?: number): Promise<string> => {
  const r = await bench.run('inspect', { endpointId, ...(depth !== undefined ? { depth } : {}) });
  assert.equal(r.isError, undefined, r.text);
  assert.equal(r.structured, undefined);
  return r.text;
};

describe('inspect text', () => {
  it('writes every part in the fixed order, parameters one line each with location, type and flags', async () => {
    assert.equal(
      await inspect('things:GET:/things/{id}'),
      [
        'GET /things/{id}',
        'Deprecated: yes, prefer another endpoint for new work',
        'Summary: Get a thing',
        'Description: Line one.\n\n  Line two.',
        'Parameters:',
        '  id (path, integer(int64), required): The id.',
        '  color (query, red|green, default "red")',
        '  tags (query, (a|b)[])',
        '  ref (query, c1|c2)',
        '  list (query, (c1|c2)[])',
        '  plain (query, string[])',
        '  old (header, string, deprecated, e.g. "x1")',
        '  ex (query, string, e.g. "own")',
        '  same (query, string, e.g. "same")',
        '  dflt (query, integer, default 7)',
        '  both (query, integer, default 7, e.g. 8)',
        '  obj (query, object, e.g. {"a":1})',
        '  noschema (cookie, any)',
        '  fmt (query, string)',
        '  day (query, string(date))',
        'Responses:',
        '  200 OK',
        '    name (string, required)',
        '    size (integer, default 3)',
        '    inner (object)',
        '  404 Not found here',
      ].join('\n'),
    );
  });

  it('takes the JSON body first, names the other media types, and shows the first 2xx response with a schema', async () => {
    assert.equal(
      await inspect('things:POST:/things/{id}'),
      [
        'POST /things/{id}',
        'Summary: Make a thing',
        'Parameters: none',
        'Body (application/vnd.x+json; required; also text/plain):',
        '  name (string, required)',
        '  size (integer, default 3)',
        '  inner (object)',
        '    deeper (object)',
        '      deepest (object)',
        'Responses:',
        '  201 Created',
        '  202 Accepted',
        '    name (string, required)',
        '    size (integer, default 3)',
        '    inner (object)',
        '  203 Also',
      ].join('\n'),
    );
  });

  it('takes the first media type when none is JSON, and shows no fields for a response that is not 2xx', async () => {
    assert.equal(
      await inspect('things:PATCH:/things/{id}'),
      ['PATCH /things/{id}', 'Parameters: none', 'Body (text/csv; also application/xml, application/jsonl, application/xjson):', '  string', 'Responses:', '  302 Moved'].join('\n'),
    );
  });

  it('takes the first JSON media type whatever its case or parameters', async () => {
    assert.equal(
      await inspect('things:OPTIONS:/things/{id}'),
      ['OPTIONS /things/{id}', 'Parameters: none', 'Body (Application/JSON; charset=utf-8; also text/plain, text/json):', '  integer', 'Responses:', '  200 OK'].join('\n'),
    );
  });

  it('says when a body has no content type, a content no schema, and responses none', async () => {
    assert.equal(await inspect('things:PUT:/things/{id}'), ['PUT /things/{id}', 'Parameters: none', 'Body: the spec gives no content type or schema for it', 'Responses: none documented'].join('\n'));
    assert.equal(
      await inspect('things:DELETE:/things/{id}'),
      [
        'DELETE /things/{id}',
        'Parameters: none',
        'Body (application/json):',
        '  (no schema given: the spec does not describe this content)',
        'Responses:',
        '  599',
        `  default ${'x'.repeat(79)}…`,
      ].join('\n'),
    );
  });

  it('shows depth levels of body and response fields when asked, whole numbers from 1 to 6', async () => {
    const fields = (text: string, from: string, to?: string): string[] => {
      const lines = text.split('\n');
      const start = lines.findIndex((l) => l.startsWith(from));
      const end = to ? lines.findIndex((l) => l.startsWith(to)) : lines.length;
      return lines.slice(start + 1, end);
    };
    const one = await inspect('things:POST:/things/{id}', 1);
    assert.deepEqual(fields(one, 'Body', 'Responses'), ['  name (string, required)', '  size (integer, default 3)', '  inner (object)']);
    const four = await inspect('things:POST:/things/{id}', 4);
    assert.deepEqual(fields(four, 'Body', 'Responses'), [
      '  name (string, required)',
      '  size (integer, default 3)',
      '  inner (object)',
      '    deeper (object)',
      '      deepest (object)',
      '        leaf (string)',
    ]);
    assert.deepEqual(fields(four, '  202'), ['    name (string, required)', '    size (integer, default 3)', '    inner (object)', '      deeper (object)', '        deepest (object)', '          leaf (string)', '  203 Also']);
    const two = await inspect('things:POST:/things/{id}', 2);
    assert.deepEqual(fields(two, '  202'), ['    name (string, required)', '    size (integer, default 3)', '    inner (object)', '      deeper (object)', '  203 Also']);
    // In process a depth outside the bounds or not whole is brought inside them (MCP refuses it before).
    assert.equal(await inspect('things:POST:/things/{id}', 0), one);
    assert.equal(await inspect('things:POST:/things/{id}', 1.9), one);
    assert.equal(await inspect('things:POST:/things/{id}', 4.5), four);
    assert.equal(await inspect('things:POST:/things/{id}', 60), await inspect('things:POST:/things/{id}', 6));
  });

  it('refuses an unknown endpoint with the closest ids', async () => {
    const r = await bench.run('inspect', { endpointId: 'things:GET:/thing/{id}' });
    assert.equal(r.isError, true);
    assert.match(r.text, /^unknown endpoint id "things:GET:\/thing\/\{id\}"\nhint: closest ids: things:GET:\/things\/\{id\}/);
  });
});

describe('inspect carries summary and description over', () => {
  it('unchanged but for trailing whitespace, in the fixed order, whatever they hold', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\n', '\t', ':', '.', 'é', '#', '-', '*', 'Summary: '), maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          summary: fc.option(text, { nil: undefined }),
          description: fc.option(text, { nil: undefined }),
          deprecated: fc.boolean(),
          params: fc.nat({ max: 2 }),
          body: fc.boolean(),
          responses: fc.nat({ max: 2 }),
        }),
        async ({ summary, description, deprecated, params, body, responses }) => {
          const op = {
            ...(summary !== undefined ? { summary } : {}),
            ...(description !== undefined ? { description } : {}),
            ...(deprecated ? { deprecated } : {}),
            parameters: Array.from({ length: params }, (_, i) => ({ name: `p${i}`, in: 'query', required: i === 0, schema: { type: 'string' } })),
            ...(body ? { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { f: { type: 'string' } } } } } } } : {}),
            responses: Object.fromEntries(Array.from({ length: responses }, (_, i) => [`${200 + i * 200}`, { description: `R${i}` }])),
          };
          const b = await benchOfSources([{ file: 'gen.json', text: openapi({ '/x': { post: op } }) }]);
          try {
            const r = await b.run('inspect', { endpointId: 'gen:POST:/x' });
            const expected = [
              'POST /x',
              ...(deprecated ? ['Deprecated: yes, prefer another endpoint for new work'] : []),
              ...(summary !== undefined ? [`Summary: ${summary.trimEnd()}`] : []),
              ...(description !== undefined ? [`Description: ${description.trimEnd()}`] : []),
              ...(params ? ['Parameters:', ...Array.from({ length: params }, (_, i) => `  p${i} (query, string${i === 0 ? ', required' : ''})`)] : ['Parameters: none']),
              ...(body ? ['Body (application/json):', '  f (string)'] : []),
              ...(responses ? ['Responses:', ...Array.from({ length: responses }, (_, i) => `  ${200 + i * 200} R${i}`)] : ['Responses: none documented']),
            ];
            assert.equal(r.text, expected.join('\n'));
          } finally {
            await b.cleanup();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('inspect and the parameters svc fills from svc.yaml', () => {
  it('says who fills a credential parameter instead of asking for it, and only for that one', async () => {
    process.env['SVC_TOOLS_TEST_TOKEN'] = 'tok-Zq9-never-shown';
    const paths = {
      '/echo': {
        get: {
          parameters: [
            { name: 'token', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'OK' } },
        },
      },
    };
    const filled = await benchOfSources([{ file: 'guarded.json', text: openapi(paths), entry: 'parameters:\n  token: "${SVC_TOOLS_TEST_TOKEN}"' }]);
    const plain = await benchOfSources([{ file: 'guarded.json', text: openapi(paths) }]);
    try {
      const text = (await filled.run('inspect', { endpointId: 'guarded:GET:/echo' })).text;
      assert.equal(text, ['GET /echo', 'Parameters:', '  token (query, string, filled by svc from specs[0].parameters.token)', '  q (query, string, required)', 'Responses:', '  200 OK'].join('\n'));
      assert.equal(
        (await plain.run('inspect', { endpointId: 'guarded:GET:/echo', depth: 2 })).text,
        ['GET /echo', 'Parameters:', '  token (query, string, required)', '  q (query, string, required)', 'Responses:', '  200 OK'].join('\n'),
      );
    } finally {
      await filled.cleanup();
      await plain.cleanup();
    }
  });
});

describe('inspect and a reference wrapped in allOf', () => {
  it('names a circular reference given a description through allOf as it names a bare one', async () => {
    const node = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        parent: { allOf: [{ $ref: '#/components/schemas/Node' }], description: 'The parent.' },
        next: { $ref: '#/components/schemas/Node' },
        kids: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/Node' }] } },
      },
    };
    const paths = { '/nodes': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } }, responses: { '200': { description: 'OK' } } } } };
    const b = await benchOfSources([{ file: 'nodes.json', text: openapi(paths, { schemas: { Node: node } }) }]);
    try {
      assert.equal(
        (await b.run('inspect', { endpointId: 'nodes:POST:/nodes' })).text,
        [
          'POST /nodes',
          'Parameters: none',
          'Body (application/json):',
          '  name (string)',
          '  parent (ref:Node, circular): The parent.',
          '  next (ref:Node, circular)',
          '  kids (ref:Node[], circular)',
          'Responses:',
          '  200 OK',
        ].join('\n'),
      );
    } finally {
      await b.cleanup();
    }
  });
});
