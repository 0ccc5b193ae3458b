// `svc status` data built in this process from a real Updater over real files (buildStatus), the
// catalogue-change fan-out (CatalogEvents) and the file digests behind `svc update`'s "unchanged?"
// check (FileDigests): each from its contract.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { FileDigests } from '../../src/daemon/digests.ts';
import { CatalogEvents, type CatalogChange } from '../../src/daemon/events.ts';
import { setLoadNote } from '../../src/daemon/load-notes.ts';
import { Metrics } from '../../src/daemon/metrics.ts';
import { buildStatus } from '../../src/daemon/status.ts';
import { Updater } from '../../src/daemon/update.ts';
import { importSpec } from '../../src/import/index.ts';
import { PROTOCOL_VERSION } from '../../src/ipc/protocol.ts';
import { openapi } from './support.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 15_000;

describe('buildStatus', { timeout: HANG_MS }, () => {
  let dir: string;
  let updater: Updater;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-status-'));
    writeFileSync(join(dir, 'pets.yaml'), openapi('Pets', [
      { method: 'GET', path: '/pets', summary: 'List' },
      { method: 'POST', path: '/pets', summary: 'Add', deprecated: true },
      { method: 'DELETE', path: '/pets/{id}', summary: 'Remove', deprecated: true },
    ]));
    writeFileSync(join(dir, 'store.yaml'), openapi('Store', [{ method: 'GET', path: '/orders' }]));
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.0.3\ninfo: [\n');
    writeFileSync(join(dir, 'svc.yaml'), 'specs:\n  - path: pets.yaml\n    collection: zoo\n  - store.yaml\n  - broken.yaml\n');
    updater = new Updater({ catalog: new Catalog(), reload: () => loadConfig(join(dir, 'svc.yaml')), importSpec });
    await updater.update();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const input = (over: Partial<Parameters<typeof buildStatus>[0]> = {}): Parameters<typeof buildStatus>[0] => ({
    pid: 7, version: '9.9.9', startedAt: Date.now() - 5000, transport: 'stdio', socket: '/s.sock', config: join(dir, 'svc.yaml'),
    states: updater.states, pending: { specs: new Map(), config: false }, sessions: 3, metrics: new Metrics(), loading: false,
    ...over,
  });

  it('lists each spec with its format, counts, collection, state and errors, and totals that add up', { timeout: HANG_MS }, () => {
    const status = buildStatus(input());
    assert.equal(status.protocol, PROTOCOL_VERSION);
    assert.deepEqual([status.pid, status.version, status.transport, status.socket, status.sessions], [7, '9.9.9', 'stdio', '/s.sock', 3]);
    assert.ok(status.uptimeMs >= 5000 && status.uptimeMs < 60_000, `uptime ${status.uptimeMs}`);
    const [pets, store, broken] = status.specs;
    assert.deepEqual(
      { ...pets, indexedAt: typeof pets!.indexedAt },
      { name: 'pets', file: join(dir, 'pets.yaml'), format: 'openapi-3.0', formatVersion: '3.0.3', version: '1.0', title: 'Pets', collection: 'zoo', endpoints: 3, deprecated: 2, indexedAt: 'number', state: 'ok', errors: [], pending: [] },
    );
    assert.equal(store!.endpoints, 1);
    assert.equal(store!.deprecated, 0);
    assert.equal(broken!.state, 'failed');
    assert.equal(broken!.endpoints, 0);
    assert.equal('indexedAt' in broken!, false, 'never imported: no time');
    assert.equal('format' in broken!, false);
    assert.ok(broken!.errors.length > 0);
    assert.equal(broken!.errors[0]!.file, join(dir, 'broken.yaml'));
    assert.deepEqual(status.totals, { specs: 3, endpoints: 4, deprecated: 2, failed: 1, pending: 0 });
    assert.equal('url' in status, false);
    assert.equal('auth' in status, false);
    assert.equal('lastUpdate' in status, false);
    assert.equal('updating' in status, false);
    assert.equal(status.pendingConfig, false);
    assert.equal(status.loading, false);
    assert.ok(status.memory.rss > 0 && status.memory.heapUsed > 0 && status.memory.heapTotal >= status.memory.heapUsed);
    assert.ok(status.eventLoop !== undefined);
  });

  it('shows pending changes per spec and for the config, loading over every other state, and what the caller adds', { timeout: HANG_MS }, () => {
    const metrics = new Metrics();
    metrics.toolCall('search', 5, true);
    const lastUpdate = updater.lastResult!;
    const updating = { startedAt: 1, done: 1, total: 2, waiting: 0 };
    const pets = updater.states.find((s) => s.config.name === 'pets')!.serving!;
    setLoadNote(pets, 'loaded from snapshot');
    const status = buildStatus(input({ pending: { specs: new Map([['store', ['/x/store.yaml']]]), config: true }, url: 'http://h', auth: 'a', metrics, lastUpdate, updating }));
    assert.deepEqual(status.specs.map((s) => s.state), ['ok', 'pending', 'failed']);
    assert.deepEqual(status.specs[1]!.pending, ['/x/store.yaml']);
    assert.equal(status.specs[0]!.snapshot, 'loaded from snapshot');
    assert.equal('snapshot' in status.specs[1]!, false);
    assert.equal(status.totals.pending, 1);
    assert.equal(status.pendingConfig, true);
    assert.deepEqual([status.url, status.auth], ['http://h', 'a']);
    assert.equal(status.lastUpdate, lastUpdate);
    assert.deepEqual(status.updating, updating);
    assert.equal(status.toolCalls.count, 1);
    assert.deepEqual(Object.keys(status.toolCalls.byTool), ['search']);
    const loading = buildStatus(input({ loading: true, pending: { specs: new Map([['store', ['/x']]]), config: false } }));
    assert.deepEqual(loading.specs.map((s) => s.state), ['loading', 'loading', 'loading']);
    assert.equal(loading.loading, true);
    assert.equal(loading.totals.failed, 0);
  });
});

describe('CatalogEvents', { timeout: HANG_MS }, () => {
  const change: CatalogChange = { message: 'm', generation: 2, endpointsChanged: true, specsChanged: false };

  it('tells every listener, even after one throws, and stops telling one that unsubscribed', { timeout: HANG_MS }, () => {
    const events = new CatalogEvents();
    const heard: string[] = [];
    events.onCatalogChanged(() => heard.push('a'));
    events.onCatalogChanged(() => {
      throw new Error('broken session');
    });
    const off = events.onCatalogChanged((c) => heard.push(`c${c.generation}`));
    assert.equal(events.listeners, 3);
    events.emit(change);
    assert.deepEqual(heard, ['a', 'c2']);
    off();
    assert.equal(events.listeners, 2);
    events.emit({ ...change, generation: 3 });
    assert.deepEqual(heard, ['a', 'c2', 'a']);
  });
});

describe('FileDigests', { timeout: HANG_MS }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-digests-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

  it('is the sha256 of the bytes, and the spec hash is the sha256 over the file digests in order, as the importer records', { timeout: HANG_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 4 }), async (contents) => {
        const digests = new FileDigests();
        const files = contents.map((c, i) => {
          const f = join(dir, `f${i}.bin`);
          writeFileSync(f, c);
          return f;
        });
        for (const [i, f] of files.entries()) assert.equal(await digests.digest(f), sha(Buffer.from(contents[i]!)));
        const expected = createHash('sha256');
        for (const c of contents) expected.update(sha(Buffer.from(c)));
        assert.equal(await digests.specHash(files), expected.digest('hex'));
      }),
      { numRuns: 40 },
    );
  });

  it('matches the hash an import records for the same files', { timeout: HANG_MS }, async () => {
    const spec = join(dir, 'pets.yaml');
    writeFileSync(spec, openapi('Pets', [{ method: 'GET', path: '/pets' }]));
    const outcome = await importSpec(spec, { name: 'pets', collection: 'default' } as Parameters<typeof importSpec>[1]);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(await new FileDigests().specHash(outcome.spec.files), outcome.spec.hash);
  });

  it('reads a file again when it changed, even at the same size, and says undefined once it is gone', { timeout: HANG_MS }, async () => {
    const digests = new FileDigests();
    const f = join(dir, 'same-size.txt');
    writeFileSync(f, 'aaaa');
    assert.equal(await digests.digest(f), sha('aaaa'));
    writeFileSync(f, 'bbbb');
    const later = new Date(Date.now() + 5000);
    utimesSync(f, later, later);
    assert.equal(await digests.digest(f), sha('bbbb'));
    unlinkSync(f);
    assert.equal(await digests.digest(f), undefined);
    assert.equal(await digests.specHash([join(dir, 'f0.bin'), f]), undefined, 'a spec with a file gone has no hash');
    writeFileSync(f, 'aaaa');
    assert.equal(await digests.digest(f), sha('aaaa'), 'forgotten when gone: read again when back');
  });

  it('sees a write of the same size even with the times put back (the change time moves), and keeps what retain names', { timeout: HANG_MS }, async () => {
    const digests = new FileDigests();
    const f = join(dir, 'cached.txt');
    writeFileSync(f, 'one');
    assert.equal(await digests.digest(f), sha('one'));
    const { mtime, atime } = statSync(f);
    writeFileSync(f, 'two');
    utimesSync(f, atime, mtime);
    assert.equal(await digests.digest(f), sha('two'));
    digests.retain(new Set([f]));
    assert.equal(await digests.digest(f), sha('two'));
    digests.retain(new Set());
    assert.equal(await digests.digest(f), sha('two'));
  });

  it('a folder in place of a file cannot be read: undefined', { timeout: HANG_MS }, async () => {
    assert.equal(await new FileDigests().digest(dir), undefined);
  });
});
