// Updater runs from their contract, in this process on real files and the real importer: a request
// that arrives while an update runs joins the next run (one run for all of them), a run that has
// started takes no more callers; what the running flag, the progress and the timings say; and
// specs whose import read no file (too large: failed, still watched, pending until it imports).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { Updater, type ImportFn } from '../../src/daemon/update.ts';
import { importSpec } from '../../src/import/index.ts';
import type { UpdateResult } from '../../src/ipc/protocol.ts';
import { fileWriter, openapi, until } from './support.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): { dir: string; write: (rel: string, text: string) => string; configFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-updater-runs-'));
  dirs.push(dir);
  return { dir, write: fileWriter(dir), configFile: join(dir, 'svc.yaml') };
}

/** Promises a test lets go one at a time: each call of `wait` blocks until its turn is released. */
class Gates {
  readonly #open: (() => void)[] = [];
  entered = 0;
  async wait(): Promise<void> {
    this.entered++;
    await new Promise<void>((resolve) => this.#open.push(resolve));
  }
  async release(): Promise<void> {
    await until(() => this.#open.length > 0, 10_000, 'a run waiting at the gate');
    this.#open.shift()!();
  }
  releaseAll(): void {
    for (const open of this.#open.splice(0)) open();
  }
}

test('requests during a run share the next run; a run that has started takes no more callers', async () => {
  const f = folder();
  f.write('pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets' }]));
  f.write('store.yaml', openapi('Store', [{ method: 'GET', path: '/orders' }]));
  f.write('svc.yaml', 'specs:\n  - pets.yaml\n  - store.yaml\n');
  const gates = new Gates();
  const updater = new Updater({
    catalog: new Catalog(),
    reload: async () => {
      await gates.wait();
      return loadConfig(f.configFile);
    },
    importSpec,
  });
  try {
    const a = updater.update();
    const b = updater.update();
    await until(() => gates.entered === 1, 10_000, 'the first run reading svc.yaml');
    const c = updater.update();
    assert.deepEqual({ ...updater.progress, startedAt: 0 }, { startedAt: 0, done: 0, total: 0, waiting: 2 }, 'b and c wait for the next run');
    await gates.release(); // a
    const first = await a;
    assert.deepEqual(first.result.specs.map((s) => [s.name, s.state]), [['pets', 'added'], ['store', 'added']]);
    await until(() => gates.entered === 2, 10_000, 'the second run reading svc.yaml');
    // The second run has started: a request now is for the run after it.
    const d = updater.update();
    await gates.release(); // b and c
    const [second, third] = await Promise.all([b, c]);
    assert.equal(second, third, 'b and c got the one run they shared');
    assert.notEqual(second, first);
    await gates.release(); // d
    const fourth = await d;
    assert.notEqual(fourth, second, 'd came after the second run had started');
    assert.equal(gates.entered, 3, 'three runs read svc.yaml: a, b+c, d');
    assert.equal(updater.progress, undefined);
    assert.equal(updater.busy, false);
  } finally {
    gates.releaseAll();
  }
});

test('a run says it is running when it starts and that it ended when it ends, also when it fails', async () => {
  const f = folder();
  f.write('pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets' }]));
  f.write('svc.yaml', 'specs:\n  - pets.yaml\n');
  const running: boolean[] = [];
  const updater = new Updater({ catalog: new Catalog(), reload: () => loadConfig(f.configFile), importSpec, onRunning: (r) => running.push(r) });
  await updater.update();
  assert.deepEqual(running, [true, false]);
  f.write('svc.yaml', 'specs: [\n');
  const failed = await updater.update();
  assert.equal(failed.result.ok, false);
  assert.deepEqual(running, [true, false, true, false]);
});

test('the timings of a run are in milliseconds: the reload and the import phases and the whole', async () => {
  const f = folder();
  f.write('pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets' }]));
  f.write('svc.yaml', 'specs:\n  - pets.yaml\n');
  const slowImport: ImportFn = async (file, options) => {
    await sleep(150);
    return importSpec(file, options);
  };
  const updater = new Updater({
    catalog: new Catalog(),
    reload: async () => {
      await sleep(150);
      return loadConfig(f.configFile);
    },
    importSpec: slowImport,
  });
  const { result } = await updater.update();
  const phases = result.phases!;
  assert.ok(phases.config >= 140 && phases.config < 10_000, `config ${phases.config}`);
  assert.ok(phases.import >= 140 && phases.import < 10_000, `import ${phases.import}`);
  assert.ok(result.ms >= phases.config + phases.import - 1 && result.ms < 20_000, `ms ${result.ms}`);
});

const BIG = openapi('Late', Array.from({ length: 40 }, (_, i) => ({ method: 'GET', path: `/late/${i}`, summary: 'a long enough summary to pass the limit' })));

test('a spec refused before it was read fails, stays watched, is pending, and is added once it fits', async () => {
  const f = folder();
  f.write('pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets' }]));
  const late = f.write('late.yaml', BIG);
  f.write('svc.yaml', 'limits:\n  maxSpecBytes: 2KB\nspecs:\n  - pets.yaml\n  - late.yaml\n');
  const updater = new Updater({ catalog: new Catalog(), reload: () => loadConfig(f.configFile), importSpec });
  const first: UpdateResult = (await updater.update()).result;
  assert.deepEqual(first.specs.map((s) => [s.name, s.state]), [['pets', 'added'], ['late', 'failed']]);
  assert.deepEqual(updater.watchedFiles().get(late), ['late']);
  assert.equal(first.specs[1]!.errors[0]!.code, 'file-too-large');
  assert.equal(await updater.changedOnDisk('late'), false, 'unchanged since the failed attempt');
  assert.equal(await updater.changedOnDisk('pets'), false);
  f.write('late.yaml', openapi('Late', [{ method: 'GET', path: '/late' }]));
  assert.equal(await updater.changedOnDisk('late'), true, 'its own file changed since');
  const fixed = (await updater.update()).result;
  assert.deepEqual(fixed.specs.map((s) => [s.name, s.state]), [['pets', 'unchanged'], ['late', 'added']]);
  assert.equal(await updater.changedOnDisk('late'), false);
});

test('seeded with a failure that read no file, a spec watches its own file and is pending', async () => {
  const f = folder();
  const late = f.write('late.yaml', BIG);
  f.write('svc.yaml', 'specs:\n  - late.yaml\n');
  const config = await loadConfig(f.configFile);
  const outcome = await importSpec(late, { name: 'late', collection: 'default', maxSpecBytes: 100 });
  assert.equal(outcome.ok, false);
  assert.deepEqual(outcome.ok ? [] : outcome.files, [], 'too large: the import read nothing');
  const updater = new Updater({ catalog: new Catalog(), reload: () => loadConfig(f.configFile), importSpec });
  await updater.seed(config, [outcome]);
  assert.deepEqual([...updater.watchedFiles()], [[late, ['late']]]);
  assert.equal(await updater.changedOnDisk('late'), true, 'never served: pending until it imports');
  unlinkSync(late);
  assert.equal(await updater.changedOnDisk('late'), true, 'gone: still pending');
});
