// What the import pool's worker thread does to its process's life (src/daemon/import-pool.ts): a job
// keeps the process alive until it answers, also on a worker warmed (and so let go) before it came;
// once no job is left, neither the thread nor its idle timer keeps the process alive, however long
// the idle time (a short command such as `svc check` ends when its work is done, not seconds
// later). Each case runs in a fresh Node process that holds nothing else alive, with an idle time
// of a minute: a process that ends at once was let go, one still running after seconds was held.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { nodeArgs } from './support.ts';

const POOL = pathToFileURL(path.resolve(import.meta.dirname, '../../src/daemon/import-pool.ts')).href;
const SPEC = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');
const CONFIG = path.resolve(import.meta.dirname, '../../svc.yaml.example');
/** Far longer than any case takes: an exit before it was not the idle timer's. */
const IDLE_MS = 60_000;
/** How long a case may run before it counts as held alive. */
const HELD_MS = 20_000;

interface Ended {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Killed after HELD_MS: something kept the process alive. */
  readonly held: boolean;
}

/** Runs `body` (ES module code; `pool` is an ImportPool with a minute's idle time) in a fresh process. */
function run(body: string): Promise<Ended> {
  const code = `const { ImportPool } = await import(${JSON.stringify(POOL)}); const pool = new ImportPool({ idleMs: ${IDLE_MS} }); ${body}`;
  const child = spawn(process.execPath, [...nodeArgs(), '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let held = false;
  const timer = setTimeout(() => {
    held = true;
    child.kill('SIGKILL');
  }, HELD_MS);
  return new Promise((resolve) =>
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, stdout, stderr, held });
    }),
  );
}

it('an import keeps the process alive until it answers, on a worker warmed and let go before it came', { timeout: 60_000 }, async () => {
  const ended = await run(`pool.warm(); const r = await pool.run(${JSON.stringify(SPEC)}, { name: 'a', collection: 'default' }); if (r.kind === 'built') await r.late; console.log(r.kind);`);
  assert.equal(ended.held, false, 'the process ended by itself');
  assert.equal(ended.code, 0, `exit 0 (13 is a top-level await the process did not wait for):\n${ended.stderr}`);
  assert.equal(ended.stdout.trim(), 'built');
});

it('a read of svc.yaml keeps the process alive until it answers, on a warmed worker', { timeout: 60_000 }, async () => {
  const ended = await run(`pool.warm(); const r = await pool.readConfig(${JSON.stringify(CONFIG)}); console.log(r.kind);`);
  assert.equal(ended.held, false, 'the process ended by itself');
  assert.equal(ended.code, 0, ended.stderr);
  assert.equal(ended.stdout.trim(), 'config');
});

it('once its last import is done, the pool lets the process end long before the idle time', { timeout: 60_000 }, async () => {
  const ended = await run(`const r = await pool.run(${JSON.stringify(SPEC)}, { name: 'a', collection: 'default' }); if (r.kind === 'built') await r.late; console.log(r.kind, pool.running);`);
  assert.equal(ended.held, false, `neither the thread nor its idle timer may hold the process:\n${ended.stderr}`);
  assert.equal(ended.code, 0, ended.stderr);
  assert.equal(ended.stdout.trim(), 'built true', 'the thread is still up (its idle time runs) when the process ends');
});

it('once a read of svc.yaml is done, the pool lets the process end long before the idle time', { timeout: 60_000 }, async () => {
  const ended = await run(`const r = await pool.readConfig(${JSON.stringify(CONFIG)}); console.log(r.kind, pool.running);`);
  assert.equal(ended.held, false, `neither the thread nor its idle timer may hold the process:\n${ended.stderr}`);
  assert.equal(ended.code, 0, ended.stderr);
  assert.equal(ended.stdout.trim(), 'config true');
});

it('a worker warmed for a job that never comes does not keep the process alive', { timeout: 60_000 }, async () => {
  const ended = await run(`pool.warm(); console.log(pool.running);`);
  assert.equal(ended.held, false, `neither the thread nor its idle timer may hold the process:\n${ended.stderr}`);
  assert.equal(ended.code, 0, ended.stderr);
  assert.equal(ended.stdout.trim(), 'true');
});
