// `svc update`'s reader of svc.yaml (src/daemon/config-read.ts) from its contract, with the real
// import worker: whether the file is read in the worker or on this thread, the outcome is what
// loadConfig gives, the config or the same ConfigError; a small file starts no worker, a large
// one is read in it, and without a worker the file is read here.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { OFF_THREAD_CONFIG_BYTES, rereadConfig } from '../../src/daemon/config-read.ts';
import { ImportPool, prestartImportWorker } from '../../src/daemon/import-pool.ts';
import { ConfigError } from '../../src/model/errors.ts';
import { openapi, within } from './support.ts';

/** Starting a worker thread under load takes seconds. */
const HANG_MS = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'svc-config-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'pets.yaml'), openapi('Pets', [{ method: 'GET', path: '/pets' }]));

const CASES: Record<string, string> = {
  'a valid config': 'serve:\n  transport: http\n  port: 8123\nspecs:\n  - path: pets.yaml\n    collection: shop\n    timeoutMs: 5000\n',
  'YAML that does not parse': 'specs:\n  - path: [pets.yaml\n',
  'several problems at their lines': 'serve:\n  port: -3\n  nonsense: 1\nspecs:\n  - path: missing.yaml\n  - name: no path\n',
  'a folder named as the config': '',
};

/** The outcome of a read, as something deepEqual compares: the config, or the error's class, file, problems and message. */
async function outcome(read: Promise<unknown>): Promise<unknown> {
  try {
    return { config: await read };
  } catch (error) {
    const e = error as Error;
    return { error: e.constructor.name, message: e.message, ...(e instanceof ConfigError ? { file: e.file, problems: e.problems } : {}) };
  }
}

function fileFor(name: string, text: string): string {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
  if (name === 'a folder named as the config') return dir;
  writeFileSync(file, text);
  return file;
}

describe('rereadConfig', { timeout: HANG_MS }, () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`reads ${name} in the worker as loadConfig does on this thread`, { timeout: HANG_MS }, async () => {
      const file = fileFor(name, text);
      const pool = new ImportPool();
      try {
        // A bound of 0 bytes sends every file to the worker.
        const there = await outcome(rereadConfig(file, pool, 0));
        assert.equal(pool.running, true, 'the worker read it');
        assert.deepEqual(there, await outcome(loadConfig(file)));
      } finally {
        await pool.close();
      }
    });
  }

  it('reads a missing file in the worker as loadConfig does', { timeout: HANG_MS }, async () => {
    const pool = new ImportPool();
    try {
      const file = join(dir, 'no-such-svc.yaml');
      const there = await outcome(rereadConfig(file, pool, 0));
      assert.deepEqual(there, await outcome(loadConfig(file)));
      assert.match(JSON.stringify(there), /file not found/);
    } finally {
      await pool.close();
    }
  });

  it('reads a file under the bound on this thread, and one at the bound in the worker', { timeout: HANG_MS }, async () => {
    const file = fileFor('bound', CASES['a valid config']!);
    const size = Buffer.byteLength(CASES['a valid config']!);
    const pool = new ImportPool();
    try {
      const here = await rereadConfig(file, pool, size + 1);
      assert.equal(pool.running, false, 'no worker for a small file');
      const there = await rereadConfig(file, pool, size);
      assert.equal(pool.running, true, 'the worker for a file at the bound');
      assert.deepEqual(there, here);
      assert.ok(OFF_THREAD_CONFIG_BYTES > size, 'an ordinary svc.yaml is read on this thread by default');
    } finally {
      await pool.close();
    }
  });

  it('reads the file on this thread when the worker cannot be had', { timeout: HANG_MS }, async () => {
    const file = fileFor('closed', CASES['a valid config']!);
    const pool = new ImportPool();
    await pool.close();
    assert.deepEqual(await rereadConfig(file, pool, 0), await loadConfig(file));
    const reply = await pool.readConfig(file);
    assert.equal(reply.kind, 'inline');
  });
});

describe('config jobs in the import pool', { timeout: HANG_MS }, () => {
  it('answers several at once, each with its own file', { timeout: HANG_MS }, async () => {
    const files = [1, 2, 3].map((n) => fileFor(`several-${n}`, `serve:\n  port: ${8100 + n}\nspecs:\n  - path: pets.yaml\n`));
    const pool = new ImportPool();
    try {
      const replies = await Promise.all(files.map((f) => pool.readConfig(f)));
      assert.deepEqual(
        replies.map((r) => (r.kind === 'config' ? r.config.serve.port : r.kind)),
        [8101, 8102, 8103],
      );
    } finally {
      await pool.close();
    }
  });

  it('keeps the thread while a config job is open (release waits), and ends it the idle time after', { timeout: HANG_MS }, async () => {
    const early = prestartImportWorker();
    const pool = new ImportPool({ idleMs: 50 });
    try {
      const exited = once(early, 'exit');
      const reading = pool.readConfig(fileFor('released', CASES['a valid config']!));
      // A release while the job is open (sent: a turn later) must leave the thread to it.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(pool.running, true);
      pool.release();
      const reply = await reading;
      assert.equal(reply.kind, 'config', 'answered by the worker, not cut off');
      await within(exited, 'the thread ends after the idle time');
      assert.equal(pool.running, false);
    } finally {
      await pool.close();
    }
  });
});
