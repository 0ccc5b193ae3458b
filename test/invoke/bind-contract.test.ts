// Binding a call's arguments to an endpoint (bindArguments), from its contract, on specs the real
// importer reads from files:
// - a key names a parameter by its name (headers in any case, other locations exactly), or by
//   `location.name` when the plain name is ambiguous or unknown; a parameter whose own name looks
//   qualified is still found by it;
// - an undefined value is no value; a null body is no body;
// - a missing required value is a problem, except in a Postman collection (2.0 or 2.1), whose own
//   value stands in; other formats' examples never do;
// - a refusal lists its problems (the same line once, at most 8 per value, an anyOf/oneOf told
//   once without its branches' piecemeal errors, but `required` kept) and says what the endpoint
//   takes: params (qualified where two share a name, `none` when there are none) and the body's
//   shape (at most 20 properties named, arrays as `item[]`);
// - the body's media type is matched however its parameters are spaced; readOnly properties are
//   not required in a request body.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import { InvalidArgumentsError } from '../../src/invoke/errors.ts';
import { bindArguments } from '../../src/invoke/validate.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'svc-bind-'));
});
after(() => rm(dir, { recursive: true, force: true }));

let n = 0;
/** Imports a spec file (text) and returns it with its first endpoint. */
async function load(text: string, ext = 'yaml'): Promise<{ spec: ImportedSpec; endpoint: Endpoint }> {
  const file = path.join(dir, `spec-${n++}.${ext}`);
  await writeFile(file, text);
  const outcome = await importSpec(file, { name: 's', collection: 'default' });
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  return { spec: outcome.spec, endpoint: outcome.spec.endpoints[0]! };
}

/** An OpenAPI 3.0 spec with one operation (YAML flow for parameters and the body). */
function openapi(method: string, route: string, parameters: string, requestBody = ''): string {
  return (
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: 'http://127.0.0.1:9/api' }]\npaths:\n  ${route}:\n    ${method}:\n` +
    `      parameters: ${parameters}\n${requestBody ? `      requestBody: ${requestBody}\n` : ''}      responses: { '200': { description: ok } }\n`
  );
}

function refusal(run: () => unknown): InvalidArgumentsError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InvalidArgumentsError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

const valuesOf = (bound: ReturnType<typeof bindArguments>) => Object.fromEntries(bound.params.map((b) => [`${b.param.in}.${b.param.name}`, b.value]));

describe('naming parameters', () => {
  test('headers match in any case, other locations exactly', async () => {
    const { spec, endpoint } = await load(openapi('get', '/x', `[{ name: X-Trace, in: header, schema: { type: string } }, { name: limit, in: query, schema: { type: integer } }]`));
    assert.deepEqual(valuesOf(bindArguments(endpoint, spec, { 'x-TRACE': 'a', limit: 2 }, undefined, undefined)), { 'header.X-Trace': 'a', 'query.limit': 2 });
    assert.deepEqual(refusal(() => bindArguments(endpoint, spec, { LIMIT: 2 }, undefined, undefined)).problems, ["'LIMIT': unknown parameter"]);
  });

  test('a name shared by two locations needs its location; a parameter whose own name looks qualified is found by it', async () => {
    const { spec, endpoint } = await load(
      openapi('get', '/x/{id}', `[{ name: id, in: path, required: true, schema: { type: string } }, { name: id, in: query, schema: { type: string } }, { name: query.sort, in: query, schema: { type: string } }, { name: sort, in: header, schema: { type: string } }]`),
    );
    assert.deepEqual(refusal(() => bindArguments(endpoint, spec, { id: '1' }, undefined, undefined)).problems, ["'id': ambiguous, use 'path.id' or 'query.id'", 'path.id (path, string): required']);
    assert.deepEqual(valuesOf(bindArguments(endpoint, spec, { 'path.id': '1', 'query.id': '2', 'query.sort': 'asc', 'header.SORT': 'd' }, undefined, undefined)), {
      'path.id': '1',
      'query.id': '2',
      'query.query.sort': 'asc',
      'header.sort': 'd',
    });
    assert.deepEqual(refusal(() => bindArguments(endpoint, spec, { 'path.id': '1', 'body.id': 2, '.id': 3 }, undefined, undefined)).problems, ["'body.id': unknown parameter", "'.id': unknown parameter"]);
  });

  test('an undefined value is no value', async () => {
    const { spec, endpoint } = await load(openapi('get', '/x', `[{ name: limit, in: query, schema: { type: integer } }]`));
    assert.deepEqual(bindArguments(endpoint, spec, { limit: undefined }, undefined, undefined).params, []);
  });
});

describe('required values', () => {
  test('an OpenAPI example never stands in for a missing required value', async () => {
    const { spec, endpoint } = await load(openapi('get', '/x', `[{ name: q, in: query, required: true, example: shoes, schema: { type: string } }]`));
    assert.deepEqual(refusal(() => bindArguments(endpoint, spec, {}, undefined, undefined)).problems, ['q (query, string): required']);
  });

  for (const version of ['2.0.0', '2.1.0']) {
    test(`a Postman ${version} collection's own values stand in for missing ones; a variable without a value is required`, async () => {
      const collection = {
        info: { name: 'c', schema: `https://schema.getpostman.com/json/collection/v${version}/collection.json` },
        item: [
          {
            name: 'get pet',
            request: {
              method: 'GET',
              url: { raw: 'http://127.0.0.1:9/pets/:id/:kind', host: ['127', '0', '0', '1'], port: '9', path: ['pets', ':id', ':kind'], variable: [{ key: 'id', value: '7' }, { key: 'kind' }] },
            },
          },
        ],
      };
      const { spec, endpoint } = await load(JSON.stringify(collection), 'json');
      assert.ok(spec.format.startsWith('postman-'), spec.format);
      assert.deepEqual(refusal(() => bindArguments(endpoint, spec, {}, undefined, undefined)).problems, ['kind (path, string): required']);
      assert.deepEqual(valuesOf(bindArguments(endpoint, spec, { kind: 'cat' }, undefined, undefined)), { 'path.kind': 'cat', 'path.id': '7' });
    });
  }
});

describe('bodies', () => {
  test('a null body is no body, even where the endpoint takes none', async () => {
    const { spec, endpoint } = await load(openapi('get', '/x', '[]'));
    const bound = bindArguments(endpoint, spec, undefined, null, undefined);
    assert.deepEqual(bound, { params: [], notes: [] });
    assert.ok(!('content' in bound));
  });

  test('the media type asked for matches however its parameters are spaced', async () => {
    const { spec, endpoint } = await load(openapi('post', '/x', '[]', `{ content: { 'application/json; charset=utf-8': { schema: { type: object } }, text/plain: { schema: { type: string } } } }`));
    assert.equal(bindArguments(endpoint, spec, undefined, {}, 'application/json ; charset=utf-8').content?.mediaType, 'application/json; charset=utf-8');
    assert.equal(bindArguments(endpoint, spec, undefined, 'hi', ' TEXT/PLAIN').content?.mediaType, 'text/plain');
  });

  test('a readOnly property is not required in a request body', async () => {
    const { spec, endpoint } = await load(openapi('post', '/x', '[]', `{ content: { application/json: { schema: { type: object, required: [id, name], properties: { id: { type: integer, readOnly: true }, name: { type: string } } } } } }`));
    assert.deepEqual(bindArguments(endpoint, spec, undefined, { name: 'a' }, undefined).body, { name: 'a' });
  });

  test('a body media type without a schema takes any body', async () => {
    const { spec, endpoint } = await load(openapi('post', '/x', '[]', `{ content: { application/json: {} } }`));
    assert.deepEqual(bindArguments(endpoint, spec, undefined, [1, 'x'], undefined).body, [1, 'x']);
  });
});

describe('what a refusal says', () => {
  const post = (schema: string, params = '[]') => load(openapi('post', '/x', params, `{ required: true, content: { application/json: { schema: ${schema} } } }`));

  test('a oneOf or anyOf failure is told once, without its branches piecemeal', async () => {
    for (const [kw, word] of [['oneOf', 'exactly one'], ['anyOf', 'one']] as const) {
      const { spec, endpoint } = await post(`{ ${kw}: [{ type: string }, { type: integer }] }`);
      assert.deepEqual(refusal(() => bindArguments(endpoint, spec, undefined, true, undefined)).problems, [`body: must be ${word} of: string, integer`]);
    }
  });

  test('the required properties of the alternatives are still named', async () => {
    const { spec, endpoint } = await post(`{ anyOf: [{ type: object, required: [a] }, { type: object, required: [b] }] }`);
    assert.deepEqual(refusal(() => bindArguments(endpoint, spec, undefined, {}, undefined)).problems, [
      "body: must have required property 'a'",
      "body: must have required property 'b'",
      'body: must be one of: object',
    ]);
  });

  test('the same line is told once, and at most 8 lines per value', async () => {
    const once = await post(`{ allOf: [{ type: string }, { type: string }] }`);
    assert.deepEqual(refusal(() => bindArguments(once.endpoint, once.spec, undefined, 5, undefined)).problems, ['body: must be string']);
    const names = 'abcdefghij'.split('');
    const many = await post(`{ type: object, required: [${names.join(', ')}] }`);
    assert.deepEqual(
      refusal(() => bindArguments(many.endpoint, many.spec, undefined, {}, undefined)).problems,
      names.slice(0, 8).map((x) => `body: must have required property '${x}'`),
    );
  });

  test('the expected params are qualified where two share a name, and none is said when there are none', async () => {
    const two = await load(openapi('get', '/x/{id}', `[{ name: id, in: path, required: true, schema: { type: string } }, { name: id, in: query, schema: { type: integer } }, { name: q, in: query, schema: { type: string } }]`));
    const e = refusal(() => bindArguments(two.endpoint, two.spec, { zz: 1, 'path.id': 'a' }, undefined, undefined));
    assert.match(e.message, /\nExpected params: path\.id \(path, string, required\), query\.id \(query, integer\), q \(query, string\)$/);
    const none = await load(openapi('get', '/x', '[]'));
    assert.match(refusal(() => bindArguments(none.endpoint, none.spec, { zz: 1 }, undefined, undefined)).message, /\nExpected params: none$/);
  });

  test('a body described without a media type is not described in the hint', async () => {
    const { spec, endpoint } = await load(openapi('post', '/x', '[]', '{ required: true, content: {} }'));
    const e = refusal(() => bindArguments(endpoint, spec, { zz: 1 }, undefined, undefined));
    assert.equal(e.message, "Invalid arguments for POST /x:\n- 'zz': unknown parameter\n- body (): required\nExpected params: none");
  });

  test('the expected body names at most 20 properties, arrays by their items', async () => {
    const props = (k: number) => Array.from({ length: k }, (_, i) => `p${i}: { type: string }`).join(', ');
    const twenty = await post(`{ type: object, properties: { ${props(20)} } }`);
    const m20 = refusal(() => bindArguments(twenty.endpoint, twenty.spec, undefined, 5, undefined)).message;
    assert.match(m20, /p19 \(string\)$/);
    const more = await post(`{ type: object, properties: { ${props(22)} } }`);
    assert.match(refusal(() => bindArguments(more.endpoint, more.spec, undefined, 5, undefined)).message, /p19 \(string\), and 2 more$/);
    const arrays = await post(`{ type: object, required: [a], properties: { a: { type: array, items: { type: integer } }, b: { type: array, items: {} }, c: { type: array } } }`);
    assert.match(refusal(() => bindArguments(arrays.endpoint, arrays.spec, undefined, 5, undefined)).message, /object with a \(integer\[\], required\), b \(any\[\]\), c \(any\[\]\)$/);
  });
});
