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
    describe: 'Serve the specs to an LLM over MCP (stdio, or HTTP with --transport http)',
    options: [
      ['--transport <transport>', 'stdio or http (Streamable HTTP at /mcp, legacy SSE at /sse; sse is an older name of http)'],
      ['--host <host>', 'HTTP address to bind (default 127.0.0.1; others need serve.tokenEnv)'],
      ['--port <port>', 'HTTP port (default 7331; 0 picks a free one)'],
      ['--socket <path>', 'IPC socket for svc update/status (default: $SVC_CONFIG-derived private folder; also $SVC_SOCKET)'],
    ],
    examples: ['svc serve', 'svc serve --transport http --port 0', 'svc serve specs/petstore.yaml'],
    load: () => import('./serve.ts'),
  },
  {
    usage: 'update',
    describe: 'Re-read svc.yaml and the spec files in every running daemon; re-import what changed',
    options: [
      ['--json', 'Print one JSON object instead of text'],
      ['--socket <path>', 'Talk to the daemon on this socket (also $SVC_SOCKET)'],
    ],
    examples: ['svc update', 'svc update --config ~/apis/svc.yaml --json'],
    load: () => import('./update.ts'),
  },
  {
    usage: 'status',
    describe: 'Show every running daemon: specs, pending changes, sessions, tool-call latency, memory',
    options: [
      ['--json', 'Print one JSON object instead of text'],
      ['--socket <path>', 'Talk to the daemon on this socket (also $SVC_SOCKET)'],
    ],
    examples: ['svc status', 'svc status --json'],
    load: () => import('./status.ts'),
  },
  {
    usage: 'search <...query>',
    describe: 'Search the running daemon\'s endpoints (the search tool)',
    options: [
      ['--spec <name>', 'Only this spec'],
      ['--collection <name>', 'Only this collection'],
      ['--tag <tag>', 'Only this tag'],
      ['--method <method>', 'Only this HTTP method'],
      ['--limit <n>', 'At most this many results'],
      ['--json', 'Print the structured result as JSON'],
      ['--socket <path>', 'Talk to the daemon on this socket (also $SVC_SOCKET)'],
    ],
    examples: ['svc search create issue', 'svc search pets --spec petstore --limit 5'],
    load: () => import('./search.ts'),
  },
  {
    usage: 'inspect <id>',
    describe: 'Show one endpoint of the running daemon (the inspect tool)',
    options: [
      ['--depth <n>', 'Levels of body and response fields to show (1-6; default: body 3, response 1)'],
      ['--socket <path>', 'Talk to the daemon on this socket (also $SVC_SOCKET)'],
    ],
    examples: ["svc inspect 'petstore:GET:/pets/{petId}'", "svc inspect 'petstore:GET:/pets' --depth 3"],
    load: () => import('./inspect.ts'),
  },
  {
    usage: 'list',
    describe: 'Browse the running daemon\'s endpoints by spec, tag or collection',
    options: [
      ['--spec <name>', 'Endpoints of this spec (without filters: the specs)'],
      ['--tag <tag>', 'Endpoints with this tag'],
      ['--collection <name>', 'Endpoints of this collection'],
      ['--cursor <cursor>', 'nextCursor of the previous page'],
      ['--limit <n>', 'Page size'],
      ['--json', 'Print the structured result as JSON'],
      ['--socket <path>', 'Talk to the daemon on this socket (also $SVC_SOCKET)'],
    ],
    examples: ['svc list', 'svc list --spec github --tag issues'],
    load: () => import('./list.ts'),
  },
];
