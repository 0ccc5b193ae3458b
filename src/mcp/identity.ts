// The server's name and version as MCP clients see them (initialize's serverInfo). Kept apart from
// server.ts so the stdio front answers initialize without loading the SDK (before the SDK is loaded).
import { readFileSync } from 'node:fs';

export const SERVER_NAME = 'svc';

/** The version a package.json names; 0.0.0 when the file is missing, is not JSON or names none. */
export function packageVersion(file: URL): string {
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const SERVER_VERSION: string = packageVersion(new URL('../../package.json', import.meta.url));
