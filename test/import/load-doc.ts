// The set-up the import contract tests share: a temp folder for the file's life, and `load(doc)`,
// which writes a description as JSON there and imports it, failing the test with the importer's
// errors when it does not import.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

/** Call at a test file's top level: the folder is made before its tests and removed after them. */
export function docLoader(prefix: string): (doc: object) => Promise<ImportedSpec> {
  let dir = '';
  let serial = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  return async (doc) => {
    const file = join(dir, `d${serial++}.json`);
    writeFileSync(file, JSON.stringify(doc));
    const o = await importSpec(file, { name: 's', collection: 'c' });
    assert.ok(o.ok, JSON.stringify(!o.ok && o.errors));
    return o.spec;
  };
}
