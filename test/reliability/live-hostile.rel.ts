// Hostile files arriving at a live daemon through `svc update`: each configured spec starts as a
// good document; then, one at a time, its file is swapped for a hostile one and `update` runs.
// The daemon must report the error (or serve the new endpoints), keep the last good version of a
// failed spec in service, keep every other spec, and keep answering status and MCP calls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeHostileCorpus, type HostileCase } from './hostile/generate.ts';
import { startDaemon, type LiveDaemon } from './support/daemon.ts';
import { recordFigures, percentile, round } from './support/figures.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-live-'));
let canary: Server;
let canaryHits = 0;
let cases: HostileCase[] = [];
let daemon: LiveDaemon | undefined;
let client: Client | undefined;
let startError: string | undefined;
const rows: Record<string, string | number>[] = [];
const statusMs: number[] = [];

/** A good stand-in with the case's name in its only path, in the format its file name suggests. */
function goodDocument(c: HostileCase): string {
  const path = `/good/${c.name}`;
  if (c.name.startsWith('postman')) {
    return JSON.stringify({ info: { name: c.name, schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'good', request: { method: 'GET', url: `https://example.test${path}` } }] });
  }
  const doc = { openapi: '3.0.3', info: { title: c.name, version: '1' }, paths: { [path]: { get: { summary: `good ${c.name}`, responses: { '200': { description: 'OK' } } } } } };
  return c.file.endsWith('.json') ? JSON.stringify(doc) : `openapi: 3.0.3\ninfo: {title: ${c.name}, version: "1"}\npaths:\n  ${path}:\n    get:\n      summary: good ${c.name}\n      responses: {"200": {description: OK}}\n`;
}

before(async () => {
  canary = createServer((_req, res) => {
    canaryHits++;
    res.end('Secret: {type: string}\n');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  cases = writeHostileCorpus(join(dir, 'corpus'), { canaryUrl: `http://127.0.0.1:${(canary.address() as { port: number }).port}` });
  // Park every hostile file beside its place and put a good document there.
  for (const c of cases) {
    if (existsSync(c.file) || isSpecial(c.file)) renameSync(c.file, `${c.file}.hostile`);
    mkdirSync(dirname(c.file), { recursive: true });
    writeFileSync(c.file, goodDocument(c));
  }
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, `limits:\n  maxSpecBytes: 64MB\nspecs:\n${cases.map((c) => `  - path: ${JSON.stringify(c.file)}\n    name: ${c.name}\n`).join('')}`);
  try {
    daemon = await startDaemon({ config, cwd: dir, socket: join(dir, 'd.sock') });
    client = new Client({ name: 'reliability-live-hostile', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(daemon.mcpUrl), { requestInit: { headers: daemon.headers } }));
  } catch (error) {
    startError = (error as Error).message;
  }
});

function isSpecial(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

after(async () => {
  await client?.close().catch(() => {});
  await daemon?.stop();
  await new Promise<void>((resolve) => canary.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
  if (rows.length > 0) {
    recordFigures(
      'live-hostile (svc update on a live daemon)',
      {
        'hostile files delivered': rows.length,
        failures: rows.filter((r) => r['verdict'] !== 'pass').length,
        'update p50 / max ms': `${round(percentile(rows.map((r) => Number(r['update ms'])), 50))} / ${round(Math.max(...rows.map((r) => Number(r['update ms']))))}`,
        'status p50 / p99 ms': `${round(percentile(statusMs, 50))} / ${round(percentile(statusMs, 99))}`,
        'remote requests seen by canary': canaryHits,
      },
      rows,
    );
  }
});

async function callText(name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await client!.callTool({ name, arguments: args })) as { content: { type: string; text?: string }[]; isError?: boolean };
  return r.content.map((c) => c.text ?? '').join('\n');
}

describe('hostile files through svc update on a live daemon', () => {
  test('the daemon reports each hostile file and keeps serving its last good catalogue', { timeout: 15 * 60_000 }, async (t) => {
    if (startError) assert.fail(`the daemon did not start: ${startError}`);
    const d = daemon!;
    const first = await d.status();
    assert.equal(first.totals.failed, 0, `good documents failed to load: ${JSON.stringify(first.specs.filter((s) => s.state !== 'ok')).slice(0, 500)}`);
    const total = first.totals.endpoints;
    for (const c of cases) {
      await t.test(`${c.name}: ${c.attack}`, { timeout: (c.timeoutMs ?? 15_000) + 30_000 }, async () => {
        const good = `${c.file}.good`;
        renameSync(c.file, good);
        if (isSpecial(`${c.file}.hostile`)) renameSync(`${c.file}.hostile`, c.file);
        const problems: string[] = [];
        const t0 = performance.now();
        const result = await d.update((c.timeoutMs ?? 15_000) + 20_000);
        const updateMs = performance.now() - t0;
        const report = result.specs.find((s) => s.name === c.name);
        // The daemon has one size limit for all specs (64 MB): a case built for a smaller limit may import.
        const expect = c.options?.maxSpecBytes ? 'any' : c.expect;
        // A path that is no regular file (or none at all) may be refused by the config loader: then the
        // whole update is refused, reported as config errors, and nothing else is touched.
        const configRefused = !report && result.configErrors.length > 0;
        if (configRefused) {
          if (expect === 'endpoints') problems.push(`the config was refused: ${JSON.stringify(result.configErrors).slice(0, 300)}`);
          if (!result.configErrors.some((e) => `${e.message} ${e.file}`.includes(c.name))) problems.push(`the config errors do not name the spec file: ${JSON.stringify(result.configErrors).slice(0, 300)}`);
        } else if (!report) problems.push(`the update result does not list the spec: ${JSON.stringify(result).slice(0, 300)}`);
        else {
          const failed = report.state === 'failed';
          if (expect === 'error' && !failed) problems.push(`expected the update to report an error, got state ${report.state}`);
          if (expect === 'endpoints' && failed) problems.push(`expected endpoints, got errors ${report.errors.map((e) => e.code).join(',')}`);
          if (failed) {
            if (report.errors.length === 0) problems.push('a failed spec reports no errors');
            for (const e of report.errors) if (!e.message || !e.code || !e.file) problems.push(`an error lacks code, message or file: ${JSON.stringify(e).slice(0, 200)}`);
            if (!report.keptPrevious) problems.push('the failed spec did not keep its previous version in service');
          }
          for (const other of result.specs) if (other.name !== c.name && other.state !== 'unchanged') problems.push(`spec ${other.name} changed state to ${other.state} although its file did not change`);
        }
        // Still answering: status within budget, and the failed spec's good endpoint is still found.
        const s0 = performance.now();
        const st = await d.status(1000);
        statusMs.push(performance.now() - s0);
        const mine = st.specs.find((s) => s.name === c.name);
        if (report?.state === 'failed' || configRefused) {
          if (report && mine?.state !== 'failed') problems.push(`status shows state ${mine?.state} for a failed spec`);
          if (mine?.endpoints !== 1) problems.push(`status shows ${mine?.endpoints} endpoints for the kept good version (1 expected)`);
          const text = await callText('endpoint_by_id', { endpointId: `${c.name}:GET:/good/${c.name}` });
          if (!text.includes(`/good/${c.name}`)) problems.push(`endpoint_by_id no longer finds the kept endpoint: ${text.slice(0, 200)}`);
        }
        const search = await callText('search', { query: 'good', limit: 5 });
        if (!/good/.test(search)) problems.push(`search stopped answering: ${search.slice(0, 200)}`);
        if (!d.alive()) problems.push(`the daemon died; stderr:\n${d.stderr().slice(-2000)}`);
        // Put the good document back so the next case starts from the same catalogue.
        if (isSpecial(c.file)) rmSync(c.file, { recursive: true, force: true });
        renameSync(good, c.file);
        const back = await d.update(30_000);
        const restored = back.specs.find((s) => s.name === c.name);
        if (restored?.state === 'failed') problems.push(`restoring the good document failed: ${JSON.stringify(restored.errors).slice(0, 200)}`);
        rows.push({ case: c.name, outcome: report ? `${report.state}${report.errors[0] ? ` (${report.errors[0].code})` : ''}` : configRefused ? `config refused (${result.configErrors[0]?.code})` : 'missing', 'update ms': round(updateMs), verdict: problems.length ? 'FAIL' : 'pass' });
        // The hostile file goes back to its parking place (for a rerun of this case).
        assert.deepEqual(problems, [], problems.join('; '));
      });
    }
    const last = await d.status();
    assert.equal(last.totals.endpoints, total, 'the catalogue did not return to its starting size');
    assert.equal(canaryHits, 0, 'the daemon fetched a remote $ref');
  });
});
