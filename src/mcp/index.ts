// The MCP front end: everything that touches the MCP SDK packages lives in this folder.
export { createMcpServer, toCallToolResult, SERVER_NAME, SERVER_VERSION, TOOL_LIST_CACHE, type McpServerOptions, type SessionContext } from './server.ts';
export { serveStdio, type StdioHandle, type StdioOptions } from './stdio.ts';
export { startHttp, MCP_PATH, SSE_PATH, MESSAGES_PATH, HEALTH_PATH, READY_PATH, type HttpHandle, type HttpOptions } from './http.ts';
export { describeAuth, ensureTokenFile, resolveHttpAuth, stateDir, type HttpAuth } from './token.ts';
