// Where a spec's schemas come from (src/snapshot/detail.ts): a spec served before its detail was
// made, once settled into a snapshot file, reads its link table from that file (the copy in memory
// goes), so a later change to the file shows as the snapshot having changed; a detail that lacks a
// file's part reads that file's document from the file itself; a place its document no longer
// holds says so.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec, SchemaLink } from '../../src/model/index.ts';
import { decodeCore, settleDetail, specFromCore, writeSnapshot } from '../../src/snapshot/index.ts';
import { encodedCore, encodedLate, served, temp } from './support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const tmp = temp();
after(() => tmp.cleanup());

async function built(file: string) {
  const outcome = await importSpec(file, { name: 's', collection: 'default' });
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  return { spec, core: encodedCore(spec), late: encodedLate(spec) };
}

const links = (spec: ImportedSpec): SchemaLink[] =>
  spec.endpoints.flatMap((e) => [...e.parameters.map((p) => p.schema), ...(e.requestBody?.contents.map((c) => c.schema) ?? []), ...e.responses.map((r) => r.schema)]).filter((l): l is SchemaLink => l !== undefined);

describe('a spec settled into its snapshot file', () => {
  it('reads its link table from the file from then on: the file changed later, its schemas say so', async () => {
    const { core, late } = await built(path.join(FIXTURES, 'oas30-params/openapi.yaml'));
    const pending = specFromCore(await decodeCore(new Uint8Array(core)), undefined);
    const written = await writeSnapshot(path.join(tmp.dir, 'settled'), 'a'.repeat(40), core, late);
    settleDetail(pending, written);
    const decoded = await decodeCore(new Uint8Array(core));
    const bytes = readFileSync(written.file);
    bytes[written.coreOffset + decoded.linksOffset + 1]! ^= 1;
    writeFileSync(written.file, bytes);
    const all = links(pending);
    assert.ok(all.length > 0);
    for (const l of all) assert.deepEqual(l.node, { $unresolved: '', reason: 'the snapshot file changed since this spec was loaded; run svc update' });
  });

  it('settled in memory (no file could be written), keeps its link table in memory', async () => {
    const { spec, core, late } = await built(path.join(FIXTURES, 'oas30-params/openapi.yaml'));
    const pending = specFromCore(await decodeCore(new Uint8Array(core)), undefined);
    settleDetail(pending, { bytes: late.detail, parts: late.parts });
    assert.deepEqual(served(pending), served(spec));
  });
});

describe('a detail without a file\'s part', () => {
  it('reads that file\'s document from the file itself, which still holds what was imported', async () => {
    const root = tmp.copy(path.join(FIXTURES, 'multi-file'), 'mf');
    const { spec, core, late } = await built(path.join(root, 'openapi.yaml'));
    assert.ok(spec.files.length > 1);
    // The first file's part alone, and none at all.
    for (const parts of [late.parts.slice(0, 1), []]) {
      const bytes = late.detail.subarray(0, parts.reduce((a, p) => a + p.bytes, 0));
      const fromParts = specFromCore(await decodeCore(new Uint8Array(core)), { bytes, parts });
      assert.deepEqual(served(fromParts), served(spec), `${parts.length} parts`);
    }
  });
});
