// How long the import pool keeps an idle worker thread (src/daemon/import-pool.ts, `idleMs`; 5 s
// in the daemon, short here): a thread warmed for no job, or left after its last job, ends after
// the idle time; a job that comes first keeps the thread it finds, and the idle time starts again
// after it. Real worker threads (the one started ahead, so its end can be seen).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import path from 'node:path';
import { it } from 'node:test';
import { ImportPool, prestartImportWorker } from '../../src/daemon/import-pool.ts';
import type { ImportOptions } from '../../src/import/index.ts';
import { within } from './support.ts';

const SPEC = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');
const options = (name: string): ImportOptions => ({ name, collection: 'default' });


it('ends a thread warmed for a job that never comes after the idle time', async () => {
  const early = prestartImportWorker();
  const pool = new ImportPool({ idleMs: 50 });
  try {
    const exited = once(early, 'exit');
    pool.warm();
    assert.equal(pool.running, true);
    await within(exited, 'the warmed thread ends');
    assert.equal(pool.running, false);
  } finally {
    await pool.close();
  }
});

it('keeps the thread it warmed for the job that comes, and ends it the idle time after that job', async () => {
  const early = prestartImportWorker();
  // So short that the warm-up's idle time would end the thread during the job, were it not stopped.
  const pool = new ImportPool({ idleMs: 1 });
  try {
    const exited = once(early, 'exit');
    pool.warm();
    const reply = await pool.run(SPEC, options('a'));
    assert.equal(reply.kind, 'built');
    if (reply.kind === 'built') await reply.late;
    assert.equal(pool.running, true, 'still there when the job is done: the idle time starts now');
    await within(exited, 'the thread ends after its idle time');
    assert.equal(pool.running, false);
    const next = await pool.run(SPEC, options('b'));
    assert.equal(next.kind, 'built', 'a later job gets a new thread');
    if (next.kind === 'built') await next.late;
  } finally {
    await pool.close();
  }
});
