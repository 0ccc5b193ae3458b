// inspect on the edges of what a spec holds: parameters without a type or schema, examples of their
// own against the schema's, a body required but undescribed, a schema that cannot be resolved (a
// damaged document), and the bound on how deep a schema is resolved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpoint, spec } from '../catalog/fixtures.ts';
import type { Endpoint, ImportedSpec, Parameter, SchemaResolver } from '../../src/model/index.ts';
import { benchOfSources, benchOfSpecs, openapi } from './support.ts';

const FILE = '/specs/hand.yaml';
const link = (node: unknown) => ({ file: FILE, node });

/** One hand-made endpoint (GET /x of spec hand) with these parameters; the fixtures' resolver hands nodes back as they are. */
function handMade(parameters: Parameter[], over: Partial<Endpoint> = {}, schemas?: SchemaResolver): ImportedSpec {
  const base = spec('hand', []);
  return { ...base, ...(schemas ? { schemas } : {}), endpoints: [{ ...endpoint('hand', 'default', { method: 'GET', path: '/x' }), parameters, ...over }] };
}

async function parameterLines(parameters: Parameter[]): Promise<string[]> {
  const bench = await benchOfSpecs([handMade(parameters)]);
  const r = await bench.run('inspect', { endpointId: 'hand:GET:/x' });
  assert.equal(r.isError, undefined, r.text);
  const lines = r.text.split('\n');
  return lines.slice(lines.indexOf('Parameters:') + 1, lines.indexOf('Responses:'));
}

describe('inspect parameters on the edges', () => {
  it('says any for a parameter without a type, with or without a schema', async () => {
    assert.deepEqual(
      await parameterLines([
        { name: 'a', in: 'query', required: false, type: '' },
        { name: 'b', in: 'query', required: false, type: '', schema: link({ format: 'int32' }) },
        { name: 'c', in: 'query', required: false, type: 'integer', schema: link({ format: 'int32' }) },
      ]),
      ['  a (query, any)', '  b (query, any)', '  c (query, integer(int32))'],
    );
  });

  it("shows the schema's example when the parameter has none of its own, and the parameter's own when it has one", async () => {
    assert.deepEqual(
      await parameterLines([
        { name: 'a', in: 'query', required: false, type: 'string', schema: link({ type: 'string', example: 'from-schema' }) },
        { name: 'b', in: 'query', required: false, type: 'string', example: 'own' },
        { name: 'c', in: 'query', required: false, type: 'string[]', schema: link({ type: 'array', example: ['s'] }), example: ['own'] },
        { name: 'd', in: 'query', required: false, type: 'integer', schema: link({ type: 'integer', default: 7, example: 8 }), example: 7 },
      ]),
      ['  a (query, string, e.g. "from-schema")', '  b (query, string, e.g. "own")', '  c (query, string[], e.g. ["own"])', '  d (query, integer, default 7, e.g. 8)'],
    );
  });
});

describe('inspect bodies and schemas on the edges', () => {
  it('says a required body has no content type', async () => {
    const bench = await benchOfSpecs([handMade([], { requestBody: { required: true, contents: [] } })]);
    assert.equal((await bench.run('inspect', { endpointId: 'hand:GET:/x' })).text, ['GET /x', 'Parameters: none', 'Body (required): the spec gives no content type or schema for it', 'Responses:', '  200 OK'].join('\n'));
  });

  it('says in one line, cut to 160 characters, why a schema could not be resolved', async () => {
    const failing = (message: unknown): SchemaResolver => ({
      resolve: () => {
        throw message;
      },
      shallow: (l) => l,
    });
    const body = { requestBody: { required: false, contents: [{ mediaType: 'application/json', schema: link({ $ref: '#/X' }) }] } };
    for (const [thrown, shown] of [
      [new Error('the detail changed on disk\n  at byte 12'), 'the detail changed on disk at byte 12'],
      ['a bare reason', 'a bare reason'],
      [new Error(`${'w '.repeat(100)}end`), `${'w '.repeat(78)}w…`],
    ] as const) {
      const bench = await benchOfSpecs([handMade([], body, failing(thrown))]);
      const text = (await bench.run('inspect', { endpointId: 'hand:GET:/x' })).text;
      assert.equal(text, ['GET /x', 'Parameters: none', 'Body (application/json):', `  (schema could not be resolved: ${shown})`, 'Responses:', '  200 OK'].join('\n'));
    }
  });

  it('resolves a schema 24 levels deep at most: a deeper part is named, not followed', async () => {
    // A field of nested lists: each level of items is one level of JSON.
    let nested: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 30; i++) nested = { type: 'array', items: nested };
    const paths = { '/deep': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { grid: nested } } } } }, responses: { '200': { description: 'OK' } } } } };
    const bench = await benchOfSources([{ file: 'deep.json', text: openapi(paths) }]);
    try {
      const text = (await bench.run('inspect', { endpointId: 'deep:POST:/deep' })).text;
      // schema (0) > properties (1) > grid (2) > items ... the 22nd list's items stand at 24: cut there.
      assert.match(text, new RegExp(`^ {2}grid \\(object${'\\[\\]'.repeat(22)}\\)$`, 'm'));
    } finally {
      await bench.cleanup();
    }
  });
});
