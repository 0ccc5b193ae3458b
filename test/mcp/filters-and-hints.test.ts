// The search tool's method filter takes any case, and an unknown spec, collection or tag is answered
// with a hint naming the tool that lists them, whichever tool was called.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { HTTP_METHODS } from '../../src/model/index.ts';
import { call, inMemoryClient, sessionContext, textOf, workspace, type Workspace } from './support.ts';

describe('search method filter and lookup hints', () => {
  let ws: Workspace;
  let client: Client;
  before(async () => {
    ws = await workspace();
    client = await inMemoryClient(await sessionContext(ws.configFile));
  });
  after(async () => {
    await client?.close();
    await ws?.cleanup();
  });

  it('filters by method whatever its case', async () => {
    const upper = textOf(await call(client, 'search', { query: 'animal', method: 'POST' }));
    assert.match(upper, /zoo:POST:/);
    // Every spelling of every method gives the same answer as the upper-case one.
    const spellings = fc.tuple(fc.constantFrom(...HTTP_METHODS), fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }));
    await fc.assert(
      fc.asyncProperty(spellings, async ([method, flips]) => {
        const spelled = [...method].map((c, i) => (flips[i] ? c.toLowerCase() : c)).join('');
        const expected = await call(client, 'search', { query: 'animal', method });
        const actual = await call(client, 'search', { query: 'animal', method: spelled });
        assert.equal(actual.isError, undefined, textOf(actual));
        assert.equal(textOf(actual), textOf(expected));
      }),
      { numRuns: 30 },
    );
  });

  it('still refuses a method that is none of the seven', async () => {
    const result = await call(client, 'search', { query: 'animal', method: 'fetch' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS/);
  });

  const cases: [tool: string, args: Record<string, unknown>, lister: string][] = [
    ['search', { query: 'animal', spec: 'zooo' }, 'endpoint_by_spec without spec'],
    ['search', { query: 'animal', collection: 'parkk' }, 'endpoint_by_collection without collection'],
    ['search', { query: 'animal', tag: 'nope-tag' }, 'endpoint_by_tag without tag'],
    ['endpoint_by_tag', { tag: 'x', spec: 'zooo' }, 'endpoint_by_spec without spec'],
    ['endpoint_by_spec', { spec: 'zooo' }, 'endpoint_by_spec without spec'],
    ['endpoint_by_collection', { collection: 'parkk' }, 'endpoint_by_collection without collection'],
  ];
  for (const [tool, args, lister] of cases) {
    it(`${tool} with an unknown ${Object.keys(args).at(-1)} points at ${lister.split(' ')[0]}`, async () => {
      const result = await call(client, tool, args);
      assert.equal(result.isError, true);
      assert.match(textOf(result), new RegExp(`[Cc]all ${lister} to list`));
    });
  }
});
