// The command table. Adding a command = one entry here + its own module exporting `run(ctx)`.
// `load` is a dynamic import: `svc update` / `svc status` must never load the MCP SDK,
// the catalogue or the importers, so nothing heavy may be imported statically from this file.
import type { CommandEntry } from './types.ts';

export const COMMANDS: readonly CommandEntry[] = [
  {
    usage: 'check [...files]',
    describe: 'Import the specs offline (no daemon) and report formats, counts, warnings and errors',
    options: [['--json', 'Print one JSON object instead of text']],
    examples: ['svc check', 'svc check specs/petstore.yaml --json'],
    load: () => import('./check.ts'),
  },
  {
    usage: 'serve [...files]',
    describe: 'Serve the specs to an LLM over MCP (stdio, or HTTP with --transport sse)',
    options: [
      ['--transport <transport>', 'stdio or sse (HTTP: Streamable HTTP at /mcp and legacy SSE at /sse)'],
      ['--host <host>', 'HTTP address to bind (default 127.0.0.1; others need serve.tokenEnv)'],
      ['--port <port>', 'HTTP port (default 7331; 0 picks a free one)'],
    ],
    examples: ['svc serve', 'svc serve --transport sse --port 0', 'svc serve specs/petstore.yaml'],
    load: () => import('./serve.ts'),
  },
];
