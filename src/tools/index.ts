// The seven tools, the server instructions, and `runTool`, the one way every front end
// (MCP, the IPC mirrors) calls a handler: errors become `isError` results with a hint.
import { SvcError } from '../model/errors.ts';
import { endpointByCollection } from './endpoint-by-collection.ts';
import { endpointById } from './endpoint-by-id.ts';
import { endpointBySpec } from './endpoint-by-spec.ts';
import { endpointByTag } from './endpoint-by-tag.ts';
import { inspect } from './inspect.ts';
import { invoke } from './invoke.ts';
import { ID_EXAMPLE } from './lookup.ts';
import { search } from './search.ts';
import type { ToolContext, ToolDefinition, ToolResult } from './types.ts';

export type { ToolContext, ToolDefinition, ToolResult } from './types.ts';
export { renderInspect } from './inspect-text.ts';
export { listingLine } from './listing.ts';

export const TOOLS: readonly ToolDefinition[] = [
  search,
  endpointBySpec,
  endpointByCollection,
  endpointByTag,
  endpointById,
  inspect,
  invoke,
] as readonly ToolDefinition<never>[] as readonly ToolDefinition[];

export function toolByName(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** What the model reads once at connection: how to work with these tools. */
export const INSTRUCTIONS = [
  'svc serves a catalogue of HTTP API endpoints. Work in three steps:',
  '1. Find: search with keywords, or browse with endpoint_by_spec, endpoint_by_collection or endpoint_by_tag (without arguments they give an overview).',
  '2. inspect the endpoint for its parameters, body fields and responses.',
  '3. invoke it with params by name and a JSON body.',
  `An endpoint id is spec:METHOD:/path, e.g. ${ID_EXAMPLE}; copy it exactly. Long lists are paged: pass nextCursor back as cursor.`,
].join('\n');

/** Run a tool's handler; bad input and unknown names come back as tool errors, never as throws. */
export async function runTool(tool: ToolDefinition, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  try {
    return await tool.handler(input, ctx);
  } catch (error) {
    if (error instanceof SvcError) {
      return { isError: true, text: error.hint ? `${error.message}\nhint: ${error.hint}` : error.message };
    }
    if (ctx.signal?.aborted) return { isError: true, text: `${tool.name} was cancelled` };
    const message = error instanceof Error ? error.message : String(error);
    return { isError: true, text: `${tool.name} failed: ${message}` };
  }
}
