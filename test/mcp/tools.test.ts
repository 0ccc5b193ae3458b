// The seven tools' behaviour, through a real SDK Client over the SDK's in-memory transport,
// on the real importer and catalogue over fixture files.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { countTokens } from 'gpt-tokenizer';
import type { SessionContext } from '../../src/mcp/server.ts';
import { call, inMemoryClient, sessionContext, textOf, workspace, type Workspace } from './support.ts';

const READ_ONLY = ['search', 'endpoint_by_spec', 'endpoint_by_collection', 'endpoint_by_tag', 'endpoint_by_id', 'inspect'];

describe('MCP tools over the in-memory transport', () => {
  let ws: Workspace;
  let ctx: SessionContext;
  let client: Client;

  before(async () => {
    ws = await workspace();
    ctx = await sessionContext(ws.configFile);
    client = await inMemoryClient(ctx);
  });
  after(async () => {
    await client?.close();
    await ws?.cleanup();
  });

  describe('tools/list', () => {
    it('offers exactly the seven tools', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...READ_ONLY, 'invoke'].sort());
    });

    it('marks every tool but invoke read-only and closed-world, and invoke open-world', async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        if (tool.name === 'invoke') {
          assert.equal(tool.annotations?.readOnlyHint, false);
          assert.equal(tool.annotations?.openWorldHint, true);
        } else {
          assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
          assert.equal(tool.annotations?.openWorldHint, false, tool.name);
        }
      }
    });

    it('declares the listing output schema on the listing tools and search', async () => {
      const { tools } = await client.listTools();
      for (const name of ['search', 'endpoint_by_spec', 'endpoint_by_collection', 'endpoint_by_tag']) {
        const schema = tools.find((t) => t.name === name)?.outputSchema as { properties: Record<string, unknown> } | undefined;
        assert.ok(schema, `${name} has an outputSchema`);
        assert.ok(schema.properties['endpoints'] && schema.properties['total'] && schema.properties['nextCursor'], name);
      }
    });

    it('gives invoke its final input schema: endpointId, params, body, contentType', async () => {
      const { tools } = await client.listTools();
      const invoke = tools.find((t) => t.name === 'invoke')!;
      assert.deepEqual(Object.keys(invoke.inputSchema.properties ?? {}).sort(), ['body', 'contentType', 'endpointId', 'params']);
      assert.deepEqual(invoke.inputSchema.required, ['endpointId']);
    });

    it('costs the model under 1,200 tokens for the whole tools/list', async () => {
      const { tools } = await client.listTools();
      const tokens = countTokens(JSON.stringify({ tools }));
      assert.ok(tokens < 1200, `tools/list is ${tokens} tokens`);
    });

    it('sends instructions that explain the workflow and the id format', () => {
      const instructions = client.getInstructions() ?? '';
      assert.match(instructions, /search/);
      assert.match(instructions, /inspect/);
      assert.match(instructions, /invoke/);
      assert.match(instructions, /spec:METHOD:\/path/);
      assert.ok(instructions.split('\n').length <= 8, 'a few lines');
    });
  });

  describe('endpoint_by_spec', () => {
    it('without spec lists the specs with their endpoint counts', async () => {
      const result = await call(client, 'endpoint_by_spec');
      assert.equal(result.isError, undefined);
      const text = textOf(result);
      assert.match(text, /^zoo: 8 endpoints \(1 deprecated\), collection park, "Zoo API"$/m);
      assert.match(text, /^weather: 2 endpoints, collection outdoor/m);
      const s = result.structuredContent as { specs: { name: string; endpoints: number }[]; total: number };
      assert.deepEqual(s.specs.map((x) => [x.name, x.endpoints]), [['zoo', 8], ['weather', 2]]);
      assert.equal(s.total, 2);
    });

    it('lists one line per endpoint: id, summary and a deprecated marker', async () => {
      const text = textOf(await call(client, 'endpoint_by_spec', { spec: 'zoo' }));
      const lines = text.split('\n');
      assert.equal(lines[0], '8 endpoints in spec zoo');
      assert.equal(lines[1], 'zoo:GET:/animals - List animals');
      assert.ok(lines.includes('zoo:POST:/animals/{animalId}/feed - Feed an animal (old) [deprecated]'));
      // No summary in the source: the description's first sentence stands in.
      assert.ok(lines.includes('zoo:GET:/health - Reports whether the service is up.'));
    });

    it('pages with a cursor until the last page, which has none', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const result = await call(client, 'endpoint_by_spec', { spec: 'zoo', limit: 3, ...(cursor ? { cursor } : {}) });
        const s = result.structuredContent as { endpoints: { id: string }[]; total: number; nextCursor?: string };
        assert.equal(s.total, 8);
        seen.push(...s.endpoints.map((e) => e.id));
        cursor = s.nextCursor;
        if (cursor) assert.match(textOf(result), new RegExp(`more: cursor=${cursor}$`));
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.equal(new Set(seen).size, 8);
      assert.equal(seen[0], 'zoo:GET:/animals');
    });

    it('returns structured endpoints with the agreed field names', async () => {
      const s = (await call(client, 'endpoint_by_spec', { spec: 'zoo', limit: 5 })).structuredContent as Record<string, unknown>;
      const first = (s['endpoints'] as Record<string, unknown>[])[0]!;
      assert.deepEqual(first, {
        id: 'zoo:GET:/animals',
        method: 'GET',
        path: '/animals',
        summary: 'List animals',
        spec: 'zoo',
        tags: ['animals'],
        deprecated: false,
      });
      assert.equal(typeof s['nextCursor'], 'string');
    });

    it('refuses a cursor it did not give out, saying what to pass', async () => {
      const result = await call(client, 'endpoint_by_spec', { spec: 'zoo', cursor: 'not-a-cursor' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /cursor "not-a-cursor" is not one this server gave out/);
      assert.match(textOf(result), /nextCursor/);
    });

    it('suggests the closest spec for an unknown one', async () => {
      const result = await call(client, 'endpoint_by_spec', { spec: 'zo' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /unknown spec "zo"/);
      assert.match(textOf(result), /did you mean "zoo"/);
    });
  });

  describe('endpoint_by_collection', () => {
    it('without collection lists the collections with their specs and counts', async () => {
      const result = await call(client, 'endpoint_by_collection');
      const text = textOf(result);
      assert.match(text, /^park: 8 endpoints; specs zoo \(8\)$/m);
      assert.match(text, /^outdoor: 2 endpoints; specs weather \(2\)$/m);
      const s = result.structuredContent as { collections: { name: string; specs: { name: string }[] }[] };
      assert.deepEqual(s.collections.map((c) => c.name).sort(), ['outdoor', 'park']);
    });

    it('lists the endpoints of one collection', async () => {
      const s = (await call(client, 'endpoint_by_collection', { collection: 'outdoor' })).structuredContent as { endpoints: { id: string }[] };
      assert.deepEqual(s.endpoints.map((e) => e.id), ['weather:GET:/forecast/{city}', 'weather:GET:/alerts']);
    });

    it('suggests the closest collection for an unknown one', async () => {
      const result = await call(client, 'endpoint_by_collection', { collection: 'parks' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /did you mean "park"/);
    });
  });

  describe('endpoint_by_tag', () => {
    it('without tag lists the tags with counts, narrowed by spec', async () => {
      const text = textOf(await call(client, 'endpoint_by_tag', { spec: 'zoo' }));
      assert.match(text, /^animals: 6$/m);
      assert.match(text, /^keepers: 2$/m);
      assert.doesNotMatch(text, /forecast/);
    });

    it('lists the endpoints with a tag', async () => {
      const s = (await call(client, 'endpoint_by_tag', { tag: 'keepers' })).structuredContent as { endpoints: { id: string }[]; total: number };
      assert.deepEqual(s.endpoints.map((e) => e.id), ['zoo:POST:/animals/{animalId}/feed', 'zoo:GET:/keepers']);
      assert.equal(s.total, 2);
    });

    it('suggests the closest tag for an unknown one', async () => {
      const result = await call(client, 'endpoint_by_tag', { tag: 'animal' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /did you mean "animals"/);
    });
  });

  describe('endpoint_by_id', () => {
    it('gives a quick summary with parameter names', async () => {
      const text = textOf(await call(client, 'endpoint_by_id', { endpointId: 'zoo:POST:/animals' }));
      assert.equal(
        text,
        [
          'POST /animals',
          'id: zoo:POST:/animals',
          'summary: Add an animal',
          'spec: zoo (collection park)',
          'tags: animals',
          'parameters: X-Request-Id*',
          'body: application/json, application/x-www-form-urlencoded (required)',
          '(* required)',
        ].join('\n'),
      );
    });

    it('says when an endpoint is deprecated', async () => {
      assert.match(textOf(await call(client, 'endpoint_by_id', { endpointId: 'zoo:POST:/animals/{animalId}/feed' })), /^deprecated: yes$/m);
    });

    it('accepts a lower-case method in the id', async () => {
      const result = await call(client, 'endpoint_by_id', { endpointId: 'zoo:get:/keepers' });
      assert.equal(result.isError, undefined);
      assert.match(textOf(result), /^GET \/keepers$/m);
    });
  });

  describe('unknown ids and bad arguments', () => {
    it('answers an unknown endpoint id with the closest ids', async () => {
      const result = await call(client, 'inspect', { endpointId: 'zoo:GET:/animal/{animalId}' });
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, /unknown endpoint id "zoo:GET:\/animal\/\{animalId\}"/);
      assert.match(text, /closest ids: .*zoo:GET:\/animals\/\{animalId\}/);
    });

    it('says what is expected when a required argument is missing', async () => {
      const result = await call(client, 'search', {});
      assert.equal(result.isError, true);
      assert.equal(textOf(result), 'Invalid arguments for search: query must be a text, e.g. "create issue"');
    });

    it('says what is expected when limit is out of range', async () => {
      const result = await call(client, 'endpoint_by_spec', { spec: 'zoo', limit: 0 });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /limit must be at least 1/);
    });

    it('lists the allowed methods when a method filter is wrong', async () => {
      const result = await call(client, 'search', { query: 'animal', method: 'FETCH' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS/);
    });

    it('names an unknown argument and the arguments the tool takes', async () => {
      const result = await call(client, 'search', { query: 'animal', limits: 3 });
      assert.equal(result.isError, true);
      assert.equal(textOf(result), 'Invalid arguments for search: unknown argument "limits"; search takes query, spec, collection, tag, method, limit, cursor');
    });

    it('answers an unknown tool with the JSON-RPC error -32602, listing the tools', async () => {
      await assert.rejects(call(client, 'list_endpoints', {}), (error: Error & { code?: number }) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, /Unknown tool "list_endpoints"; the tools are search, endpoint_by_spec/);
        return true;
      });
    });

    it('refuses an empty search query', async () => {
      const result = await call(client, 'search', { query: '   ' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /query must not be empty/);
    });

    it('refuses an empty endpoint id with the id format', async () => {
      const result = await call(client, 'endpoint_by_id', { endpointId: '' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /spec:|github:POST/);
    });
  });

  describe('search', () => {
    it('ranks the endpoint that does what the words say first', async () => {
      const result = await call(client, 'search', { query: 'add an animal' });
      const s = result.structuredContent as { endpoints: { id: string }[]; total: number };
      assert.equal(s.endpoints[0]?.id, 'zoo:POST:/animals');
      assert.equal(s.total, s.endpoints.length);
      assert.match(textOf(result), /^zoo:POST:\/animals - Add an animal$/m);
    });

    it('applies the spec and method filters', async () => {
      const s = (await call(client, 'search', { query: 'animal', method: 'DELETE' })).structuredContent as { endpoints: { id: string }[] };
      assert.deepEqual(s.endpoints.map((e) => e.id), ['zoo:DELETE:/animals/{animalId}']);
      const w = (await call(client, 'search', { query: 'forecast', spec: 'zoo' })).structuredContent as { endpoints: unknown[] };
      assert.equal(w.endpoints.length, 0);
    });

    it('respects limit', async () => {
      const s = (await call(client, 'search', { query: 'animal', limit: 2 })).structuredContent as { endpoints: unknown[] };
      assert.equal(s.endpoints.length, 2);
    });

    it('says so when nothing matches', async () => {
      const result = await call(client, 'search', { query: 'xylophone' });
      assert.equal(result.isError, undefined);
      assert.match(textOf(result), /no endpoints match "xylophone"/);
    });
  });
});
