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

describe('the link-table and postings hashes a core holds', () => {
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
