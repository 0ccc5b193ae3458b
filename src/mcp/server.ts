// The only bridge between our tools (src/tools) and the MCP SDK: one SDK Server per connection
// (2025-11-25 era: per session) or per request (2026-07-28 era over HTTP), every tool answered by
// our own tools/list and tools/call handlers. Everything protocol-revision specific stays in this folder.
// First: zod's settings, before the SDK's modules build their schemas.
import './zod-config.ts';
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { INSTRUCTIONS, TOOLS, runTool } from '../tools/index.ts';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types.ts';
import { clientCanConfirm, confirmationRound } from './confirm.ts';
import { SERVER_NAME, SERVER_VERSION } from './identity.ts';
import { listedTools } from './tool-list.ts';

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
  /** The context a tool call runs in; `readsDetail`: the tool follows schema links (ToolDefinition). */
  readonly context: (call: { readonly readsDetail: boolean }) => Promise<SessionContext> | SessionContext;
  readonly tools?: readonly ToolDefinition[];
  readonly hooks?: McpHooks;
}

/**
 * The tool list is fixed for a build (names, descriptions, schemas do not depend on the catalogue),
 * and the catalogue behind the tools changes only on `svc update`, after which every client is
 * told (list_changed). So 2026-07-28 clients may keep the list an hour, and share it: it is the
 * same for every caller.
 */
export const TOOL_LIST_CACHE = { ttlMs: 60 * 60 * 1000, cacheScope: 'public' } as const;

export function toCallToolResult(result: ToolResult): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
  for (const image of result.images ?? []) content.push({ type: 'image', data: image.data, mimeType: image.mimeType });
  const out: CallToolResult = { content };
  if (result.structured !== undefined && !result.isError) out.structuredContent = result.structured;
  if (result.isError) out.isError = true;
  return out;
}

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

/**
 * Each tool's argument schema, made on its first call and kept for the process: a client calls a
 * few of the tools, a stdio start makes its server before the first answer, and a 2026-07-28
 * request over HTTP gets a server of its own.
 */
const INPUTS = new WeakMap<ToolDefinition, z.ZodObject>();

function inputSchema(tool: ToolDefinition): z.ZodObject {
  let schema = INPUTS.get(tool);
  // Stryker disable next-line ConditionalExpression: speed only (a schema made again from the same shape parses alike)
  if (!schema) INPUTS.set(tool, (schema = z.strictObject(tool.inputShape)));
  return schema;
}

export interface CreateServerOptions {
  /**
   * The instance serves one connection for its whole life (stdio, a 2025-era HTTP session, SSE):
   * it counts as a session and tells its client about catalogue changes. Per-request instances
   * (2026-07-28 over HTTP) do neither; their HTTP front publishes changes to listeners instead.
   */
  readonly connection?: boolean;
}

/** A fresh SDK Server with every tool. Call once per connection (or per stateless request). */
export function createMcpServer(options: McpServerOptions, create: CreateServerOptions = {}): Server {
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: INSTRUCTIONS,
      cacheHints: { 'tools/list': TOOL_LIST_CACHE, 'server/discover': TOOL_LIST_CACHE },
    },
  );
  const hooks = options.hooks ?? {};
  if (create.connection) watchConnection(server, hooks);

  const tools = options.tools ?? TOOLS;
  const byName = new Map(tools.map((t) => [t.name, t]));
  // Generated once per tool array (describeTools caches it), or at build time for the built-in tools.
  const listed = listedTools(tools, TOOLS);
  server.setRequestHandler('tools/list', () => ({ tools: listed }));

  // An unknown tool is the JSON-RPC error -32602 the spec asks for, and bad arguments are tool
  // errors (isError) in plain words, so the model can correct its next call.
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${request.params.name}"; the tools are ${[...byName.keys()].join(', ')}`);
    }
    const parsed = inputSchema(tool).safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      return toCallToolResult({ isError: true, text: describeInputError(tool, parsed.error.issues) });
    }
    const base = await options.context({ readsDetail: tool.readsDetail === true });
    const round = clientCanConfirm(server, ctx) ? confirmationRound(ctx) : undefined;
    const toolCtx: ToolContext = { ...base, signal: ctx.mcpReq.signal, ...(round ? { confirm: round.confirm } : {}) };
    const started = performance.now();
    const result = await runTool(tool, parsed.data as Record<string, unknown>, toolCtx);
    // The tool asked the person to confirm: nothing was sent; ask through the client, then run again.
    const ask = round?.pending();
    if (ask) return ask;
    hooks.toolCall?.(tool.name, performance.now() - started, !result.isError);
    return toCallToolResult(result);
  });
  return server;
}

/**
 * Session counting and catalogue-change notices for an instance that lives as long as its
 * connection. After `svc update` changed something the client gets tools/list_changed (the tool
 * list itself is fixed, but what the tools answer changed: a client that caches results or the
 * list learns to refresh) and, on the 2025 era, a notifications/message line saying what changed.
 * On stdio's 2026-07-28 era the SDK routes list_changed onto the client's subscriptions/listen.
 */
function watchConnection(server: Server, hooks: McpHooks): void {
  let open = true;
  hooks.sessionOpened?.();
  const unsubscribe = hooks.onCatalogChanged?.((change) => {
    if (!open || server.transport === undefined) return;
    void server.sendToolListChanged().catch(() => {});
    if (server.getClientCapabilities() !== undefined) {
      void server.sendLoggingMessage({ level: 'info', logger: 'svc', data: change.message }).catch(() => {});
    }
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    previousOnClose?.();
    if (!open) return;
    open = false;
    unsubscribe?.();
    hooks.sessionClosed?.();
  };
}

export type { ServerContext };
