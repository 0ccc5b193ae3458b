// The spec loader from its contract, in this process, with the real import worker thread, real spec
// files and a real snapshot folder: whatever path a spec takes (its snapshot, the worker, this
// thread), it serves what a fresh import serves, and its one-line note (`svc status`) says which
// path and why: no snapshot yet, files changed, a file gone, a damaged or tampered snapshot, a
// folder that cannot be written, a worker that cannot encode the spec, a daemon shutting down.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ColdStart } from '../../src/daemon/cold-start.ts';
import { FileDigests } from '../../src/daemon/digests.ts';
import { loadNote } from '../../src/daemon/load-notes.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { importSpec, type ImportOptions } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { readSnapshot, snapshotFile, snapshotKey, writeSnapshot } from '../../src/snapshot/index.ts';
import { served, temp } from '../snapshot/support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const VERSION = '4.5.6';
const opts = (name: string): ImportOptions => ({ name, collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 });
const keyOf = (file: string, options: ImportOptions, svcVersion = VERSION) => snapshotKey({ svcVersion, importKey: JSON.stringify([file, options]) });

const tmp = temp();
const closing: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closing) await close();
  tmp.cleanup();
});

let copies = 0;
/** A copy of the multi-file fixture (its root file and six it refers to), to change at will. */
function multi(): string {
  return path.join(tmp.copy(path.join(FIXTURES, 'multi-file'), `multi-${copies++}`), 'openapi.yaml');
}

/** A new loader is a new daemon start; `cold` gives it a cold start (and so a pool to look at). */
function loader(dir: string | undefined, svcVersion = VERSION): { loader: SpecLoader; cold: ColdStart } {
  const cold = new ColdStart();
  const l = new SpecLoader({ dir, svcVersion, digests: new FileDigests(), coldStart: cold });
  closing.push(() => l.close());
  return { loader: l, cold };
}

async function fresh(file: string, options: ImportOptions): Promise<unknown> {
  const outcome = await importSpec(file, options);
  assert.ok(outcome.ok);
  return served(outcome.spec);
}

/** Loads as at start (`starting`) or as an update; the spec, and its note once its late part is in. */
async function load(l: SpecLoader, file: string, options: ImportOptions, starting = true): Promise<{ spec: ImportedSpec; note: string }> {
  const outcome = await l.load(file, options, starting);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  await l.settled();
  return { spec: outcome.spec, note: loadNote(outcome.spec) ?? '' };
}

/** Waits until `check` holds (a worker thread stops, a touch lands), failing after `ms`. */
async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the spec loader', () => {
  it('with snapshots off imports in the worker, at start and in an update, and says so', async () => {
    const file = multi();
    const { loader: l } = loader(undefined);
    for (const starting of [true, false]) {
      const { spec, note } = await load(l, file, opts('m'), starting);
      assert.equal(note, 'snapshots off; no snapshot');
      assert.deepEqual(served(spec), await fresh(file, opts('m')));
    }
    await l.prune(); // nothing to prune, and nothing to fail on
  });

  it('at start saves a snapshot of a spec that had none, serves the next start from it, and marks it used', async () => {
    const file = multi();
    const dir = path.join(tmp.dir, 'cache-start');
    const first = await load(loader(dir).loader, file, opts('m'));
    assert.equal(first.note, 'rebuilt: no snapshot yet; snapshot saved');
    const snap = snapshotFile(dir, keyOf(file, opts('m')));
    assert.ok(existsSync(snap));
    const old = new Date(Date.now() - 10 * 24 * 3600 * 1000);
    utimesSync(snap, old, old);
    const second = await load(loader(dir).loader, file, opts('m'));
    assert.equal(second.note, 'loaded from snapshot');
    const want = await fresh(file, opts('m'));
    assert.deepEqual(served(second.spec), want);
    assert.deepEqual(served(first.spec), want);
    await until(() => statSync(snap).mtimeMs > old.getTime() + 1000, 'the snapshot used is marked used');
  });

  it('an update imports from the files and saves the snapshot before it returns', async () => {
    const file = multi();
    const dir = path.join(tmp.dir, 'cache-update');
    const { loader: l } = loader(dir);
    const outcome = await l.load(file, opts('m'), false);
    assert.ok(outcome.ok);
    // No waiting for `settled`: an update has its late part (fingerprints, snapshot) when it returns.
    assert.equal(loadNote(outcome.spec), 'imported; snapshot saved');
    assert.ok(existsSync(snapshotFile(dir, keyOf(file, opts('m')))));
    assert.deepEqual(served(outcome.spec), await fresh(file, opts('m')));
  });

  it('keeps the worker\'s digest of a settled root file, so checking it later only stats it; a file just written is not kept', async () => {
    const settledFile = multi();
    // Older than the tenth of a second within which a write can leave its stat identity as it was.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const memo = path.join(tmp.dir, 'digests-memo', 'digests.json');
    const digests = new FileDigests({ memo });
    const l = new SpecLoader({ dir: undefined, svcVersion: VERSION, digests });
    closing.push(() => l.close());
    assert.ok((await l.load(settledFile, opts('s'), false)).ok);
    const racyFile = multi();
    assert.ok((await l.load(racyFile, opts('r'), false)).ok);
    await digests.persist();
    const rows = (JSON.parse(readFileSync(memo, 'utf8')) as { files: [string, string, string][] }).files;
    assert.deepEqual(
      rows.map(([file, , digest]) => [file, digest]),
      [[settledFile, createHash('sha256').update(readFileSync(settledFile)).digest('hex')]],
    );
  });

  it('rebuilds when a file changed, when a file it read is gone, for a new version and a changed config entry, and says which', async () => {
    const file = multi();
    const dir = path.join(tmp.dir, 'cache-stale');
    assert.equal((await load(loader(dir).loader, file, opts('m'))).note, 'rebuilt: no snapshot yet; snapshot saved');
    assert.equal((await load(loader(dir).loader, file, opts('m'))).note, 'loaded from snapshot');

    const pet = path.join(path.dirname(file), 'schemas/pet.yaml');
    writeFileSync(pet, `${readFileSync(pet, 'utf8')}\n# changed\n`);
    const changed = await load(loader(dir).loader, file, opts('m'));
    assert.equal(changed.note, 'rebuilt: files changed since the snapshot; snapshot saved');
    assert.deepEqual(served(changed.spec), await fresh(file, opts('m')));

    rmSync(path.join(path.dirname(file), 'schemas/common/owner.yaml'));
    const gone = await load(loader(dir).loader, file, opts('m'));
    assert.equal(gone.note, 'rebuilt: a file it read is gone; snapshot saved');
    // Served from the worker's bytes, a $ref to the missing file reads as a fresh import's does.
    assert.deepEqual(served(gone.spec), await fresh(file, opts('m')));
    assert.match(JSON.stringify(served(gone.spec)), /owner\.yaml: file not found/);
    assert.equal((await load(loader(dir).loader, file, opts('m'))).note, 'loaded from snapshot');

    assert.equal((await load(loader(dir, '4.5.7').loader, file, opts('m'))).note, 'rebuilt: no snapshot yet; snapshot saved');
    assert.equal((await load(loader(dir).loader, file, opts('renamed'))).note, 'rebuilt: no snapshot yet; snapshot saved');
  });

  it('rebuilds from a truncated snapshot, and from one whose core was replaced with checksums to match, saying why', async () => {
    const file = multi();
    const dir = path.join(tmp.dir, 'cache-damaged');
    await load(loader(dir).loader, file, opts('m'));
    const key = keyOf(file, opts('m'));
    const snap = snapshotFile(dir, key);
    const whole = readFileSync(snap);
    writeFileSync(snap, whole.subarray(0, whole.length - 7));
    const truncated = await load(loader(dir).loader, file, opts('m'));
    assert.equal(truncated.note, `rebuilt: snapshot damaged (size ${whole.length - 7} does not match the header (truncated?)); snapshot saved`);
    assert.deepEqual(served(truncated.spec), await fresh(file, opts('m')));

    // A core its checksum agrees with that is no core: only decoding it can tell.
    const read = await readSnapshot(dir, key);
    assert.ok(read.ok);
    const detail = readFileSync(snap).subarray(read.detailOffset);
    await writeSnapshot(dir, key, Buffer.from('not a core at all'), { prints: read.prints, detail, parts: read.parts });
    const tampered = await load(loader(dir).loader, file, opts('m'));
    assert.match(tampered.note, /^rebuilt: snapshot damaged \(.+\); snapshot saved$/);
    assert.doesNotMatch(tampered.note, /checksum|truncated/);
    assert.deepEqual(served(tampered.spec), await fresh(file, opts('m')));
    assert.equal((await load(loader(dir).loader, file, opts('m'))).note, 'loaded from snapshot');
  });

  it('serves the spec when the snapshot folder cannot be written, and says why it was not saved', async () => {
    const file = multi();
    const open = path.join(tmp.dir, 'cache-open');
    const first = await load(loader(open).loader, file, opts('m'));
    assert.equal(first.note, 'rebuilt: no snapshot yet; snapshot saved');
    chmodSync(open, 0o777);
    const update = await l0(open).load(file, opts('m'), false);
    assert.ok(update.ok);
    assert.equal(loadNote(update.spec), `imported; snapshot not saved: ${open} can be written by other users`);
    assert.deepEqual(served(update.spec), await fresh(file, opts('m')));

    const blocked = path.join(tmp.dir, 'a-file');
    writeFileSync(blocked, '');
    const notADir = await load(loader(blocked).loader, file, opts('m'));
    assert.match(notADir.note, /^rebuilt: snapshot damaged \(cannot open: ENOTDIR\); snapshot not saved: .*(EEXIST|ENOTDIR)/);
    assert.deepEqual(served(notADir.spec), await fresh(file, opts('m')));
  });

  it('imports on this thread what the worker cannot encode, and says so', async () => {
    const file = path.join(tmp.dir, 'loop-form.yaml');
    writeFileSync(
      file,
      "swagger: '2.0'\ninfo: {title: Loop, version: '1'}\npaths:\n  /a:\n    post:\n      consumes: [application/x-www-form-urlencoded]\n      parameters:\n        - name: tags\n          in: formData\n          type: array\n          items: &i\n            type: array\n            items: *i\n      responses: {'200': {description: ok}}\n",
    );
    const dir = path.join(tmp.dir, 'cache-loop');
    const { loader: l } = loader(dir);
    const outcome = await l.load(file, opts('loop'), true);
    assert.ok(outcome.ok);
    assert.match(loadNote(outcome.spec) ?? '', /^rebuilt: no snapshot yet; imported on the main thread \(cannot encode: Converting circular structure to JSON/);
    assert.equal(outcome.spec.endpoints.length, 1);
    assert.equal(existsSync(snapshotFile(dir, keyOf(file, opts('loop')))), false);
  });

  it('after close answers that svc is shutting down, and close waits for a start\'s snapshot under way', async () => {
    const file = multi();
    const dir = path.join(tmp.dir, 'cache-close');
    const { loader: l, cold } = loader(dir);
    // Sent to the worker at once, as a cold start does: under way when close comes.
    cold.begin(dir, VERSION, [{ file, options: opts('m') }]);
    const loading = l.load(file, opts('m'), true);
    await l.close();
    const outcome = await loading;
    assert.ok(outcome.ok, 'a load under way at close still ends');
    assert.equal(loadNote(outcome.spec), 'rebuilt: no snapshot yet; snapshot saved');
    assert.ok(existsSync(snapshotFile(dir, keyOf(file, opts('m')))), 'its snapshot was written before close returned');
    const refused = (name: string) => ({
      ok: false,
      name,
      collection: 'default',
      file,
      errors: [{ severity: 'error', code: 'shutting-down', message: 'svc is shutting down', file }],
      warnings: [],
      files: [file],
    });
    assert.deepEqual(await l.load(file, opts('late'), false), refused('late'));
    // A start's load after close is refused too, even where a snapshot would serve: a start closed
    // while loading ends without decoding the rest (close() waits for the start to end).
    assert.deepEqual(await l.load(file, opts('m'), true), refused('m'));
  });
});

/** A loader without a cold start (its own pool). */
function l0(dir: string | undefined): SpecLoader {
  const l = new SpecLoader({ dir, svcVersion: VERSION, digests: new FileDigests() });
  closing.push(() => l.close());
  return l;
}
