// The daemon's control side in one process (real socket, real watcher, real files): what an update
// tells listeners (MCP sessions turn these events into notifications) and what status calls pending.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { CatalogChange } from '../../src/daemon/events.ts';
import { DaemonServices } from '../../src/daemon/services.ts';
import { importSpec } from '../../src/import/index.ts';
import type { StatusResult } from '../../src/ipc/protocol.ts';
import { openapi, until } from './support.ts';

const PETS = [
  { method: 'GET', path: '/pets', summary: 'List pets' },
  { method: 'GET', path: '/pets/{id}', summary: 'Get a pet' },
];

function health(status: StatusResult, name: string): { state: string; pending: readonly string[] } {
  const s = status.specs.find((x) => x.name === name);
  assert.ok(s, `no status for ${name}`);
  return s;
}

test('updates notify listeners of removed, added and changed endpoints; pending follows the files on disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-services-'));
  const write = (rel: string, text: string): string => {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  const pets = write('specs/pets.yaml', openapi('Pets', PETS));
  write('specs/store.yaml', openapi('Store', [{ method: 'GET', path: '/orders' }]));
  const configFile = write('svc.yaml', 'specs:\n  - specs/pets.yaml\n  - specs/store.yaml\n');
  const config = await loadConfig(configFile);
  const catalog = new Catalog();
  const logs: string[] = [];
  const socket = join(dir, 'ctl.sock');
  const services = await DaemonServices.start({
    config,
    catalog,
    reload: () => loadConfig(configFile),
    context: () => {
      throw new Error('no tools in this test');
    },
    socket,
    log: (line) => logs.push(line),
  });
  const events: CatalogChange[] = [];
  const off = services.events.onCatalogChanged((e) => events.push(e));
  try {
    assert.equal(services.socketPath, socket);
    const loading = await services.status();
    assert.deepEqual(loading.specs.map((s) => s.state), ['loading', 'loading']);

    const outcomes = await Promise.all(config.specs.map((s) => importSpec(s.path, { name: s.name, collection: s.collection })));
    catalog.replace(outcomes.flatMap((o) => (o.ok ? [o.spec] : [])));
    await services.seed(config, outcomes);
    assert.deepEqual((await services.status()).specs.map((s) => s.state), ['ok', 'ok']);

    // Nothing changed: no event.
    await services.update();
    assert.equal(events.length, 0);

    // An edit is pending (seen by the watcher, confirmed on disk) until the update applies it.
    write('specs/pets.yaml', openapi('Pets', [PETS[0]!]));
    await until(async () => health(await services.status(), 'pets').state === 'pending');
    assert.deepEqual(health(await services.status(), 'pets').pending, [pets]);
    assert.match(logs.join('\n'), /pets\.yaml changed \(spec pets\)/);
    await services.update();
    assert.equal(health(await services.status(), 'pets').state, 'ok');
    assert.equal(events.length, 1);
    assert.equal(events[0]!.endpointsChanged, true);
    assert.equal(events[0]!.specsChanged, false);
    assert.equal(events[0]!.generation, catalog.generation);

    // Removing a spec from svc.yaml is an event that says the lists of specs changed.
    write('svc.yaml', 'specs:\n  - specs/pets.yaml\n');
    await services.update();
    assert.equal(events.length, 2);
    assert.equal(events[1]!.specsChanged, true);
    assert.equal(events[1]!.endpointsChanged, true);
    assert.match(events[1]!.message, /store/);
    assert.deepEqual((await services.status()).specs.map((s) => s.name), ['pets']);

    // A file no spec reads any more is not reported.
    write('specs/store.yaml', openapi('Store', []));
    await sleep(600);
    assert.deepEqual((await services.status()).totals.pending, 0);

    // Adding a spec back is an event too.
    write('svc.yaml', 'specs:\n  - specs/pets.yaml\n  - specs/store.yaml\n');
    await services.update();
    assert.equal(events.length, 3);
    assert.equal(events[2]!.specsChanged, true);
  } finally {
    off();
    await services.close();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(existsSync(socket), false, 'close removes the socket');
});
