// The codes of the tool errors the handlers throw (runTool shows message and hint; the code is
// the machine-readable part of every SvcError): one per kind of refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec } from '../catalog/fixtures.ts';
import { ToolInputError } from '../../src/tools/errors.ts';
import { toolByName } from '../../src/tools/index.ts';
import { encodeCursor } from '../../src/tools/listing.ts';
import { benchOfSpecs } from './support.ts';

describe('tool error codes', () => {
  it('name each refusal', async () => {
    const { ctx } = await benchOfSpecs([spec('pets', [{ method: 'GET', path: '/pets', summary: 'List pets', tags: ['pets'] }], { collection: 'park' })]);
    const cases: [tool: string, input: Record<string, unknown>, code: string][] = [
      ['endpoint_by_id', { endpointId: ' ' }, 'empty-endpoint-id'],
      ['inspect', { endpointId: 'pets:GET:/nope' }, 'unknown-endpoint'],
      ['endpoint_by_spec', { spec: 'cats' }, 'unknown-spec'],
      ['endpoint_by_collection', { collection: 'zoo' }, 'unknown-collection'],
      ['endpoint_by_tag', { tag: 'cats' }, 'unknown-tag'],
      ['endpoint_by_spec', { spec: 'pets', cursor: 'x' }, 'bad-cursor'],
      ['search', { query: ' ' }, 'bad-query'],
      ['search', { query: 'p'.repeat(2001) }, 'bad-query'],
      ['search', { query: 'pets', cursor: encodeCursor(995), limit: 10 }, 'search-too-deep'],
    ];
    for (const [tool, input, code] of cases) {
      await assert.rejects(toolByName(tool)!.handler(input, ctx), (error: unknown) => {
        assert.ok(error instanceof ToolInputError, `${tool} ${JSON.stringify(input)}`);
        assert.equal(error.code, code, `${tool} ${JSON.stringify(input)}`);
        return true;
      });
    }
  });
});
