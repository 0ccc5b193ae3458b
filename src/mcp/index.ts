// The MCP front end: everything that touches @modelcontextprotocol/sdk lives in this folder.
export { createMcpServer, toCallToolResult, SERVER_NAME, SERVER_VERSION, type McpServerOptions, type SessionContext } from './server.ts';
export { serveStdio, type StdioHandle, type StdioOptions } from './stdio.ts';
export { startHttp, MCP_PATH, SSE_PATH, MESSAGES_PATH, type HttpHandle, type HttpOptions } from './http.ts';
