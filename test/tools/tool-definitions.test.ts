// The seven tools as the model reads them in tools/list (names, titles, descriptions, input and
// output schemas, annotations) against a golden file, and the messages of the arguments' checks.
// Regenerate after an intended change with UPDATE_GOLDEN=1, then read the diff: every token of
// tools/list is paid for on every session.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeTools } from '../../src/mcp/tool-list.ts';
import { TOOLS, toolByName } from '../../src/tools/index.ts';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tools', 'tools-list.json');

describe('tool definitions', () => {
  it('list as in tools-list.json', () => {
    const actual = `${JSON.stringify(describeTools(TOOLS), null, 1)}\n`;
    if (process.env['UPDATE_GOLDEN'] || !existsSync(GOLDEN)) {
      mkdirSync(dirname(GOLDEN), { recursive: true });
      writeFileSync(GOLDEN, actual);
      if (!process.env['UPDATE_GOLDEN']) assert.fail('tools-list.json was missing and has been written; check it and rerun');
      return;
    }
    assert.equal(actual, readFileSync(GOLDEN, 'utf8'));
  });

  it('declare the listing output schema on search and the listing tools only', () => {
    assert.deepEqual(TOOLS.filter((t) => t.outputShape !== undefined).map((t) => t.name), ['search', 'endpoint_by_spec', 'endpoint_by_collection', 'endpoint_by_tag']);
  });

  const message = (tool: string, input: unknown): string | undefined => {
    const r = z.object(toolByName(tool)!.inputShape).safeParse(input);
    return r.success ? undefined : r.error.issues.map((i) => i.message).join('; ');
  };

  it("say what is wrong with inspect's depth and with an endpoint id", () => {
    assert.equal(message('inspect', { endpointId: 'a:GET:/x', depth: 0 }), 'depth must be at least 1');
    assert.equal(message('inspect', { endpointId: 'a:GET:/x', depth: 7 }), 'depth must be at most 6');
    assert.equal(message('inspect', { endpointId: 'a:GET:/x', depth: 2.5 }), 'depth must be a whole number');
    assert.equal(message('inspect', { endpointId: 'a:GET:/x', depth: '2' }), 'depth must be a number');
    for (const depth of [1, 6, undefined]) assert.equal(message('inspect', { endpointId: 'a:GET:/x', ...(depth ? { depth } : {}) }), undefined);
    for (const tool of ['inspect', 'endpoint_by_id', 'invoke']) {
      assert.equal(message(tool, {}), 'endpointId must be a text like github:POST:/repos/{owner}/{repo}/issues', tool);
    }
  });

  it('take an optional name argument and the page arguments on the listing tools', () => {
    for (const [tool, arg] of [['endpoint_by_spec', 'spec'], ['endpoint_by_collection', 'collection'], ['endpoint_by_tag', 'tag']] as const) {
      assert.equal(message(tool, {}), undefined);
      assert.equal(message(tool, { [arg]: 'x', cursor: 'c', limit: 200 }), undefined);
      assert.equal(message(tool, { limit: 201 }), 'limit must be at most 200');
      assert.notEqual(message(tool, { [arg]: 5 }), undefined);
    }
    assert.notEqual(message('endpoint_by_tag', { spec: 5 }), undefined);
  });
});
