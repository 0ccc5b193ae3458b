// `defineTool` ties a tool's input type to its zod shape, so handlers get typed arguments.
import type { z } from 'zod';
import type { ToolAnnotations, ToolContext, ToolDefinition, ToolResult } from './types.ts';

export function defineTool<S extends Record<string, z.ZodType>>(def: {
  name: string;
  description: string;
  inputShape: S;
  outputShape?: Record<string, z.ZodType>;
  annotations: ToolAnnotations;
  readsDetail?: boolean;
  handler(input: z.infer<z.ZodObject<S>>, ctx: ToolContext): Promise<ToolResult>;
}): ToolDefinition<z.infer<z.ZodObject<S>>> {
  return def;
}

/** Every tool but invoke: reads the catalogue, changes nothing, reaches nothing outside. */
export function readOnly(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, openWorldHint: false };
}
