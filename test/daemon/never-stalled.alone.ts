// Run alone (`test/**/*.alone.ts`, after the rest of `npm test`): its bounds on waiting hold for a
// daemon that has the machine to itself, not one sharing two cores with another test file.
// Never stalled: while `svc update` re-imports a description of more than 30 MB (a real one,
// Kubernetes', repeated under distinct paths), an MCP client keeps searching over HTTP and a
// control client keeps asking for status over the IPC socket. The import runs in the worker
// thread and what is left of it on the main thread runs in short steps, so no call waits long,
// every status answers and shows the update, and five updates started at once all succeed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request } from '../../src/ipc/client.ts';
import type { StatusResult, UpdateResult } from '../../src/ipc/protocol.ts';
import { CORPUS } from '../search/harness.ts';
import { project, startDaemon } from './support.ts';

const SOURCE = path.join(CORPUS, 'swagger-2.0/kubernetes/swagger.json');
const MIN_BYTES = 30 * 1024 * 1024;
/** The most any call may wait (the daemon aims at 50 ms of blocking at most; the rest is a busy machine). */
const MAX_WAIT_MS = 250;
/**
 * The most CPU time the daemon's main thread may spend between two turns of its event loop while
 * the update runs: what is left on that thread (decoding the worker's result, preparing it in
 * steps, loading its index, the swap, the diff) runs in steps. CPU time, not the clock's: a
 * busy machine makes the thread wait for a core, which no change of the daemon's can help, but
 * does not stretch its work. A step that decodes, prepares or loads a 20,000-endpoint spec whole
 * takes 100-150 ms of CPU time.
 */
const MAX_CPU_STEP_MS = 50;

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

test('svc update of a 30 MB description never stalls search or status; five updates at once all succeed', { skip: existsSync(SOURCE) ? false : `${SOURCE} is missing (the shared corpus)` }, async (t) => {
  // The machine's load before this test adds its own (see `overloaded` below).
  const loadBefore = loadavg()[0]!;
  const p = project();
  p.write('specs/big.json', bigDescription('Big v1'));
  p.write('specs/small.yaml', 'openapi: 3.0.3\ninfo: {title: Small, version: "1"}\npaths:\n  /pods:\n    get:\n      summary: List pods\n      responses: {"200": {description: OK}}\n');
  p.config(['specs/big.json', 'specs/small.yaml']);
  const d = await startDaemon(p, ['--transport', 'http', '--port', '0'], {}, 240_000);
  const url = /serving MCP on (\S+\/mcp)/.exec(d.stderr())?.[1];
  assert.ok(url, d.stderr());
  // HTTP wants the token svc made; status says which file holds it.
  const { auth } = (await request(d.socket, 'status')) as StatusResult;
  const tokenFile = /the token in (\S+)/.exec(auth ?? '')?.[1];
  assert.ok(tokenFile, `status names the token file: ${auth}`);
  const token = readFileSync(tokenFile, 'utf8').trim();
  const client = new Client({ name: 'never-stalled', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
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
    // Each loop pauses 10 ms between calls: a wait longer than MAX_WAIT_MS still catches several
    // calls, while two loops calling back to back would take a core from the update they watch
    // (about 2,000 searches, 4 s of CPU time, in ten seconds on two cores).
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
        await sleep(10);
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
        await sleep(10);
      }
    };
    const loops = [searchLoop(), statusLoop()];
    // Five updates at once, sent as `svc update` sends them (five CLI processes starting together
    // would mostly measure process start-up on a two-core machine; the CLI's own path is tested elsewhere).
    const updates = await Promise.all(Array.from({ length: 5 }, () => request(d.socket, 'update', {}, { timeoutMs: 300_000 }) as Promise<UpdateResult>));
    stop = true;
    await Promise.all(loops);

    for (const u of updates) assert.equal(u.ok, true, JSON.stringify(u));
    // Requests that came in while one ran share a run: at most two runs for five requests.
    assert.ok(new Set(updates.map((u) => u.startedAt)).size <= 2, 'the updates joined');
    assert.deepEqual(failures, []);
    assert.ok(sawUpdating > 0, 'status showed the update in progress');
    const worst = (xs: number[]) => Math.round(Math.max(...xs));
    assert.ok(searches.length > 5 && statuses.length > 5, `calls made: ${searches.length} searches, ${statuses.length} statuses`);
    const after = (await request(d.socket, 'status')) as StatusResult;
    const loop = after.eventLoop!;
    const during = loop.updates;
    assert.ok(during, 'status shows the event loop while the update ran');
    const seen = `daemon event loop delay p99 ${loop.p99Ms} ms, max ${loop.maxMs} ms; while updating p99 ${during.p99Ms} ms, max ${during.maxMs} ms, at most ${during.maxCpuMs} ms of CPU time between two turns`;
    t.diagnostic(seen);
    assert.ok(during.maxCpuMs <= MAX_CPU_STEP_MS, seen);
    const waits = `slowest search ${worst(searches)} ms of ${searches.length}, slowest status ${worst(statuses)} ms of ${statuses.length}; ${seen}`;
    // Waits are wall time: on a machine whose run queue is several times its cores, a few
    // milliseconds of work can wait hundreds for a core, whatever the daemon does. There the
    // figures are reported, not held to the bound; everything else above still holds.
    // Overloaded means by others: the load was high before this test began and still is at its
    // end. The end figure alone would count this test's own threads (the worker parsing, both
    // loops, the daemon), which must not excuse an idle machine from the bound.
    const loadAfter = loadavg()[0]!;
    const overloaded = Math.min(loadBefore, loadAfter) > 2 * availableParallelism();
    if (overloaded) t.diagnostic(`machine overloaded (load ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${availableParallelism()} cores): ${waits}`);
    else {
      assert.ok(worst(searches) <= MAX_WAIT_MS, waits);
      assert.ok(worst(statuses) <= MAX_WAIT_MS, waits);
    }
    assert.equal(after.specs.find((s) => s.name === 'big')?.title, 'Big v2');
  } finally {
    await client.close();
    await d.stop();
    p.cleanup();
  }
});

/** An svc.yaml of about 1.3 MB: the parse of 40,000 allowed origins takes hundreds of ms of a thread. */
function bigConfigHead(): string {
  const origins = Array.from({ length: 40_000 }, (_, i) => `    - http://h${i}.example:8080\n`).join('');
  return `serve:\n  allowedOrigins:\n${origins}`;
}

test('svc update reads a large svc.yaml without holding the daemon\'s thread, and serves what it says', async (t) => {
  const p = project();
  const pets = 'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths:\n  /pets:\n    get:\n      summary: List pets\n      responses: {"200": {description: OK}}\n';
  p.write('specs/pets.yaml', pets);
  p.write('specs/owners.yaml', pets.replace('Pets', 'Owners').replace('/pets', '/owners').replace('List pets', 'List owners'));
  p.config(['specs/pets.yaml'], bigConfigHead());
  const d = await startDaemon(p, [], {}, 60_000);
  try {
    // The catalogue is served; the update adds a spec that only the new svc.yaml names.
    p.config(['specs/pets.yaml', 'specs/owners.yaml'], bigConfigHead());
    const update = (await request(d.socket, 'update', {}, { timeoutMs: 120_000 })) as UpdateResult;
    assert.equal(update.ok, true, JSON.stringify(update).slice(0, 2000));
    const status = (await request(d.socket, 'status')) as StatusResult;
    assert.deepEqual(status.specs.map((s) => s.name).sort(), ['owners', 'pets']);
    const during = status.eventLoop?.updates;
    assert.ok(during, 'status shows the event loop while the update ran');
    t.diagnostic(`while updating: at most ${during.maxCpuMs} ms of CPU time between two turns`);
    assert.ok(during.maxCpuMs <= MAX_CPU_STEP_MS, `the daemon's thread held ${during.maxCpuMs} ms of CPU time in one turn while the update read svc.yaml`);
  } finally {
    await d.stop();
    p.cleanup();
  }
});
