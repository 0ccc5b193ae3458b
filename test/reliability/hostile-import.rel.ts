// Hostile inputs straight into the importers: every case ends in endpoints or a structured error,
// within its time limit and under the worker's heap cap, reading nothing it must not read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHostileCorpus, type HostileCase } from './hostile/generate.ts';
import { ImportRunner, type JobResult } from './support/import-runner.ts';
import { recordFigures, round } from './support/figures.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-hostile-'));
let canary: Server;
let canaryHits = 0;
let cases: HostileCase[] = [];
const runner = new ImportRunner({ maxHeapMb: 768 });
const rows: Record<string, string | number | boolean>[] = [];
let unavailable: string | undefined;

before(async () => {
  canary = createServer((req, res) => {
    canaryHits++;
    res.end('Secret: {type: string}\n');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const port = (canary.address() as { port: number }).port;
  cases = writeHostileCorpus(dir, { canaryUrl: `http://127.0.0.1:${port}` });
  // Probe: is the importer there yet?
  const probe = await runner.run({ file: join(dir, 'cases/bom-json/spec.json'), options: { name: 'probe', collection: 'default' } }, 30_000);
  if ('unavailable' in probe && probe.unavailable) unavailable = probe.unavailable;
});

after(async () => {
  await runner.close();
  await new Promise<void>((resolve) => canary.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
  if (rows.length > 0) {
    const failed = rows.filter((r) => r['verdict'] !== 'pass').length;
    recordFigures(
      'hostile-import',
      {
        inputs: rows.length,
        failures: failed,
        'slowest ms': round(Math.max(...rows.map((r) => Number(r['ms'])))),
        'max worker heap MB': round(Math.max(...rows.map((r) => Number(r['heap MB']) || 0))),
        'remote requests seen by canary': canaryHits,
        'worker restarts': runner.restarts,
      },
      rows,
    );
  }
});

function verdict(c: HostileCase, r: JobResult): string[] {
  const problems = [...r.problems];
  if (r.failure) return problems;
  if ('unavailable' in r && r.unavailable) return [r.unavailable];
  if (r.ok === undefined) return problems;
  if (c.expect === 'error' && r.ok) problems.push(`expected a structured error, got ${r.endpoints} endpoints`);
  if (c.expect === 'endpoints' && !r.ok) problems.push(`expected endpoints, got errors ${r.errorCodes?.join(', ')}: ${r.firstError}`);
  if (c.expect === 'endpoints' && r.ok && (r.endpoints ?? 0) < (c.minEndpoints ?? 1)) problems.push(`expected at least ${c.minEndpoints ?? 1} endpoints, got ${r.endpoints}`);
  return problems;
}

describe('hostile inputs to the importers', () => {
  // Subtests are created from the generated list, so they are built inside one test.
  test('every hostile file ends in endpoints or a structured error, in time and memory', { timeout: 15 * 60_000 }, async (t) => {
    if (unavailable) {
      t.skip(unavailable);
      return;
    }
    for (const c of cases) {
      await t.test(`${c.name}: ${c.attack}`, { timeout: (c.timeoutMs ?? 15_000) + 10_000 }, async () => {
        const hitsBefore = canaryHits;
        const r = await runner.run(
          { file: c.file, options: { name: c.name, collection: 'hostile', ...c.options }, forbid: c.forbid, descriptionLengths: c.descriptionLengths },
          c.timeoutMs ?? 15_000,
        );
        const problems = verdict(c, r);
        if (canaryHits !== hitsBefore) problems.push(`the importer made ${canaryHits - hitsBefore} HTTP request(s) for a remote $ref with allowRemoteRefs off`);
        const outcome = r.failure ? r.failure : r.ok ? `${r.endpoints} endpoints, ${r.warnings} warnings` : `error ${r.errorCodes?.join(',')}`;
        rows.push({ case: c.name, expected: c.expect, outcome, ms: round(r.ms), 'heap MB': r.failure ? '' : round(r.heapUsedMb), verdict: problems.length ? 'FAIL' : 'pass' });
        assert.deepEqual(problems, [], `${c.name} (${c.file}): ${problems.join('; ')}`);
      });
    }
  });
});
