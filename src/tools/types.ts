// A tool is plain data plus a handler, independent of any MCP SDK: src/mcp adapts it,
// and the daemon's IPC mirrors (`svc search`, `svc inspect`, `svc list`) call the same handler.
import type { Catalog } from '../catalog/index.ts';
import type { Config } from '../config/types.ts';
import type { Invoker } from '../invoke/index.ts';

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: boolean;
}

export interface ImageContent {
  readonly type: 'image';
  readonly data: string; // base64
  readonly mimeType: string;
}

export interface ToolResult {
  /** Compact plain text: what the LLM reads. */
  readonly text: string;
  /** JSON matching the tool's output schema (required when it has one and the call succeeded). */
  readonly structured?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly images?: readonly ImageContent[];
}

/** What a handler may ask of the session it runs in. */
export interface ToolContext {
  readonly catalog: Catalog;
  readonly config: Config;
  readonly invoker: Invoker;
  /** Ask the person to confirm (MCP elicitation); `undefined` when the client cannot ask. */
  readonly confirm?: (message: string) => Promise<boolean>;
  readonly signal?: AbortSignal;
}

/**
 * One MCP tool as plain data: a name, a description written for the model, zod shapes for
 * input (and output, for listings), annotations and a handler. src/mcp registers these with the SDK;
 * nothing here knows about MCP transports.
 */
export interface ToolDefinition<Input = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  /** zod raw shape (`{ query: z.string(), ... }`) of the arguments. */
  readonly inputShape: Readonly<Record<string, import('zod').ZodType>>;
  /** zod raw shape of `structured`; when present every successful result carries `structured`. */
  readonly outputShape?: Readonly<Record<string, import('zod').ZodType>>;
  readonly annotations: ToolAnnotations;
  /**
   * Follows schema links into the spec's documents (inspect, invoke). Such a call waits, at start,
   * until the documents of a spec served fresh from the import are made, rather than parse the
   * source files on the event loop meanwhile (a large YAML file takes a second).
   */
  readonly readsDetail?: boolean;
  handler(input: Input, ctx: ToolContext): Promise<ToolResult>;
}
