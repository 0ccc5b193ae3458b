// Public surface of invoke: endpoint + arguments -> a real HTTP request -> a compact answer. (Contract.)
import type { Config } from '../config/types.ts';
import type { Endpoint, ImportedSpec } from '../model/index.ts';
import type { ToolResult } from '../tools/types.ts';

export interface InvokeArgs {
  /** By parameter name; `query.name`, `header.name`... where two parameters share a name. */
  readonly params?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
}

export interface InvokeContext {
  readonly confirm?: (message: string) => Promise<boolean>;
  readonly signal?: AbortSignal;
}

/** ToolResult whose `structured` is `{status, headers, body, truncated}` whenever a response arrived. */
export type InvokeResult = ToolResult;

export interface Invoker {
  invoke(endpoint: Endpoint, spec: ImportedSpec, args: InvokeArgs, ctx: InvokeContext): Promise<InvokeResult>;
}

/** One invoker per daemon: it caches OAuth2 tokens per spec. */
export declare function createInvoker(config: Config): Invoker;
