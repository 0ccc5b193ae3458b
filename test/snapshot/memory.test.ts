// What a decoded spec keeps alive: the daemon holds many specs, most never searched, so a spec
// must not hold on to the bytes it was decoded from (only what it serves, in its compact form).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { indexImage } from '../../src/catalog/catalog.ts';
import { fingerprintList } from '../../src/daemon/diff.ts';
import { importSpec } from '../../src/import/index.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import { decodeCore, encodeSpec } from '../../src/snapshot/index.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const FILE = path.resolve(import.meta.dirname, '../fixtures/import/swagger20-azure/storage.json');

/** A core as the import worker makes it, for the fixture spec. */
async function encoded(): Promise<Uint8Array> {
  const outcome = await importSpec(FILE, { name: 's', collection: 'default' });
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  const schemas = spec.schemas as DocumentSchemaResolver;
  return new Uint8Array(encodeSpec(spec, (f) => schemas.documents.doc(f), indexImage(spec), fingerprintList(spec), spec.files.map(() => '')).core);
}

/** Lets a garbage collection clear WeakRefs (they hold their target until the current job ends). */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 5 && ref.deref() !== undefined; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

describe('a decoded core', () => {
  it('does not keep the bytes it was decoded from alive while its index waits for a first search', async () => {
    // Decoded from bytes nothing else refers to, as the loader hands them over.
    const decode = async () => {
      const copy = new Uint8Array(await encoded());
      const data = await decodeCore(copy);
      // What the catalogue keeps of it: the index (postings undecoded until a first search) and the endpoints.
      return { bytes: new WeakRef(copy.buffer), kept: { index: data.index, endpoints: data.endpoints } };
    };
    const { bytes, kept } = await decode();
    assert.ok(await collected(bytes), 'the core buffer is still reachable from the decoded spec');
    // The index still loads from what it kept.
    const mini = typeof kept.index.mini === 'function' ? kept.index.mini() : kept.index.mini;
    assert.ok(mini.index.length > 0);
    assert.equal(kept.endpoints.length > 0, true);
  });
});
