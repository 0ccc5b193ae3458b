// The import worker's job handling from its contract (see WorkerMessage in import-pool.ts), run in
// this process over a real MessageChannel, with real spec files and a real snapshot folder: a good
// spec comes back as its core, then a late part with its change fingerprints and either the
// snapshot file it wrote or the detail itself (with why no file was written); a bad spec as the
// importer's failure; a spec whose documents cannot be encoded as `inline` (the daemon imports it
// itself) or as a late part that says why; a job that throws still gets an answer. Whatever the
// worker sends must serve exactly what a fresh import serves.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { fingerprintList } from '../../src/daemon/diff.ts';
import type { ImportJob, LateReply, WorkerMessage } from '../../src/daemon/import-pool.ts';
import { serveJobs, type JobPort } from '../../src/daemon/import-worker.ts';
import { importSpec, type ImportOptions } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { decodeCore, readSnapshot, specFromCore, type DetailSource } from '../../src/snapshot/index.ts';
import { served, temp } from '../snapshot/support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const MULTI = path.join(FIXTURES, 'multi-file/openapi.yaml');
const opts = (name: string): ImportOptions => ({ name, collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 });

const tmp = temp();
const ports: MessagePort[] = [];
after(() => {
  for (const p of ports) p.close();
  tmp.cleanup();
});

/** A YAML alias that contains itself in an extension: parsed fine, but no JSON can hold it (the detail cannot be written). */
const LOOP_IN_DOCUMENT = path.join(tmp.dir, 'loop.yaml');
writeFileSync(
  LOOP_IN_DOCUMENT,
  "openapi: 3.0.3\ninfo: {title: Loop, version: '1'}\nx-loop: &loop\n  self: *loop\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n",
);
/** The same inside a schema the importer makes itself (Swagger 2.0 form fields): not even the core can be written. */
const LOOP_IN_SCHEMA = path.join(tmp.dir, 'loop-form.yaml');
writeFileSync(
  LOOP_IN_SCHEMA,
  "swagger: '2.0'\ninfo: {title: Loop, version: '1'}\npaths:\n  /a:\n    post:\n      consumes: [application/x-www-form-urlencoded]\n      parameters:\n        - name: tags\n          in: formData\n          type: array\n          items: &i\n            type: array\n            items: *i\n      responses: {'200': {description: ok}}\n",
);
const BROKEN = path.join(tmp.dir, 'broken.yaml');
writeFileSync(BROKEN, 'openapi: 3.0.3\ninfo: [\n');

/** A handler on one end of a real channel; `next()` is the next message at the other end. */
function worker(wrap: (port: MessagePort) => JobPort = (p) => p): { send(job: ImportJob): void; next(): Promise<WorkerMessage>; quiet(ms: number): Promise<boolean> } {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  serveJobs(wrap(port1));
  const queue: WorkerMessage[] = [];
  let waiting: ((m: WorkerMessage) => void) | undefined;
  port2.on('message', (m: WorkerMessage) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(m);
    } else queue.push(m);
  });
  return {
    send: (job) => port2.postMessage(job),
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => (waiting = resolve))),
    // Whether nothing more came within `ms`.
    quiet: (ms) => new Promise((resolve) => setTimeout(() => resolve(queue.length === 0 && waiting === undefined), ms)),
  };
}

async function fresh(file: string, name: string): Promise<ImportedSpec> {
  const outcome = await importSpec(file, opts(name));
  assert.ok(outcome.ok);
  return outcome.spec;
}

/** The spec the worker's bytes describe, its detail from `source`. */
async function rebuilt(core: ArrayBuffer, source: DetailSource): Promise<ImportedSpec> {
  return specFromCore(await decodeCore(new Uint8Array(core)), source);
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const printsOf = (late: LateReply) => JSON.parse(Buffer.from(late.prints!).toString('utf8')) as unknown;

describe('the import worker, one job at a time', () => {
  it('sends the core of a good spec first, then its fingerprints and detail when no snapshot is asked for', async () => {
    const w = worker();
    w.send({ id: 1, file: MULTI, options: opts('multi') });
    const built = await w.next();
    assert.ok(built.kind === 'built', built.kind);
    assert.equal(built.id, 1);
    const late = await w.next();
    assert.ok(late.kind === 'late', late.kind);
    assert.equal(late.id, 1);
    assert.deepEqual(Object.keys(late.late).sort(), ['detail', 'prints', 'seen'], 'nothing written, and no reason needed when none was asked for');
    // The root file's digest, of the bytes imported, and its identity from before they were read.
    assert.equal(late.late.seen!.file, MULTI);
    assert.equal(late.late.seen!.digest, sha256(MULTI));
    assert.equal(late.late.seen!.identity.size, statSync(MULTI).size);
    const want = await fresh(MULTI, 'multi');
    const core = await decodeCore(new Uint8Array(built.core));
    // Each file's digest as read, for the next start to compare with the files as they are then.
    assert.deepEqual(core.meta.files, want.files);
    assert.ok(want.files.length > 1);
    assert.deepEqual(core.digests, want.files.map(sha256));
    assert.deepEqual(printsOf(late.late), fingerprintList(want));
    const spec = await rebuilt(built.core, { bytes: Buffer.from(late.late.detail!.bytes), parts: late.late.detail!.parts });
    assert.deepEqual(served(spec), served(want));
    assert.ok(await w.quiet(50), 'two messages per job');
  });

  it('writes the snapshot when asked: the file holds the core it sent, and no detail comes inline', async () => {
    const w = worker();
    const dir = path.join(tmp.dir, 'snaps');
    w.send({ id: 2, file: MULTI, options: opts('multi'), snapshot: { dir, key: 'k-multi' } });
    const built = await w.next();
    assert.ok(built.kind === 'built');
    const late = await w.next();
    assert.ok(late.kind === 'late');
    assert.deepEqual(Object.keys(late.late).sort(), ['prints', 'seen', 'written']);
    const written = late.late.written!;
    assert.equal(written.file, path.join(dir, 'k-multi.snap'));
    const read = await readSnapshot(dir, 'k-multi');
    assert.ok(read.ok, JSON.stringify(read));
    assert.ok(read.core.equals(Buffer.from(built.core)), 'the file holds the very core the daemon got');
    assert.deepEqual(JSON.parse(read.prints.toString('utf8')), printsOf(late.late));
    assert.deepEqual({ coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts }, { coreOffset: written.coreOffset, detailOffset: written.detailOffset, parts: written.parts });
    const spec = await rebuilt(built.core, { file: written.file, coreOffset: written.coreOffset, detailOffset: written.detailOffset, parts: written.parts });
    assert.deepEqual(served(spec), served(await fresh(MULTI, 'multi')));
  });

  it('keeps the detail inline with the write error when the snapshot folder cannot be written', async () => {
    const w = worker();
    const blocked = path.join(tmp.dir, 'a-file');
    writeFileSync(blocked, '');
    w.send({ id: 3, file: MULTI, options: opts('multi'), snapshot: { dir: path.join(blocked, 'snaps'), key: 'k' } });
    const built = await w.next();
    assert.ok(built.kind === 'built');
    const late = await w.next();
    assert.ok(late.kind === 'late');
    assert.deepEqual(Object.keys(late.late).sort(), ['detail', 'prints', 'seen', 'writeError']);
    assert.match(late.late.writeError!, /ENOTDIR|EEXIST|not a directory/);
    assert.ok(late.late.writeError!.includes(blocked), late.late.writeError);
    const spec = await rebuilt(built.core, { bytes: Buffer.from(late.late.detail!.bytes), parts: late.late.detail!.parts });
    assert.deepEqual(served(spec), served(await fresh(MULTI, 'multi')));
    assert.deepEqual(printsOf(late.late), fingerprintList(await fresh(MULTI, 'multi')));
  });

  it('answers a spec that does not import with the importer\'s own failure, and nothing after it', async () => {
    const w = worker();
    w.send({ id: 4, file: BROKEN, options: opts('broken') });
    const failed = await w.next();
    assert.ok(failed.kind === 'failed', failed.kind);
    assert.equal(failed.id, 4);
    assert.deepEqual(failed.outcome, await importSpec(BROKEN, opts('broken')));
    assert.ok(await w.quiet(50));
  });

  it('a spec whose documents no JSON can hold is served from its core, and the late part brings its fingerprints and says why no detail came', async () => {
    for (const snapshot of [undefined, { dir: path.join(tmp.dir, 'loop-snaps'), key: 'loop' }]) {
      const w = worker();
      w.send({ id: 5, file: LOOP_IN_DOCUMENT, options: opts('loop'), ...(snapshot ? { snapshot } : {}) });
      const built = await w.next();
      assert.ok(built.kind === 'built', built.kind);
      const late = await w.next();
      assert.ok(late.kind === 'late');
      assert.deepEqual(Object.keys(late.late).sort(), ['prints', 'seen', 'writeError'], 'the fingerprints, and no detail');
      assert.deepEqual(printsOf(late.late), fingerprintList(await fresh(LOOP_IN_DOCUMENT, 'loop')));
      assert.match(late.late.writeError!, /^cannot encode: Converting circular structure to JSON/);
      assert.equal(existsSync(path.join(tmp.dir, 'loop-snaps', 'loop.snap')), false);
    }
  });

  it('a spec whose own schemas no JSON can hold comes back inline, so the daemon imports it itself', async () => {
    const w = worker();
    w.send({ id: 6, file: LOOP_IN_SCHEMA, options: opts('form'), snapshot: { dir: path.join(tmp.dir, 'form-snaps'), key: 'form' } });
    const inline = await w.next();
    assert.ok(inline.kind === 'inline', inline.kind);
    assert.equal(inline.id, 6);
    assert.match(inline.reason, /^cannot encode: Converting circular structure to JSON/);
    assert.ok(await w.quiet(50));
  });

  it('a job that throws before its core went comes back inline with the error', async () => {
    const w = worker();
    w.send({ id: 7, file: 42 as unknown as string, options: opts('n') });
    const inline = await w.next();
    assert.equal(inline.kind, 'inline');
    assert.equal(inline.id, 7);
    assert.match((inline as { reason: string }).reason, /^worker error: The "paths\[0\]" argument must be of type string/);
  });

  it('a job that throws after its core went owes only its late part, which says why', async () => {
    let refused = false;
    // A channel that refuses the first late part (as a closed one would).
    const w = worker((port) => ({
      on: port.on.bind(port),
      postMessage(message: WorkerMessage, transfer?: ArrayBuffer[]) {
        if (message.kind === 'late' && !refused) {
          refused = true;
          throw new Error('the channel refused it');
        }
        port.postMessage(message, transfer);
      },
    }) as JobPort);
    w.send({ id: 8, file: MULTI, options: opts('multi') });
    assert.equal((await w.next()).kind, 'built');
    assert.deepEqual(await w.next(), { id: 8, kind: 'late', late: { writeError: 'worker error: the channel refused it' } });
  });
});
