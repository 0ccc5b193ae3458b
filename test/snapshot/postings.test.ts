// An index's postings kept in the snapshot file until the first search: read back from the right
// place, checked, and made again from the spec when the file no longer holds them.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { FileDigests } from '../../src/daemon/digests.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { decodeCore, readSnapshot, snapshotKey, specFromCore } from '../../src/snapshot/index.ts';
import { PostingBytes } from '../../src/snapshot/postings.ts';
import { temp } from './support.ts';

const FILE = path.resolve(import.meta.dirname, '../fixtures/import/swagger20-azure/storage.json');
const OPTIONS = { name: 's', collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 };
const loaders: SpecLoader[] = [];
after(async () => {
  await Promise.all(loaders.map((l) => l.close()));
});

const NO_INDEX = { documentCount: 0 } as never;

describe('postings kept in a file', () => {
  it('read back as they were while the file holds them, and are made again once it does not', (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const file = path.join(tmp.dir, 'f');
    const bytes = Buffer.from('[["term",{"0":{"1":2}}]]');
    writeFileSync(file, Buffer.concat([Buffer.from('head'), bytes, Buffer.from('tail')]));
    const postings = new PostingBytes(Buffer.from(bytes));
    let rebuilt = 0;
    postings.keepInFile(file, 4, () => (rebuilt++, NO_INDEX));
    assert.deepEqual(postings.read(), bytes);
    assert.equal(postings.length, bytes.length);
    writeFileSync(file, Buffer.concat([Buffer.from('head'), Buffer.from(bytes).fill(0x30, 3, 4), Buffer.from('tail')]));
    assert.equal(postings.read(), undefined, 'a changed byte');
    writeFileSync(file, 'head');
    assert.equal(postings.read(), undefined, 'a shorter file');
    assert.equal(postings.rebuild(), NO_INDEX);
    assert.equal(rebuilt, 1);
  });

  it('in memory, are what they were given, and cannot be made again', () => {
    const postings = new PostingBytes(Buffer.from('[]'));
    assert.deepEqual(postings.read(), Buffer.from('[]'));
    assert.throws(() => postings.rebuild(), /cannot be made again/);
  });

  it('of a spec served from its snapshot file: the file region is the one the core held', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const cache = path.join(tmp.dir, 'cache');
    const loader = new SpecLoader({ dir: cache, svcVersion: '1', digests: new FileDigests() });
    loaders.push(loader);
    assert.ok((await loader.load(FILE, OPTIONS, true)).ok);
    await loader.settled();
    const read = await readSnapshot(cache, snapshotKey({ svcVersion: '1', importKey: JSON.stringify([FILE, OPTIONS]) }));
    assert.ok(read.ok);
    const core = await decodeCore(read.core);
    const inMemory = Buffer.from(core.postings.read()!);
    specFromCore(core, { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts });
    assert.deepEqual(core.postings.read(), inMemory);
  });
});
