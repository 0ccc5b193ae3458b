// tools/list as the model reads it. Every token here is paid on every conversation, so the JSON
// Schemas are generated once from the zod shapes and trimmed of what carries no meaning for a
// client: the `$schema` URL, `additionalProperties: false` (unknown arguments are refused with a
// clear tool error anyway; `{}` adds nothing), `required` inside output items (the output schema
// documents field names and types; the client checks the top level), annotation values equal to
// the spec's defaults.
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolDefinition } from '../tools/types.ts';

type Json = Record<string, unknown>;

function isStringType(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && (value as Json)['type'] === 'string';
}

function trim(node: unknown, nestedRequired: boolean, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((n) => trim(n, nestedRequired, depth));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$schema') continue;
    if (key === 'required' && depth > 0 && !nestedRequired) continue;
    if (key === 'propertyNames' && isStringType(value)) continue; // JSON object keys are strings anyway
    if (key === 'additionalProperties' && (value === false || (typeof value === 'object' && value !== null && Object.keys(value).length === 0))) continue;
    out[key] = trim(value, nestedRequired, depth + 1);
  }
  return out;
}

/** Inputs keep every `required` (the model must know what to send); outputs only the top-level one. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  return trim(z.toJSONSchema(schema, { io, unrepresentable: 'any' }), io === 'input') as Tool['inputSchema'];
}

/** MCP annotations: readOnlyHint and openWorldHint always (clients show them), the rest only when not the default. */
function annotations(def: ToolDefinition): NonNullable<Tool['annotations']> {
  const a = def.annotations;
  const out: NonNullable<Tool['annotations']> = { readOnlyHint: a.readOnlyHint, openWorldHint: a.openWorldHint };
  // Defaults per the spec: destructiveHint true, idempotentHint false (both only meaningful for writes).
  if (!a.readOnlyHint && a.destructiveHint === false) out.destructiveHint = false;
  if (!a.readOnlyHint && a.idempotentHint === true) out.idempotentHint = true;
  return out;
}

const cache = new WeakMap<readonly ToolDefinition[], Tool[]>();

/**
 * Set by the bundler (scripts/build.mjs) to `describeTools` of the built-in tools, as JSON text (one
 * string in the bundle; parsing it takes a fraction of a millisecond): the installed package answers
 * tools/list without converting the zod shapes at every start (about 17 ms).
 */
declare const SVC_TOOL_LIST: string | undefined;

/** The list the build made, in the bundle; undefined when running from the sources. */
// Stryker disable next-line all: the sources never define SVC_TOOL_LIST, so only the bundle tells these apart (test/package checks it)
const PREMADE: string | undefined = typeof SVC_TOOL_LIST === 'string' ? SVC_TOOL_LIST : undefined;

/**
 * The tool list of the built-in tools (`builtIn`: the very array the build described, whose list
 * `premade` holds), or of `tools`.
 */
export function listedTools(tools: readonly ToolDefinition[], builtIn: readonly ToolDefinition[], premade: string | undefined = PREMADE): Tool[] {
  if (tools !== builtIn || premade === undefined) return describeTools(tools);
  let listed = cache.get(tools);
  if (!listed) cache.set(tools, (listed = JSON.parse(premade) as Tool[]));
  return listed;
}

export function describeTools(tools: readonly ToolDefinition[]): Tool[] {
  let listed = cache.get(tools);
  if (!listed) {
    listed = tools.map((def) => {
      const tool: Tool = {
        name: def.name,
        title: def.annotations.title,
        description: def.description,
        inputSchema: jsonSchema(z.object(def.inputShape), 'input'),
        annotations: annotations(def),
      };
      // Loose at the top: overviews add a group (specs, collections, tags) beside the endpoint fields.
      if (def.outputShape) tool.outputSchema = jsonSchema(z.looseObject(def.outputShape), 'output') as Tool['outputSchema'];
      return tool;
    });
    cache.set(tools, listed);
  }
  return listed;
}
