// The only bridge between our tools (src/tools) and the MCP SDK: one McpServer per session,
// every tool registered with its zod shapes, results mapped to CallToolResult.
// Everything protocol-revision specific stays in this folder.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { INSTRUCTIONS, TOOLS, runTool } from '../tools/index.ts';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types.ts';
import { SERVER_NAME, SERVER_VERSION } from './identity.ts';
import { describeTools } from './tool-list.ts';

export { SERVER_NAME, SERVER_VERSION };

/** What a session needs from the daemon: the shared catalogue, config and invoker, once loaded. */
export type SessionContext = Pick<ToolContext, 'catalog' | 'config' | 'invoker'>;

/** A catalogue change after `svc update`, as src/daemon (events.ts) reports it. */
export interface CatalogChangeNotice {
  readonly message: string;
  readonly endpointsChanged: boolean;
  readonly specsChanged: boolean;
}

/**
 * What the daemon (src/daemon: Metrics, CatalogEvents) listens for and tells sessions, typed
 * structurally so neither side imports the other.
 */
export interface McpHooks {
  /** One tool call finished; `ok` false when it returned isError. */
  toolCall?(tool: string, ms: number, ok: boolean): void;
  sessionOpened?(): void;
  sessionClosed?(): void;
  /** Subscribe to catalogue changes; returns the unsubscribe function. */
  onCatalogChanged?(listener: (change: CatalogChangeNotice) => void): () => void;
}

export interface McpServerOptions {
  /** Resolves once the catalogue is loaded; tools/list answers before that, tool calls wait. */
  readonly context: () => Promise<SessionContext> | SessionContext;
  readonly tools?: readonly ToolDefinition[];
  readonly hooks?: McpHooks;
}

export function toCallToolResult(result: ToolResult): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
  for (const image of result.images ?? []) content.push({ type: 'image', data: image.data, mimeType: image.mimeType });
  const out: CallToolResult = { content };
  if (result.structured !== undefined && !result.isError) out.structuredContent = result.structured;
  if (result.isError) out.isError = true;
  return out;
}

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Send this request?' } },
  required: ['confirm'],
};

/** `Invalid arguments for search: query must be a text, e.g. "create issue"`, one problem per line. */
function describeInputError(tool: ToolDefinition, issues: readonly z.core.$ZodIssue[]): string {
  const problems = issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; ${tool.name} takes ${Object.keys(tool.inputShape).join(', ')}`;
    }
    const where = issue.path.map(String).join('.');
    return where && !issue.message.startsWith(where) ? `${where}: ${issue.message}` : issue.message;
  });
  return `Invalid arguments for ${tool.name}: ${problems.join('; ')}`;
}

/** A fresh McpServer with every tool registered. Call once per connection/session. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {}, logging: {} }, instructions: INSTRUCTIONS });
  const hooks = options.hooks ?? {};
  watchSession(server, hooks);

  // MCP elicitation, when the connected client declared it can show a form; otherwise no confirm,
  // and invoke applies its policy for writes that need one.
  const confirm = async (message: string): Promise<boolean> => {
    const answer = await server.server.elicitInput({ mode: 'form', message, requestedSchema: CONFIRM_SCHEMA });
    return answer.action === 'accept' && answer.content?.['confirm'] === true;
  };

  const tools = options.tools ?? TOOLS;
  const run = async (tool: ToolDefinition, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> => {
    const base = await options.context();
    const canAsk = server.server.getClientCapabilities()?.elicitation?.form !== undefined;
    const ctx: ToolContext = { ...base, signal, ...(canAsk ? { confirm } : {}) };
    const started = performance.now();
    const result = await runTool(tool, args, ctx);
    hooks.toolCall?.(tool.name, performance.now() - started, !result.isError);
    return toCallToolResult(result);
  };

  // registerTool keeps McpServer's bookkeeping (capabilities, enable/disable); tools/list and
  // tools/call are answered by our own handlers below.
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.annotations.title,
        description: tool.description,
        inputSchema: tool.inputShape,
        ...(tool.outputShape ? { outputSchema: tool.outputShape } : {}),
        annotations: tool.annotations,
      },
      async (args: Record<string, unknown>, extra) => run(tool, args, extra.signal),
    );
  }

  // tools/call is ours: an unknown tool is the JSON-RPC error -32602 the spec asks for (McpServer
  // answers it as a tool result), and bad arguments are tool errors (isError) in plain words,
  // so the model can correct its next call.
  const byName = new Map(tools.map((t) => [t.name, { tool: t, input: z.strictObject(t.inputShape) }]));
  // Generated once per tool array (describeTools caches it); the stdio front's cached early
  // answers are this very list, as an earlier run of the same build answered it.
  const listed = describeTools(tools);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = byName.get(request.params.name);
    if (!entry) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}"; the tools are ${[...byName.keys()].join(', ')}`);
    }
    const parsed = entry.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      return toCallToolResult({ isError: true, text: describeInputError(entry.tool, parsed.error.issues) });
    }
    return run(entry.tool, parsed.data as Record<string, unknown>, extra.signal);
  });
  return server;
}

/**
 * Session counting and catalogue-change notices for one session. After `svc update` changed
 * something, the client gets a notifications/message log line. No list_changed is sent: the
 * tool list (names, descriptions, schemas) does not depend on the catalogue, and this server
 * lists no resources or prompts; what changed is reached through the tools themselves.
 */
function watchSession(server: McpServer, hooks: McpHooks): void {
  let open = false;
  let unsubscribe: (() => void) | undefined;
  server.server.oninitialized = () => {
    if (open) return;
    open = true;
    hooks.sessionOpened?.();
    unsubscribe = hooks.onCatalogChanged?.((change) => {
      if (!server.isConnected()) return;
      void server.sendLoggingMessage({ level: 'info', logger: 'svc', data: change.message }).catch(() => {});
    });
  };
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    previousOnClose?.();
    unsubscribe?.();
    unsubscribe = undefined;
    if (open) hooks.sessionClosed?.();
    open = false;
  };
}
