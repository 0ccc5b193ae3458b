// The core's head holds the sha256 of its link table and of its postings' bytes (src/snapshot/codec.ts),
// which a spec served from its snapshot file uses to check those regions when it reads them again
// later, without hashing them at start. The values must be the hashes of exactly the bytes that
// are read again (a wrong one would make every later read fail its check), for every fixture, and
// a spec so served must still serve what the import serves.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, it } from 'node:test';
import { specImage } from '../../src/catalog/catalog.ts';
import { importSpec } from '../../src/import/index.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import { decodeCore, encodeCore, encodeLate, specFromCore, writeSnapshot, readSnapshot } from '../../src/snapshot/index.ts';
import { fingerprintList } from '../../src/daemon/diff.ts';
import { served, temp } from './support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const OPTIONS = { name: 's', collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 };
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** `core` with its head (part 0) changed by `edit`, framed again. */
function withHead(core: Buffer, edit: (head: Record<string, unknown>) => void): Buffer {
  const count = core.readUInt32LE(0);
  const at = 4 * (count + 1);
  const length = core.readUInt32LE(4);
  const head = JSON.parse(core.subarray(at, at + length).toString('utf8')) as Record<string, unknown>;
  edit(head);
  const text = Buffer.from(JSON.stringify(head));
  const frame = Buffer.from(core.subarray(0, at));
  frame.writeUInt32LE(text.length, 4);
  return Buffer.concat([frame, text, core.subarray(at + length)]);
}

describe('the link-table and postings hashes a core holds', () => {
  it('are taken only when they are 64 lowercase hex digits; otherwise the start hashes the bytes itself', async (t) => {
    const outcome = await importSpec(path.join(FIXTURES, 'oas30-params/openapi.yaml'), OPTIONS);
    assert.ok(outcome.ok);
    const spec = outcome.spec;
    const docs = (spec.schemas as DocumentSchemaResolver).documents;
    const { index, facts } = specImage(spec);
    const core = encodeCore(spec, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''), facts);
    for (const bad of ['', 'A'.repeat(64), 'a'.repeat(63), 7, null, ['a'.repeat(64)]]) {
      const edited = withHead(core, (head) => {
        head['linksSha256'] = bad;
        head['postingsSha256'] = bad;
      });
      const decoded = await decodeCore(new Uint8Array(edited));
      assert.equal(decoded.linksSha256, undefined, JSON.stringify(bad));
      assert.equal(decoded.postingsSha256, undefined, JSON.stringify(bad));
      // Served from a file, such a core still checks what it reads again (hashed at start instead).
      const tmp = temp();
      t.after(() => tmp.cleanup());
      await writeSnapshot(tmp.dir, 'k'.repeat(40), edited, encodeLate(spec, (f) => docs.doc(f), fingerprintList(spec)));
      const read = await readSnapshot(tmp.dir, 'k'.repeat(40));
      assert.ok(read.ok);
      const fromFile = specFromCore(await decodeCore(read.core), { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts });
      assert.deepEqual(served(fromFile), served(spec));
    }
  });

  for (const fixture of ['oas30-params/openapi.yaml', 'multi-file/openapi.yaml', 'circular/openapi.json', 'postman-bodies/collection.json', 'swagger20-forms/swagger.yaml']) {
    it(`are the hashes of the bytes read again later, and the spec served from the file is the import's: ${fixture}`, async (t) => {
      const outcome = await importSpec(path.join(FIXTURES, fixture), OPTIONS);
      assert.ok(outcome.ok);
      const spec = outcome.spec;
      const docs = (spec.schemas as DocumentSchemaResolver).documents;
      const { index, facts } = specImage(spec);
      const core = encodeCore(spec, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''), facts);
      const decoded = await decodeCore(new Uint8Array(core));
      assert.equal(decoded.linksSha256, sha(decoded.links));
      assert.equal(decoded.postingsSha256, sha(decoded.postings.read()!));
      assert.equal(decoded.postingsSha256, sha(core.subarray(decoded.postingsOffset)), 'the postings run to the core\'s end');
      // Served from a snapshot file: the link table and postings are read from it when first needed.
      const tmp = temp();
      t.after(() => tmp.cleanup());
      await writeSnapshot(tmp.dir, 'k'.repeat(40), core, encodeLate(spec, (f) => docs.doc(f), fingerprintList(spec)));
      const read = await readSnapshot(tmp.dir, 'k'.repeat(40));
      assert.ok(read.ok);
      const fromFile = specFromCore(await decodeCore(read.core), { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts });
      assert.deepEqual(served(fromFile), served(spec));
    });
  }
});
