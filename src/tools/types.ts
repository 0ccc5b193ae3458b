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
