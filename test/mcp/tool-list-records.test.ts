// tools/list's trimmed schemas for records keyed by a choice of names: the key schema (propertyNames)
// says which names are allowed, so it stays whatever its form; only a bare {"type":"string"} goes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { describeTools } from '../../src/mcp/tool-list.ts';
import type { ToolDefinition } from '../../src/tools/types.ts';

const tool = (inputShape: ToolDefinition['inputShape']): ToolDefinition => ({
  name: 'records', description: 'takes records', inputShape,
  annotations: { title: 'Records', readOnlyHint: true, openWorldHint: false },
  handler: async () => ({ text: '' }),
});

describe('tools/list, records', () => {
  it('a record keyed by a union of names keeps its propertyNames (anyOf), one keyed by any string has none', () => {
    const [listed] = describeTools([tool({ byName: z.record(z.union([z.literal('a'), z.literal('b')]), z.number()), anyKey: z.record(z.string(), z.number()) })]);
    const props = (listed!.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties;
    assert.deepEqual(props['byName']!['propertyNames'], { anyOf: [{ type: 'string', const: 'a' }, { type: 'string', const: 'b' }] });
    assert.equal('propertyNames' in props['anyKey']!, false);
  });
});
