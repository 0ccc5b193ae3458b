// One spawn -> first answer of a stdio MCP server, as a whole process to time from outside (e.g.
// `farm-bench --vs`, which pairs two commands run in turn and reports their CPU time and ratio,
// figures a busy machine moves less than wall times):
//   node bench/first-answer.ts TOOL ARGS_JSON COMMAND [ARG ...]
// spawns COMMAND, connects the SDK client over stdio, calls TOOL with ARGS_JSON, prints
// `first answer <ms> ms` (spawn -> answer, as the client sees it), and exits 0 when the tool
// answered without an error (1 otherwise, with the reason on stderr) once the server has exited.
// The client's own start-up, and the server's shutdown, are in every run's process times alike, so
// a ratio of two such commands' times understates the servers' ratio; the printed time has neither.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const [tool, argsJson, command, ...args] = process.argv.slice(2);
if (!tool || !argsJson || !command) {
  process.stderr.write('usage: node bench/first-answer.ts TOOL ARGS_JSON COMMAND [ARG ...]\n');
  process.exit(2);
}
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
const client = new Client({ name: 'svc-first-answer', version: '1' });
const started = performance.now();
try {
  await client.connect(transport);
  const result = (await client.callTool({ name: tool, arguments: JSON.parse(argsJson) as Record<string, unknown> })) as CallToolResult;
  if (result.isError) throw new Error(`${tool} answered with an error: ${JSON.stringify(result.content).slice(0, 300)}`);
  process.stdout.write(`first answer ${Math.round(performance.now() - started)} ms\n`);
} catch (error) {
  process.stderr.write(`first-answer: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await client.close();
}
