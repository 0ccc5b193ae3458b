// The floor under a cold start (bench/startup.bench.ts): the least an MCP server can do to answer a
// first search over a description it has never seen, under the issue's own rules (the import off
// the main thread, MiniSearch as the index), and nothing else: no catalogue, no snapshot, no
// inspect or invoke, no compile cache, one tool. Its main thread starts one worker and serves MCP
// over stdio with the SDK's low-level server; the worker reads the file and runs floor-index.mjs
// over it; a `search` call waits for the index and answers the worker's five best matches.
//
//   node bench/floor.mjs <description.json> [--lean]
//
// --lean gives the worker a young generation of 8 MB, as svc's import worker has: less memory at
// the price of more collections. The bench reads the time floor from a plain run and the memory
// floor from a lean one.
import { readFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

if (isMainThread) {
  const [file, lean] = process.argv.slice(2);
  if (!file || (lean !== undefined && lean !== '--lean')) {
    process.stderr.write('usage: node bench/floor.mjs <description.json> [--lean]\n');
    process.exit(2);
  }
  const worker = new Worker(new URL(import.meta.url), { workerData: file, ...(lean ? { resourceLimits: { maxYoungGenerationSizeMb: 8 } } : {}) });
  worker.once('error', (error) => {
    process.stderr.write(`floor: ${error.message}\n`);
    process.exit(1);
  });
  const answers = new Map();
  let next = 0;
  worker.on('message', ({ id, hits }) => answers.get(id)?.(hits));
  const search = (query) =>
    new Promise((resolve) => {
      const id = next++;
      answers.set(id, resolve);
      worker.postMessage({ id, query });
    });
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'search', description: 'Full-text search', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: (await search(String(request.params.arguments?.query ?? ''))).join('\n') }],
  }));
  await server.connect(new StdioServerTransport());
} else {
  const { buildIndex } = await import('./floor-index.mjs');
  const { index, docs } = buildIndex(readFileSync(workerData, 'utf8'));
  parentPort.on('message', ({ id, query }) => {
    const hits = index.search(query, { prefix: true }).slice(0, 5).map((hit) => `${docs[hit.id].method} ${docs[hit.id].path} ${docs[hit.id].summary}`);
    parentPort.postMessage({ id, hits });
  });
}
