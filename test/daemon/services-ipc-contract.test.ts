// The daemon's control side from its contract, in this process: DaemonServices with a real
// catalogue, the real importer and tools, the real IPC socket and client, real files and the real
// watcher. What `svc status`, `svc update`, `svc list/search/inspect` answer, where the socket is,
// what the watcher reports before and after the first import, and what an update tells listeners.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { Config } from '../../src/config/types.ts';
import { FileDigests } from '../../src/daemon/digests.ts';
import type { CatalogChange } from '../../src/daemon/events.ts';
import { DaemonServices, type DaemonServicesOptions } from '../../src/daemon/services.ts';
import { SVC_VERSION } from '../../src/daemon/version.ts';
import type { ImportFn } from '../../src/daemon/update.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import { request } from '../../src/ipc/client.ts';
import { openapi, until } from './support.ts';

const HANG_MS = 60_000;
const skip = process.platform === 'win32' ? 'Unix sockets only' : false;

const PETS = [
  { method: 'GET', path: '/pets', summary: 'List pets', tag: 'pets' },
  { method: 'POST', path: '/pets', summary: 'Add a pet', tag: 'pets' },
  { method: 'GET', path: '/admin', summary: 'Admin page', tag: 'admin' },
];
const STORE = [{ method: 'GET', path: '/orders', summary: 'List orders', tag: 'orders' }];

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Setup {
  readonly dir: string;
  readonly configFile: string;
  readonly config: Config;
  readonly catalog: Catalog;
  readonly services: DaemonServices;
  readonly logs: string[];
  write(rel: string, text: string): string;
  /** The first import, as serve does it: into the catalogue, then seeded. */
  seed(): Promise<void>;
}

async function setup(options: Partial<DaemonServicesOptions> = {}, yaml = ''): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-services-ipc-'));
  dirs.push(dir);
  const write = (rel: string, text: string): string => {
    const file = join(dir, rel);
    writeFileSync(file, text);
    return file;
  };
  write('pets.yaml', openapi('Pets', PETS));
  write('store.yaml', openapi('Store', STORE));
  const configFile = write('svc.yaml', `${yaml}specs:\n  - path: pets.yaml\n  - path: store.yaml\n    collection: shop\n`);
  const config = await loadConfig(configFile);
  const catalog = new Catalog();
  const logs: string[] = [];
  let session = { catalog, config, invoker: createInvoker(config) };
  const services = await DaemonServices.start({
    config,
    catalog,
    reload: () => loadConfig(configFile),
    context: () => session,
    onConfigChanged: (next) => (session = { catalog, config: next, invoker: createInvoker(next) }),
    socket: join(dir, 'ctl.sock'),
    env: { XDG_RUNTIME_DIR: dir },
    log: (line) => logs.push(line),
    ...options,
  });
  return {
    dir,
    configFile,
    config,
    catalog,
    services,
    logs,
    write,
    async seed() {
      const outcomes = await Promise.all(config.specs.map((s) => importSpec(s.path, { name: s.name, collection: s.collection })));
      catalog.replace(outcomes.flatMap((o) => (o.ok ? [o.spec] : [])));
      await services.seed(config, outcomes);
    },
  };
}

/** A remote error's code and message, as the CLI shows them. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return 'no error';
}

describe('daemon services over the control socket', { skip, timeout: HANG_MS }, () => {
  it('list picks endpoint_by_tag, endpoint_by_collection or endpoint_by_spec from its arguments and passes the rest on', { timeout: HANG_MS }, async () => {
    const s = await setup();
    try {
      await s.seed();
      const sock = s.services.socketPath;
      const text = async (params: Record<string, unknown>): Promise<string> => (await request(sock, 'list', params)).text;
      assert.equal(await text({ tag: 'pets' }), '2 endpoints tagged pets\npets:GET:/pets - List pets\npets:POST:/pets - Add a pet');
      // The spec narrows a tag listing: pets has no tag `orders` within spec pets, store has.
      assert.equal(await text({ tag: 'orders', spec: 'store' }), '1 endpoints tagged orders in spec store\nstore:GET:/orders - List orders');
      assert.match(await text({ tag: 'orders', spec: 'pets' }), /^unknown tag "orders"/);
      assert.equal(await text({ collection: 'shop' }), '1 endpoints in collection shop\nstore:GET:/orders - List orders');
      // A collection listing ignores spec (endpoint_by_collection has none).
      assert.equal(await text({ collection: 'shop', spec: 'pets' }), '1 endpoints in collection shop\nstore:GET:/orders - List orders');
      assert.equal(await text({ spec: 'store' }), '1 endpoints in spec store\nstore:GET:/orders - List orders');
      const specs = '2 specs; pass spec to list its endpoints\npets: 3 endpoints, collection default, "Pets"\nstore: 1 endpoints, collection shop, "Store"';
      // No tag, an empty one, one that is not a text, an empty collection: the list of specs.
      for (const params of [{}, { tag: '' }, { tag: 5 }, { collection: '' }, { collection: 7 }]) assert.equal(await text(params), specs, JSON.stringify(params));
      // The other arguments reach the tool: a page of one.
      const page = await request(sock, 'list', { limit: 1 });
      assert.match(page.text, /^1-1 of 2 specs; pass spec to list its endpoints\npets: 3 endpoints/);
      assert.equal(typeof page.structured?.['nextCursor'], 'string');
      const tagPage = await request(sock, 'list', { tag: 'pets', limit: 1 });
      assert.match(tagPage.text, /^1-1 of 2 endpoints tagged pets\npets:GET:\/pets - List pets\nmore: cursor=/);
      const collectionPage = await request(sock, 'list', { collection: 'shop', limit: 1 });
      assert.match(collectionPage.text, /^1 endpoints in collection shop/);
      // The JSON the tool returns comes along; an error the tool reports is marked as one.
      assert.deepEqual(
        (await request(sock, 'list', { spec: 'store' })).structured?.['endpoints'],
        [{ id: 'store:GET:/orders', method: 'GET', path: '/orders', spec: 'store', tags: ['orders'], deprecated: false, summary: 'List orders' }],
      );
      const unknown = await request(sock, 'inspect', { endpointId: 'nope:GET:/x' });
      assert.equal(unknown.isError, true);
      assert.match(unknown.text, /^unknown endpoint id "nope:GET:\/x"/);
      const found = await request(sock, 'inspect', { endpointId: 'pets:GET:/pets' });
      assert.equal(found.isError, undefined);
      assert.match(found.text, /List pets/);
    } finally {
      await s.services.close();
    }
  });

  it('bad arguments are refused with the tool, the argument and what is wrong, and the daemon keeps answering', { timeout: HANG_MS }, async () => {
    const s = await setup();
    try {
      await s.seed();
      const sock = s.services.socketPath;
      assert.equal(await refusal(request(sock, 'search', {})), 'bad-params: search: query: query must be a text, e.g. "create issue"');
      assert.equal(await refusal(request(sock, 'search', { query: 'pets', bogus: 1 })), 'bad-params: search: input: Unrecognized key: "bogus"');
      assert.equal(await refusal(request(sock, 'list', { limit: 'x' })), 'bad-params: endpoint_by_spec: limit: limit must be a number');
      assert.equal(await refusal(request(sock, 'list', { tag: 'pets', limit: 0 })), 'bad-params: endpoint_by_tag: limit: limit must be at least 1');
      assert.equal(await refusal(request(sock, 'inspect', { endpointId: 'pets:GET:/pets', depth: 'deep' })), 'bad-params: inspect: depth: depth must be a number');
      assert.match((await request(sock, 'search', { query: 'orders' })).text, /^1 matches for "orders", best first\nstore:GET:\/orders - List orders$/);
    } finally {
      await s.services.close();
    }
  });

  it('status says the version, the transport once set, the last update and the sessions the transport counts', { timeout: HANG_MS }, async () => {
    const s = await setup();
    try {
      const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
      assert.equal(SVC_VERSION, version);
      const ping = await request(s.services.socketPath, 'ping');
      assert.equal(ping.version, version);

      const first = await s.services.status();
      assert.equal(first.transport, 'starting');
      assert.equal(first.version, version);
      assert.equal(first.loading, true);
      assert.deepEqual(first.specs.map((x) => [x.name, x.state, x.endpoints]), [['pets', 'loading', 0], ['store', 'loading', 0]]);
      assert.equal('url' in first, false);
      assert.equal('auth' in first, false);
      assert.equal('lastUpdate' in first, false);
      assert.equal('updating' in first, false);
      assert.equal(first.sessions, 0);
      assert.equal(first.pendingConfig, false);

      s.services.setTransport({ transport: 'stdio' });
      const stdio = await s.services.status();
      assert.equal(stdio.transport, 'stdio');
      assert.equal('url' in stdio, false);
      assert.equal('auth' in stdio, false);

      s.services.setTransport({ transport: 'http', url: 'http://127.0.0.1:1/mcp', auth: 'no authentication (serve.auth: none)', sessions: () => 7 });
      await s.seed();
      const http = await s.services.status();
      assert.equal(http.transport, 'http');
      assert.equal(http.url, 'http://127.0.0.1:1/mcp');
      assert.equal(http.auth, 'no authentication (serve.auth: none)');
      assert.equal(http.sessions, 7);
      assert.equal(http.loading, false);
      assert.deepEqual(http.specs.map((x) => [x.name, x.state, x.endpoints]), [['pets', 'ok', 3], ['store', 'ok', 1]]);

      const result = await s.services.update();
      const after = await s.services.status();
      assert.deepEqual(after.lastUpdate, result);
      assert.equal(after.lastUpdate?.generation, s.catalog.generation);
      assert.deepEqual((await request(s.services.socketPath, 'status')).lastUpdate?.generation, result.generation);
    } finally {
      await s.services.close();
    }
  });

  it('the socket is the one svc.yaml names, else one in the runtime folder of the environment given', { timeout: HANG_MS }, async () => {
    const named = await setup({ socket: undefined }, 'socket: named.sock\n');
    try {
      assert.equal(named.services.socketPath, join(named.dir, 'named.sock'));
      assert.equal((await request(join(named.dir, 'named.sock'), 'ping')).pid, process.pid);
    } finally {
      await named.services.close();
    }
    assert.equal(existsSync(join(named.dir, 'named.sock')), false, 'close removes the socket');
    const runtime = await setup({ socket: undefined });
    try {
      assert.ok(runtime.services.socketPath.startsWith(join(runtime.dir, 'svc') + '/'), runtime.services.socketPath);
      assert.equal((await request(runtime.services.socketPath, 'ping')).config, runtime.configFile);
    } finally {
      await runtime.services.close();
    }
  });

  it('without the watcher, status, update and close work and a change is not reported', { timeout: HANG_MS }, async () => {
    const s = await setup({ watch: false });
    try {
      // A second daemon on the same socket is refused and leaves the first one serving.
      const second = await refusal(
        DaemonServices.start({ config: s.config, catalog: new Catalog(), reload: () => loadConfig(s.configFile), context: () => assert.fail('no tools'), socket: join(s.dir, 'ctl.sock'), watch: false, log: () => {} }),
      );
      assert.match(second, /^daemon-running: /);
      s.write('pets.yaml', openapi('Pets', PETS.slice(0, 1)));
      const loading = await s.services.status();
      assert.deepEqual(loading.specs.map((x) => x.pending), [[], []]);
      assert.equal(loading.pendingConfig, false);
      await s.seed();
      s.write('store.yaml', openapi('Store', []));
      s.write('svc.yaml', 'specs:\n  - path: pets.yaml\n  - path: store.yaml\n    collection: shop\n');
      await sleep(500);
      const status = await s.services.status();
      assert.equal(status.totals.pending, 0);
      assert.equal(status.pendingConfig, false);
      assert.deepEqual(s.logs, []);
      const result = await s.services.update();
      assert.deepEqual(result.specs.map((x) => [x.name, x.state]), [['pets', 'unchanged'], ['store', 'changed']]);
      await s.services.stopWatching();
    } finally {
      await s.services.close();
    }
  });

  it('before the first import every change counts; after it only a file that differs from what is served, reported again once an update applied it', { timeout: HANG_MS }, async () => {
    const s = await setup();
    try {
      // Before seeding there is nothing to compare with: an edit shows pending at once.
      // (Written again until seen: the watcher's first scan may still be running.)
      let edits = 0;
      const pets = join(s.dir, 'pets.yaml');
      await until(async () => {
        if ((await s.services.status()).specs[0]!.pending.length > 0) return true;
        if (edits++ % 20 === 0) s.write('pets.yaml', openapi('Pets', PETS.slice(0, 1 + (edits % 2))));
        return false;
      }, 20_000, 'pets pending before the first import');
      const loading = await s.services.status();
      assert.deepEqual(loading.specs.map((x) => [x.name, x.state, x.pending]), [['pets', 'loading', [pets]], ['store', 'loading', []]]);
      await s.seed();
      await s.services.update();
      assert.equal((await s.services.status()).totals.pending, 0);
      const reported = (): number => s.logs.filter((l) => l.startsWith(`${pets} changed (spec pets)`)).length;
      assert.equal(reported(), 1);

      // Touched (same bytes, new time) beside a real change elsewhere: only the real one is reported.
      const later = new Date(Date.now() + 5_000);
      utimesSync(pets, later, later);
      const store = s.write('store.yaml', openapi('Store', [...STORE, { method: 'DELETE', path: '/orders' }]));
      await until(() => s.logs.some((l) => l.startsWith(`${store} changed (spec store)`)), 10_000, 'store reported');
      await sleep(400);
      assert.equal(reported(), 1, s.logs.join('\n'));
      assert.deepEqual((await s.services.status()).specs.map((x) => x.pending), [[], [store]]);

      // Applied by an update: the next edit of pets is news again and is logged again.
      await s.services.update();
      s.write('pets.yaml', openapi('Pets', PETS));
      await until(() => reported() === 2, 10_000, 'pets reported again after the update');
      await s.services.stopWatching();
      s.write('store.yaml', openapi('Store', STORE));
      await sleep(500);
      assert.equal(s.logs.filter((l) => l.startsWith(`${store} changed`)).length, 1, 'nothing is reported once watching stopped');
    } finally {
      await s.services.close();
    }
  });

  it('an update that only changes what an endpoint says is an event; a changed svc.yaml reaches onConfigChanged once', { timeout: HANG_MS }, async () => {
    const configs: Config[] = [];
    const s = await setup({ onConfigChanged: (c) => configs.push(c) });
    const events: CatalogChange[] = [];
    const off = s.services.events.onCatalogChanged((e) => events.push(e));
    try {
      await s.seed();
      await s.services.update();
      assert.deepEqual([events.length, configs.length], [0, 0], 'nothing changed: no event, the same config');
      s.write('pets.yaml', openapi('Pets', [{ ...PETS[0]!, summary: 'List every pet' }, PETS[1]!, PETS[2]!]));
      const result = await s.services.update();
      assert.deepEqual(result.specs.map((x) => [x.name, x.added.count, x.removed.count, x.changed.count]), [['pets', 0, 0, 1], ['store', 0, 0, 0]]);
      assert.equal(events.length, 1);
      assert.deepEqual([events[0]!.endpointsChanged, events[0]!.specsChanged, events[0]!.generation], [true, false, result.generation]);
      assert.equal(configs.length, 0);
      assert.ok(s.logs.some((l) => l.startsWith('update: pets changed')), s.logs.join('\n'));

      s.write('svc.yaml', 'specs:\n  - path: pets.yaml\n    headers:\n      X-Team: blue\n  - path: store.yaml\n    collection: shop\n');
      await s.services.update();
      assert.equal(configs.length, 1);
      assert.equal(configs[0]!.specs[0]!.name, 'pets');
      assert.deepEqual(configs[0], await loadConfig(s.configFile));
      assert.equal(events.length, 1, 'a config change alone changes no endpoint');
      await s.services.update();
      assert.equal(configs.length, 1, 'the same svc.yaml again is no change');
    } finally {
      off();
      await s.services.close();
    }
  });

  it('while an update runs, status shows its progress and the callers waiting for the next one; the event-loop figures cover updates', { timeout: HANG_MS }, async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inImport = new Promise<void>((resolve) => (entered = resolve));
    const gated: ImportFn = async (file, options) => {
      entered();
      await gate;
      return importSpec(file, options);
    };
    const s = await setup({ importSpec: gated });
    try {
      await s.seed();
      assert.equal((await s.services.status()).eventLoop?.updates, undefined);
      s.write('pets.yaml', openapi('Pets', PETS.slice(0, 1)));
      const first = s.services.update();
      await inImport;
      const second = request(s.services.socketPath, 'update');
      const third = s.services.update();
      await until(async () => (await s.services.status()).updating?.waiting === 2, 10_000, 'two callers waiting');
      const status = await s.services.status();
      assert.deepEqual({ ...status.updating, startedAt: 0 }, { startedAt: 0, done: 0, total: 1, spec: 'pets', waiting: 2 });
      assert.ok(status.updating!.startedAt <= Date.now() && status.updating!.startedAt > Date.now() - 60_000);
      await sleep(50);
      release();
      const [a, b, c] = await Promise.all([first, second, third]);
      assert.equal(a.specs[0]!.state, 'changed');
      assert.equal(b.generation, c.generation, 'the two waiting callers share one run');
      assert.equal((await s.services.status()).updating, undefined);
      const loop = (await s.services.status()).eventLoop;
      assert.ok(loop?.updates, 'updates ran: their event-loop figures are reported');
    } finally {
      release();
      await s.services.close();
    }
  });

  it('the file digests given are the ones the first import primes (the memo the next start reads)', { timeout: HANG_MS }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-services-memo-'));
    dirs.push(dir);
    // A clock well after the files were written: their digests are settled, so remembered (see digests-racy.test.ts).
    const digests = new FileDigests({ memo: join(dir, 'digests.json'), now: () => Date.now() + 60_000 });
    const s = await setup({ digests });
    try {
      await s.seed();
      await digests.persist();
      const memo = JSON.parse(readFileSync(join(dir, 'digests.json'), 'utf8')) as { files: [string, string, string][] };
      assert.deepEqual(memo.files.map((row) => row[0]).sort(), [join(s.dir, 'pets.yaml'), join(s.dir, 'store.yaml')]);
    } finally {
      await s.services.close();
    }
  });
});
