// Starts from snapshots with the daemon's digest memo (src/daemon/digests.ts): a start trusts a
// remembered file digest only while the file's stat identity (size, mtime, ctime, inode, device)
// is unchanged. A file edited in place to the same size with its mtime put back is still caught
// (its ctime moved); a file touched but unchanged is hashed again and still served from its
// snapshot. Real loader, import worker, files and cache folder; the memo's clock is set well after
// the files' last change, so their digests are settled and remembered (see digests-racy.test.ts).
import assert from 'node:assert/strict';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { FileDigests } from '../../src/daemon/digests.ts';
import { loadNote } from '../../src/daemon/load-notes.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import type { ImportOptions } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { served, temp } from './support.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');
const options: ImportOptions = { name: 'p', collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 };
const later = (): number => Date.now() + 60_000;
const loaders: SpecLoader[] = [];
after(async () => {
  await Promise.all(loaders.map((l) => l.close()));
});

/**
 * One start as the daemon makes it: load from the snapshot when it fits, then remember the served
 * files' digests in the memo (the daemon's seeding does that after the start).
 */
async function start(cache: string, file: string): Promise<{ spec: ImportedSpec; note: string }> {
  const digests = new FileDigests({ memo: path.join(cache, 'digests.json'), now: later });
  const loader = new SpecLoader({ dir: cache, svcVersion: '1.0.0', digests });
  loaders.push(loader);
  const outcome = await loader.load(file, options, true);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  await loader.settled();
  await digests.specHash(outcome.spec.files);
  await digests.persist();
  return { spec: outcome.spec, note: loadNote(outcome.spec) ?? '' };
}

describe('a start checks its files by stat identity, then by content', () => {
  it('a file edited to the same size with its mtime put back is rebuilt (its ctime moved)', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const file = tmp.copy(FIXTURE, 'api.yaml');
    const cache = path.join(tmp.dir, 'cache');
    // A whole second, which utimes can put back exactly.
    const mtime = 1_700_000_000;
    utimesSync(file, mtime, mtime);
    assert.equal((await start(cache, file)).note, 'rebuilt: no snapshot yet; snapshot saved');
    assert.equal((await start(cache, file)).note, 'loaded from snapshot');
    const before = statSync(file, { bigint: true });
    const text = readFileSync(file, 'utf8');
    const edited = text.replace('summary: Get a pet', 'summary: Got a pet');
    assert.notEqual(edited, text);
    writeFileSync(file, edited);
    utimesSync(file, mtime, mtime);
    const now = statSync(file, { bigint: true });
    assert.equal(now.size, before.size);
    assert.equal(now.mtimeNs, before.mtimeNs, 'the mtime is the one the memo remembers');
    const again = await start(cache, file);
    assert.equal(again.note, 'rebuilt: files changed since the snapshot; snapshot saved');
    assert.ok(again.spec.endpoints.some((e) => e.summary === 'Got a pet'));
    assert.equal((await start(cache, file)).note, 'loaded from snapshot');
  });

  it('a file touched but unchanged is hashed again and still served from its snapshot', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const file = tmp.copy(FIXTURE, 'api.yaml');
    const cache = path.join(tmp.dir, 'cache');
    const first = await start(cache, file);
    const touched = new Date(Date.now() + 5_000);
    utimesSync(file, touched, touched);
    const again = await start(cache, file);
    assert.equal(again.note, 'loaded from snapshot');
    assert.deepEqual(served(again.spec), served(first.spec));
  });
});
