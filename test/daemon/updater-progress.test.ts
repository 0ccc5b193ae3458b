// Updater.progress from its contract: while a run goes on with no one waiting for the next, it
// says so (waiting 0) along with how far the run got; between runs there is none.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { Updater, type ImportFn } from '../../src/daemon/update.ts';
import { importSpec } from '../../src/import/index.ts';
import { fileWriter, openapi, until } from './support.ts';

test('a run with no one waiting reports its progress and waiting 0; none between runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-updater-progress-'));
  try {
    const write = fileWriter(dir);
    write('pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets' }]));
    write('store.yaml', openapi('Store', [{ method: 'GET', path: '/orders' }]));
    write('svc.yaml', 'specs:\n  - pets.yaml\n  - store.yaml\n');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const imported: string[] = [];
    const gated: ImportFn = async (file, options) => {
      imported.push(file);
      if (imported.length === 2) await gate;
      return importSpec(file, options);
    };
    const updater = new Updater({ catalog: new Catalog(), reload: () => loadConfig(join(dir, 'svc.yaml')), importSpec: gated });
    assert.equal(updater.progress, undefined);
    const run = updater.update();
    await until(() => imported.length === 2, 10_000, 'the second import begun');
    const progress = updater.progress!;
    assert.deepEqual({ ...progress, startedAt: 0 }, { startedAt: 0, done: 1, total: 2, spec: 'store', waiting: 0 });
    release();
    await run;
    assert.equal(updater.progress, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
