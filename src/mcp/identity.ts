// The server's name and version as MCP clients see them (initialize's serverInfo). Kept apart from
// server.ts so the stdio front answers initialize without loading the SDK (before the SDK is loaded).
import { readFileSync } from 'node:fs';

export const SERVER_NAME = 'svc';

export const SERVER_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
