// `svc check` on every hostile file, as a user would run it: a real process per case, with a
// time limit. It must exit 0 or 1 (never crash), print one JSON report naming the file, and
// never print a stack trace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeHostileCorpus, type HostileCase } from './hostile/generate.ts';
import { recordFigures, round } from './support/figures.ts';
import { REPO_ROOT } from './support/scale.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-hostile-check-'));
let canary: Server;
let canaryHits = 0;
let cases: HostileCase[] = [];
const rows: Record<string, string | number>[] = [];
const STACK_LINE = /^\s+at .+(:\d+:\d+\)?)$/m;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export function runSvc(args: string[], timeoutMs: number, cwd = REPO_ROOT): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/svc.js'), ...args], { cwd, env: { ...process.env, SVC_DEBUG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, timedOut });
    });
  });
}

before(async () => {
  canary = createServer((_req, res) => {
    canaryHits++;
    res.end('Secret: {type: string}\n');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  cases = writeHostileCorpus(dir, { canaryUrl: `http://127.0.0.1:${(canary.address() as { port: number }).port}` });
});

after(async () => {
  await new Promise<void>((resolve) => canary.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
  if (rows.length > 0) {
    recordFigures('hostile-check (svc check, one process per file)', {
      inputs: rows.length,
      failures: rows.filter((r) => r['verdict'] !== 'pass').length,
      'slowest process ms': round(Math.max(...rows.map((r) => Number(r['ms'])))),
      'remote requests seen by canary': canaryHits,
    });
  }
});

describe('svc check on hostile files', () => {
  test('every hostile file gets a report or a clear error, exit 0 or 1, no stack trace, in time', { timeout: 10 * 60_000 }, async (t) => {
    const queue = [...cases];
    // Two processes at a time: this machine class has two cores.
    const results = new Map<string, { c: HostileCase; run: Run; config: string }>();
    await Promise.all(
      [0, 1].map(async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          const config = join(dirname(dir), `${dir.split('/').pop()}-${c.name}.yaml`);
          const limits = c.options?.maxSpecBytes ? `limits:\n  maxSpecBytes: ${c.options.maxSpecBytes}\n` : '';
          writeFileSync(config, `${limits}specs:\n  - path: ${JSON.stringify(c.file)}\n    name: ${c.name}\n`);
          results.set(c.name, { c, config, run: await runSvc(['check', '--json', '--config', config], (c.timeoutMs ?? 15_000) + 15_000) });
          rmSync(config, { force: true });
        }
      }),
    );
    for (const c of cases) {
      const { run } = results.get(c.name)!;
      await t.test(`${c.name}: ${c.attack}`, () => {
        const problems: string[] = [];
        if (run.timedOut) problems.push(`svc check did not finish within ${(c.timeoutMs ?? 15_000) + 15_000} ms`);
        if (run.code !== 0 && run.code !== 1) problems.push(`exit code ${run.code} (signal ${run.signal}); stderr: ${run.stderr.slice(0, 300)}`);
        if (STACK_LINE.test(run.stderr) || STACK_LINE.test(run.stdout)) problems.push(`a stack trace was printed: ${run.stderr.slice(0, 300)}`);
        let report: { specs?: { file: string; endpoints: number; errors: { code: string; message: string; file: string }[] }[]; config?: { file: string; problems: { key: string; message: string }[] } } | undefined;
        try {
          report = JSON.parse(run.stdout) as typeof report;
        } catch {
          problems.push(`stdout is not one JSON report: ${run.stdout.slice(0, 200)} / stderr: ${run.stderr.slice(0, 200)}`);
        }
        const spec = report?.specs?.[0];
        // The config loader may refuse a path that is no regular file before any import: also a structured error.
        const configRefused = (report?.config?.problems.length ?? 0) > 0;
        if (configRefused && c.expect === 'endpoints') problems.push(`the config was refused: ${JSON.stringify(report?.config).slice(0, 200)}`);
        if (configRefused && run.code !== 1) problems.push(`config problems but exit code ${run.code}`);
        if (report && !spec && !configRefused) problems.push('the report lists no spec and no config problem');
        if (spec) {
          const failed = spec.errors.length > 0;
          if (failed !== (run.code === 1)) problems.push(`exit code ${run.code} does not match ${spec.errors.length} errors`);
          if (c.expect === 'error' && !failed) problems.push(`expected an error, got ${spec.endpoints} endpoints`);
          if (c.expect === 'endpoints' && (failed || spec.endpoints < (c.minEndpoints ?? 1))) problems.push(`expected endpoints, got ${spec.endpoints} and errors ${spec.errors.map((e) => e.code).join(',')}`);
          for (const e of spec.errors) if (!e.file || !e.message || !e.code) problems.push(`an error lacks file, message or code: ${JSON.stringify(e).slice(0, 200)}`);
          for (const marker of c.forbid ?? []) if (run.stdout.includes(marker) || run.stderr.includes(marker)) problems.push(`output contains ${JSON.stringify(marker)}`);
        }
        rows.push({ case: c.name, exit: String(run.code), ms: round(run.ms), verdict: problems.length ? 'FAIL' : 'pass' });
        assert.deepEqual(problems, [], problems.join('; '));
      });
    }
    assert.equal(canaryHits, 0, 'svc check fetched a remote $ref although remote refs are off');
  });
});
