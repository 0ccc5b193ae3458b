// Availability: SIGTERM must end the daemon within a second or two whatever it is doing. A large
// import holds the thread for a long time (a generated spec of tens of thousands of endpoints, or
// the largest real specs together); a daemon that waited for it ignored SIGTERM for minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { project, startDaemon, type Project } from '../daemon/support.ts';
import { spawn } from 'node:child_process';
import { SVC_BIN, nodeArgs } from '../daemon/support.ts';

const skip = process.platform === 'win32' ? 'POSIX signals' : false;
/** The bound: a second or two, with room for a loaded 2-core machine. */
const EXIT_BUDGET_MS = 2500;
const SHARED = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'specs');
const REAL = ['swagger-2.0/kubernetes/swagger.json', 'openapi-3.0/stripe/2023-09-12/spec3.yaml', 'openapi-3.0/atlassian-jira/platform-swagger.v3.json', 'postman/stripe/StripeAPICollection.json'];

function generatedSpec(endpoints: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < endpoints; i++) {
    paths[`/resources${i % 97}/item${i}/{id}`] = {
      get: {
        summary: `Get item ${i} of resource ${i % 97}`,
        tags: [`t${i % 50}`],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'q', in: 'query', schema: { type: 'integer' } }],
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'big', version: '1' }, paths });
}

/** Starts `svc serve` (stdio), waits for its control socket (the import starts then), and returns it. */
async function serveAndWaitForSocket(p: Project): Promise<{ stderr: () => string; signalAndTime: (signal: NodeJS.Signals) => Promise<{ ms: number; code: number | null; signal: string | null }> }> {
  const child = spawn(process.execPath, [...nodeArgs(), SVC_BIN, 'serve', '--config', p.configFile], { cwd: p.dir, env: p.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: string | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  const deadline = Date.now() + 30_000;
  while (!/control socket/.test(err)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`svc serve did not start:\n${err}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  // A client exchange as an MCP client makes it (the import is already under way).
  const rpc = (msg: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
  rpc({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sigterm-test', version: '1' } } });
  rpc({ method: 'notifications/initialized' });
  rpc({ id: 2, method: 'tools/list' });
  return {
    stderr: () => err,
    async signalAndTime(signal) {
      const t0 = performance.now();
      child.kill(signal);
      const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const result = await exited;
      clearTimeout(guard);
      return { ms: performance.now() - t0, ...result };
    },
  };
}

async function sigtermDuringImport(p: Project, what: string): Promise<void> {
  const d = await serveAndWaitForSocket(p);
  await new Promise((r) => setTimeout(r, 300));
  const loadedBefore = /loaded \d+ spec/.test(d.stderr());
  const { ms, code, signal } = await d.signalAndTime('SIGTERM');
  assert.ok(!loadedBefore, `${what}: the import had already finished before SIGTERM; the test did not test anything`);
  assert.ok(ms < EXIT_BUDGET_MS, `${what}: SIGTERM during the import took ${Math.round(ms)} ms to end the daemon (code ${code}, signal ${signal})`);
}

test('SIGTERM during the import of a generated spec of 40,000 endpoints ends the daemon within a second or two', { skip, timeout: 90_000 }, async () => {
  const p = project();
  try {
    p.write('specs/big.json', generatedSpec(40_000));
    p.config(['specs/big.json'], 'limits:\n  maxSpecBytes: 100000000\n');
    await sigtermDuringImport(p, 'generated spec');
  } finally {
    p.cleanup();
  }
});

const realAbsent = REAL.some((f) => !existsSync(join(SHARED, f))) ? `the shared real specs are absent (${SHARED})` : false;

test('SIGTERM during the import of the largest real specs (Kubernetes, Stripe, Jira, Stripe Postman) ends the daemon within a second or two', { skip: skip || realAbsent, timeout: 90_000 }, async () => {
  const p = project();
  try {
    // Each spec twice under two names: a heavy first import of real data.
    const lines = REAL.flatMap((f, i) => [0, 1].map((k) => `  - path: ${JSON.stringify(join(SHARED, f))}\n    name: real${i}x${k}\n`));
    p.write('svc.yaml', `limits:\n  maxSpecBytes: 100000000\nspecs:\n${lines.join('')}`);
    await sigtermDuringImport(p, 'real specs');
  } finally {
    p.cleanup();
  }
});

test('SIGTERM after the import ends the daemon gracefully: exit 0, socket removed, within a second or two', { skip, timeout: 60_000 }, async () => {
  const p = project();
  try {
    p.write('specs/big.json', generatedSpec(2_000));
    p.config(['specs/big.json']);
    const d = await startDaemon(p, ['--transport', 'stdio']);
    const t0 = performance.now();
    const code = await d.stop('SIGTERM');
    const ms = performance.now() - t0;
    assert.equal(code, 0);
    assert.ok(ms < EXIT_BUDGET_MS, `took ${Math.round(ms)} ms`);
    assert.equal(existsSync(d.socket), false, 'socket file left behind');
    assert.deepEqual(readdirSync(join(d.socket, '..')), []);
  } finally {
    p.cleanup();
  }
});
