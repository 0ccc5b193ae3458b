// The import pool when its worker thread goes (src/daemon/import-pool.ts), through real worker
// threads: the thread started ahead is the one handed out until it ends; a job whose thread stops
// under it comes back inline with why (the caller imports it itself) and the next job gets a new
// thread; `release` ends an idle thread at once but never one with a job queued; `warm` starts one.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import path from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, it } from 'node:test';
import { ImportPool, prestartImportWorker } from '../../src/daemon/import-pool.ts';
import type { ImportOptions } from '../../src/import/index.ts';
import { within } from './support.ts';

const SPEC = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');
const options = (name: string): ImportOptions => ({ name, collection: 'default' });
const tmp = mkdtempSync(path.join(tmpdir(), 'svc-pool-loss-'));
after(() => rmSync(tmp, { recursive: true, force: true }));


it('hands out the thread started ahead until it ends, then starts another', async () => {
  const early = prestartImportWorker();
  assert.equal(prestartImportWorker(), early, 'not a second thread while the first runs');
  const exited = once(early, 'exit');
  await early.terminate();
  await exited;
  const next = prestartImportWorker();
  assert.notEqual(next, early, 'a new thread once the first ended');
  const pool = new ImportPool();
  try {
    pool.warm();
    assert.equal(pool.running, true, 'warm starts a thread (the one started ahead)');
  } finally {
    const gone = once(next, 'exit');
    await pool.close();
    await within(gone, 'the thread ends with its pool');
  }
});

it('answers a job whose thread stops under it inline, with why, and runs the next job on a new thread', async () => {
  const early = prestartImportWorker();
  const pool = new ImportPool();
  try {
    const cut = pool.run(SPEC, options('a'));
    // The pool takes the thread started ahead for this job; it stops before it could answer.
    await early.terminate();
    const reply = await within(cut, 'the cut job is answered');
    assert.equal(reply.kind, 'inline');
    assert.match((reply as { reason: string }).reason, /^the import worker stopped \(exit \d+\)$/);
    const next = await within(pool.run(SPEC, options('b')), 'the next job is answered');
    assert.equal(next.kind, 'built', 'a new thread for the next job');
    if (next.kind === 'built') assert.deepEqual(Object.keys(await next.late).sort(), ['detail', 'prints', 'seen']);
  } finally {
    await pool.close();
  }
});

it('answers a config job whose thread stops under it inline, with why, and reads the next on a new thread', async () => {
  const config = path.join(tmp, 'svc.yaml');
  writeFileSync(config, `specs:\n  - path: ${JSON.stringify(SPEC)}\n`);
  const early = prestartImportWorker();
  const pool = new ImportPool();
  try {
    const cut = pool.readConfig(config);
    await early.terminate();
    const reply = await within(cut, 'the cut config job is answered');
    assert.equal(reply.kind, 'inline');
    assert.match((reply as { reason: string }).reason, /^the import worker stopped \(exit \d+\)$/);
    const next = await within(pool.readConfig(config), 'the next config job is answered');
    assert.equal(next.kind, 'config', 'a new thread for the next job');
    if (next.kind === 'config') assert.equal(next.config.specs[0]?.path, SPEC);
  } finally {
    await pool.close();
  }
});

it('release ends an idle thread at once, and leaves one with a job queued', async () => {
  const early = prestartImportWorker();
  const pool = new ImportPool();
  try {
    const first = pool.run(SPEC, options('a'));
    const second = pool.run(SPEC, options('b'));
    const one = await first;
    assert.equal(one.kind, 'built');
    if (one.kind === 'built') await one.late;
    pool.release();
    assert.equal(pool.running, true, 'a job is still to run');
    const two = await within(second, 'the queued job is answered');
    assert.equal(two.kind, 'built', 'on the same thread');
    if (two.kind === 'built') await two.late;
    const exited = once(early, 'exit');
    pool.release();
    assert.equal(pool.running, false);
    await within(exited, 'the released thread ends');
  } finally {
    await pool.close();
  }
});
