// svc's version (package.json), part of every snapshot's key and of `svc status`: the version the
// MCP server names itself by (mcp/identity.ts, as light a module). Its own module so that the
// start's first move (start-early.ts) need not load the daemon's services to know it.
export { SERVER_VERSION as SVC_VERSION } from '../mcp/identity.ts';
