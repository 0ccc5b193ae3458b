// Never stalled: while `svc update` re-imports a description of more than 30 MB (a real one,
// Kubernetes', repeated under distinct paths), an MCP client keeps searching over HTTP and a
// control client keeps asking for status over the IPC socket. The import runs in the worker
// thread, so no call waits long, every status answers and shows the update, and five updates
// started at once all succeed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request } from '../../src/ipc/client.ts';
import type { StatusResult, UpdateResult } from '../../src/ipc/protocol.ts';
import { CORPUS } from '../search/harness.ts';
import { project, startDaemon, svc } from './support.ts';

const SOURCE = path.join(CORPUS, 'swagger-2.0/kubernetes/swagger.json');
const MIN_BYTES = 30 * 1024 * 1024;
/** The most any call may wait (the daemon aims at 50 ms of blocking at most; the rest is a busy machine). */
const MAX_WAIT_MS = 250;

/** Kubernetes' description with its paths repeated under `/copyN` until the text passes 30 MB. */
function bigDescription(title: string): string {
  const doc = JSON.parse(readFileSync(SOURCE, 'utf8')) as { info: { title: string }; paths: Record<string, unknown> };
  const paths: Record<string, unknown> = {};
  const copies = Math.ceil(MIN_BYTES / Buffer.byteLength(JSON.stringify(doc.paths))) + 1;
  for (let k = 0; k < copies; k++) for (const [p, item] of Object.entries(doc.paths)) paths[`/copy${k}${p}`] = item;
  const text = JSON.stringify({ ...doc, info: { ...doc.info, title }, paths });
  assert.ok(text.length >= MIN_BYTES, `generated ${text.length} bytes`);
  return text;
}

test('svc update of a 30 MB description never stalls search or status; five updates at once all succeed', { skip: existsSync(SOURCE) ? false : `${SOURCE} is missing (the shared corpus)` }, async () => {
  const p = project();
  p.write('specs/big.json', bigDescription('Big v1'));
  p.write('specs/small.yaml', 'openapi: 3.0.3\ninfo: {title: Small, version: "1"}\npaths:\n  /pods:\n    get:\n      summary: List pods\n      responses: {"200": {description: OK}}\n');
  p.config(['specs/big.json', 'specs/small.yaml']);
  const d = await startDaemon(p, ['--transport', 'sse', '--port', '0'], {}, 240_000);
  const url = /serving MCP on (\S+\/mcp)/.exec(d.stderr())?.[1];
  assert.ok(url, d.stderr());
  const client = new Client({ name: 'never-stalled', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    // Warm-up: the first search loads the index (that is start-up, not an update).
    await client.callTool({ name: 'search', arguments: { query: 'list pods' } });
    await request(d.socket, 'status');

    p.write('specs/big.json', bigDescription('Big v2'));
    let stop = false;
    const searches: number[] = [];
    const statuses: number[] = [];
    const failures: string[] = [];
    let sawUpdating = 0;
    const searchLoop = async () => {
      while (!stop) {
        const t0 = performance.now();
        try {
          const r = (await client.callTool({ name: 'search', arguments: { query: 'read namespaced pod log' } })) as CallToolResult;
          if (r.isError) failures.push(`search: ${JSON.stringify(r.content)}`);
        } catch (error) {
          failures.push(`search: ${String(error)}`);
        }
        searches.push(performance.now() - t0);
      }
    };
    const statusLoop = async () => {
      while (!stop) {
        const t0 = performance.now();
        try {
          const s = (await request(d.socket, 'status', {}, { timeoutMs: 10_000 })) as StatusResult;
          if (s.updating) sawUpdating++;
        } catch (error) {
          failures.push(`status: ${String(error)}`);
        }
        statuses.push(performance.now() - t0);
      }
    };
    const loops = [searchLoop(), statusLoop()];
    const updates = await Promise.all(Array.from({ length: 5 }, () => svc(p, ['update', '--json'])));
    stop = true;
    await Promise.all(loops);

    for (const u of updates) {
      assert.equal(u.code, 0, `${u.stdout}\n${u.stderr}`);
      const result = (JSON.parse(u.stdout) as { daemons: { result: UpdateResult }[] }).daemons[0]!.result;
      assert.equal(result.ok, true);
    }
    assert.deepEqual(failures, []);
    assert.ok(sawUpdating > 0, 'status showed the update in progress');
    const worst = (xs: number[]) => Math.round(Math.max(...xs));
    assert.ok(searches.length > 5 && statuses.length > 5, `calls made: ${searches.length} searches, ${statuses.length} statuses`);
    assert.ok(worst(searches) <= MAX_WAIT_MS, `slowest search ${worst(searches)} ms of ${searches.length}`);
    assert.ok(worst(statuses) <= MAX_WAIT_MS, `slowest status ${worst(statuses)} ms of ${statuses.length}`);
    const after = (await request(d.socket, 'status')) as StatusResult;
    assert.equal(after.specs.find((s) => s.name === 'big')?.title, 'Big v2');
  } finally {
    await client.close();
    await d.stop();
    p.cleanup();
  }
});
