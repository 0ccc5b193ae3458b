// The MCP front end on GitHub's REST description: how soon a spawned `svc serve --transport stdio`
// answers (warm start: compile cache filled by an earlier start; cold start:
// empty cache folder), round trips of the read tools over stdio, the server's peak RSS, and what the LLM pays
// in tokens (tools/list, a listing line, inspect of large endpoints against the raw dereferenced
// operation). The JSON.parse time of the same file, measured in the same run, is the yardstick.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from 'gpt-tokenizer';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpec } from '../src/import/index.ts';
import { OCTOKIT_OPENAPI, githubDescription } from './import.bench.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SVC = path.join(REPO, 'bin', 'svc.js');
const ROUND_TRIPS = 200;
/** Spawns per start-up measure (warm, cold, compile cache only); the median is reported. */
const START_SAMPLES = 5;
const SPEC = 'github';

/** Large real operations: inspect must stay well under the raw dereferenced schema of each. */
const LARGE: readonly [method: string, path: string][] = [
  ['POST', '/repos/{owner}/{repo}/issues'],
  ['PUT', '/repos/{owner}/{repo}/branches/{branch}/protection'],
  ['POST', '/repos/{owner}/{repo}/pulls'],
  ['PATCH', '/repos/{owner}/{repo}'],
];

const QUERIES = [
  'create issue',
  'list pull requests',
  'branch protection',
  'delete repository',
  'add label to issue',
  'workflow runs',
  'create gist',
  'list commits',
  'user followers',
  'merge pull request',
];

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

function median(xs: number[]): number {
  return percentile(xs, 50);
}

const ms = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const text = (r: unknown): string => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** Peak resident set of a process (Linux VmHWM), in MB. */
function peakRssMb(pid: number | null | undefined): string {
  if (!pid) return 'n/a';
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? `${(kb / 1024).toFixed(0)} MB` : 'n/a';
  } catch {
    return 'n/a';
  }
}

/** A spawned `svc serve --transport stdio` with its caches in `cacheHome`, and how long spawn -> tools/list answer took. */
async function startServer(config: string, cacheHome: string): Promise<{ client: Client; transport: StdioClientTransport; toolsListMs: number; tools: unknown[]; stderr: () => string }> {
  const env: Record<string, string> = {};
  // NODE_COMPILE_CACHE would move the compile cache out of cacheHome.
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_COMPILE_CACHE') env[k] = v;
  const spawnedAt = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(process.features?.typescript ? [] : ['--import', 'tsx']), SVC, 'serve', '--config', config, '--transport', 'stdio'],
    env: { ...env, XDG_CACHE_HOME: cacheHome },
    stderr: 'pipe',
    cwd: REPO,
  });
  let stderr = '';
  (transport.stderr as Readable | null)?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const client = new Client({ name: 'svc-bench', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { client, transport, toolsListMs: performance.now() - spawnedAt, tools, stderr: () => stderr };
}

/**
 * spawn -> first tools/list answer, START_SAMPLES times each, interleaved: warm (compile cache
 * filled by one earlier start) and cold (a new empty cache folder each time).
 */
async function startUpTimes(config: string, warmHome: string): Promise<{ warm: number[]; cold: number[] }> {
  const once = async (home: string): Promise<number> => {
    const { client, toolsListMs } = await startServer(config, home);
    await client.close();
    return toolsListMs;
  };
  await once(warmHome); // fills the compile cache
  const out = { warm: [] as number[], cold: [] as number[] };
  for (let i = 0; i < START_SAMPLES; i++) {
    out.warm.push(await once(warmHome));
    const coldHome = mkdtempSync(path.join(tmpdir(), 'svc-mcp-bench-cold-'));
    out.cold.push(await once(coldHome));
    rmSync(coldHome, { recursive: true, force: true });
  }
  return out;
}

async function timeCalls(client: Client, calls: readonly { name: string; arguments: Record<string, unknown> }[]): Promise<number[]> {
  const out: number[] = [];
  for (const c of calls) {
    const t = performance.now();
    const r = (await client.callTool(c)) as CallToolResult;
    out.push(performance.now() - t);
    if (r.isError) throw new Error(`${c.name} ${JSON.stringify(c.arguments)} failed: ${text(r)}`);
  }
  return out;
}

export async function run(): Promise<string> {
  const file = githubDescription();
  if (!file) return '## MCP server (bench/mcp.bench.ts)\n\nNot measured: GitHub REST description unavailable (npm pack failed).';

  // Yardstick: JSON.parse of the same file (median of 5, read excluded).
  const raw = readFileSync(file, 'utf8');
  const parseMs: number[] = [];
  let doc: { paths: Record<string, Record<string, unknown>> } | undefined;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    doc = JSON.parse(raw) as typeof doc;
    parseMs.push(performance.now() - t);
  }

  // The spec is named `github` in svc.yaml, as a user would (the file stem would give `api-github-com`,
  // four more tokens on every listing line).
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-mcp-bench-'));
  const config = path.join(dir, 'svc.yaml');
  writeFileSync(config, `specs:\n  - path: ${JSON.stringify(file)}\n    name: ${SPEC}\n`);

  // Spawn -> first tools/list answer, warm and cold, in a cache folder of the bench's own.
  const cacheHome = mkdtempSync(path.join(tmpdir(), 'svc-mcp-bench-cache-'));
  const starts = await startUpTimes(config, cacheHome);

  // A warm start -> first tools/list answer -> first search answer (the catalogue is loaded by then).
  const spawnedAt = performance.now();
  const { client, transport, toolsListMs, tools } = await startServer(config, cacheHome);
  const first = await client.callTool({ name: 'search', arguments: { query: 'create issue' } });
  const firstSearchMs = performance.now() - spawnedAt;
  if ((first as CallToolResult).isError) throw new Error(`search failed: ${text(first)}`);

  const spec = SPEC;

  // The whole listing, page by page: every line, and the ids for inspect.
  const lines: string[] = [];
  const pages: string[] = [];
  let cursor: string | undefined;
  do {
    const page = (await client.callTool({ name: 'endpoint_by_spec', arguments: { spec, ...(cursor ? { cursor } : {}) } })) as CallToolResult;
    if (page.isError) throw new Error(`endpoint_by_spec failed: ${text(page)}`);
    lines.push(...text(page).split('\n').slice(1).filter((l) => !l.startsWith('more: ')));
    if (!cursor || pages.length < 8) pages.push(...(cursor ? [cursor] : []));
    cursor = (page.structuredContent as { nextCursor?: string }).nextCursor;
  } while (cursor);
  const ids = lines.map((l) => l.split(' - ')[0]!.replace(/ \[deprecated\]$/, ''));

  // Round trips over stdio.
  const pick = <T>(xs: readonly T[], i: number): T => xs[(i * 7919) % xs.length]!;
  const n = Array.from({ length: ROUND_TRIPS }, (_, i) => i);
  const latency = {
    search: await timeCalls(client, n.map((i) => ({ name: 'search', arguments: { query: pick(QUERIES, i) } }))),
    inspect: await timeCalls(client, n.map((i) => ({ name: 'inspect', arguments: { endpointId: pick(ids, i) } }))),
    endpoint_by_spec: await timeCalls(client, n.map((i) => ({ name: 'endpoint_by_spec', arguments: { spec, ...(i % 4 && pages.length ? { cursor: pick(pages, i) } : {}) } }))),
  };
  const peak = peakRssMb(transport.pid);

  // Tokens: what the model reads.
  const toolsListTokens = countTokens(JSON.stringify({ tools }));
  const instructionsTokens = countTokens(client.getInstructions() ?? '');
  const lineTokens = lines.map((l) => countTokens(l));
  const avgLine = lineTokens.reduce((a, b) => a + b, 0) / lineTokens.length;

  // Raw dereferenced operation (parameters, body, responses) with svc's own resolver, cycles marked.
  const imported = await importSpec(file, { name: spec, collection: 'default' });
  if (!imported.ok) throw new Error(`import failed: ${imported.errors[0]?.message}`);
  const inspectRows: string[] = [];
  for (const [method, p] of LARGE) {
    const op = doc!.paths[p]?.[method.toLowerCase()];
    if (!op) continue;
    const rawOp = JSON.stringify(imported.spec.schemas.resolve({ file, node: op }));
    const opNode = op as Record<string, unknown>;
    const requestOnly = JSON.stringify(imported.spec.schemas.resolve({ file, node: { parameters: opNode['parameters'], requestBody: opNode['requestBody'] } }));
    const inspected = text(await client.callTool({ name: 'inspect', arguments: { endpointId: `${spec}:${method}:${p}` } }));
    const t = countTokens(inspected);
    const full = countTokens(rawOp);
    const req = countTokens(requestOnly);
    inspectRows.push(`| ${method} ${p} | ${t} | ${full} | ${((100 * t) / full).toFixed(1)}% | ${req} | ${((100 * t) / req).toFixed(0)}% |`);
  }
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(cacheHome, { recursive: true, force: true });

  const size = statSync(file).size;
  return [
    '## MCP server (bench/mcp.bench.ts)',
    '',
    `GitHub REST description (@octokit/openapi ${OCTOKIT_OPENAPI}, ${(size / 1024 / 1024).toFixed(1)} MB, ${ids.length} endpoints), served by a spawned`,
    `\`svc serve --transport stdio\` (svc.yaml names the spec \`${SPEC}\`), reached with the SDK Client over stdio. Tokens: gpt-tokenizer, o200k_base.`,
    'Start-up: Node\'s compile cache lives in a temp XDG_CACHE_HOME of the bench\'s own.',
    '',
    '| Measure | Value |',
    '|---|---:|',
    `| JSON.parse of the same file (median of 5, same run) | ${ms(median(parseMs))} ms |`,
    `| spawn -> first tools/list answer, warm start: compile cache filled (median of ${START_SAMPLES}) | ${ms(median(starts.warm))} ms |`,
    `| spawn -> first tools/list answer, cold start: empty cache folder (median of ${START_SAMPLES}) | ${ms(median(starts.cold))} ms |`,
    `| spawn -> first tools/list answer, warm start of the session below | ${ms(toolsListMs)} ms |`,
    `| spawn -> first search answer, same session (catalogue loaded) | ${ms(firstSearchMs)} ms |`,
    `| peak RSS of the server (VmHWM, after all calls below) | ${peak} |`,
    `| machine load (1-minute average) when the run ended | ${loadavg()[0]!.toFixed(1)} |`,
    '',
    `Round trips over stdio, ${ROUND_TRIPS} calls each (varied queries, ids and pages):`,
    '',
    '| Tool | p50 | p99 |',
    '|---|---:|---:|',
    ...Object.entries(latency).map(([name, xs]) => `| ${name} | ${ms(percentile(xs, 50))} ms | ${ms(percentile(xs, 99))} ms |`),
    '',
    '| Tokens | Value | Target |',
    '|---|---:|---:|',
    `| tools/list result (7 tools, whole JSON) | ${toolsListTokens} | < 1,200 |`,
    `| server instructions | ${instructionsTokens} | |`,
    `| listing line, average over all ${lines.length} endpoints | ${avgLine.toFixed(1)} | < 25 |`,
    `| listing line, longest | ${Math.max(...lineTokens)} | |`,
    '',
    'inspect of large endpoints against the raw dereferenced operation (parameters, request body, responses;',
    'cycles cut by svc\'s resolver). The last two columns compare with the request part alone (parameters + body).',
    '',
    '| Endpoint | inspect tokens | raw operation tokens | inspect / raw | raw request tokens | inspect / request |',
    '|---|---:|---:|---:|---:|---:|',
    ...inspectRows,
  ].join('\n');
}
