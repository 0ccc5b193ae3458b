// `svc status` checks the watcher's reports against the files again: a spec whose file was changed
// and then put back as it was is not pending (what is served is what is on disk), while the other
// reported specs still are. In process: DaemonServices, the real watcher, real files.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { DaemonServices } from '../../src/daemon/services.ts';
import { importSpec } from '../../src/import/index.ts';
import { openapi, until } from './support.ts';

test('a file changed and put back is not pending; another changed file still is', { skip: process.platform === 'win32' ? 'Unix sockets only' : false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-status-recheck-'));
  const pets = join(dir, 'pets.yaml');
  const store = join(dir, 'store.yaml');
  const original = openapi('Pets', [{ method: 'GET', path: '/pets' }]);
  writeFileSync(pets, original);
  writeFileSync(store, openapi('Store', [{ method: 'GET', path: '/orders' }]));
  writeFileSync(join(dir, 'svc.yaml'), 'specs:\n  - pets.yaml\n  - store.yaml\n');
  const config = await loadConfig(join(dir, 'svc.yaml'));
  const catalog = new Catalog();
  const services = await DaemonServices.start({
    config,
    catalog,
    reload: () => loadConfig(join(dir, 'svc.yaml')),
    context: () => assert.fail('no tools here'),
    socket: join(dir, 'ctl.sock'),
    log: () => {},
  });
  try {
    const outcomes = await Promise.all(config.specs.map((s) => importSpec(s.path, { name: s.name, collection: s.collection })));
    catalog.replace(outcomes.flatMap((o) => (o.ok ? [o.spec] : [])));
    await services.seed(config, outcomes);
    writeFileSync(pets, openapi('Pets', [{ method: 'GET', path: '/pets' }, { method: 'GET', path: '/cats' }]));
    writeFileSync(store, openapi('Store', []));
    await until(async () => (await services.status()).totals.pending === 2, 20_000, 'both specs pending');
    writeFileSync(pets, original);
    const status = await services.status();
    assert.deepEqual(status.specs.map((s) => [s.name, s.state, s.pending]), [['pets', 'ok', []], ['store', 'pending', [store]]]);
  } finally {
    await services.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
