// Real corpus descriptions for tests that need them imported but do not test the import itself
// (test/import/corpus.test.ts does, afresh each run): loaded as `svc serve` loads its specs, from
// a snapshot when one fits, else imported in the import worker and saved as a snapshot. The
// snapshots stay from one run to the next in a folder of the checkout's own (node_modules/.cache,
// never the user's svc cache), one subfolder per test file, so a later run reads them instead of
// parsing the descriptions again. What such a test sees is unchanged: a snapshot serves exactly
// what a fresh import does, search answers and scores included (test/snapshot/snapshots.test.ts),
// and one made by other code never serves: its key holds the build fingerprint (the code of
// src/catalog, import, model, snapshot and daemon) and its check the files' digests.
// Not for files in mutation runs: a mutant switched on at run time does not change the fingerprint
// (the users are in NOT_FOR_MUTATION, stryker.config.mjs).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileDigests } from '../../src/daemon/digests.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { SVC_VERSION } from '../../src/daemon/version.ts';
import type { ImportOptions } from '../../src/import/index.ts';
import type { ImportOutcome } from '../../src/model/index.ts';
import { buildFingerprint, snapshotFile, snapshotKey } from '../../src/snapshot/index.ts';

const CACHE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/svc-test-snapshots');

export interface CorpusLoader {
  /** The outcome `svc serve` would serve for `file` (the options as importSpec takes them). */
  load(file: string, options: ImportOptions): Promise<ImportOutcome>;
  /** Waits for the snapshots being written, stops the worker, and removes this folder's snapshots of other builds. */
  close(): Promise<void>;
}

/** A loader over the snapshot folder `name` (one per test file: each keeps only the snapshots it used). */
export async function corpusLoader(name: string): Promise<CorpusLoader> {
  const dir = path.join(CACHE, name);
  const svcVersion = `${SVC_VERSION}+${await buildFingerprint()}`;
  const loader = new SpecLoader({ dir, svcVersion, digests: new FileDigests() });
  const used = new Set<string>();
  return {
    load(file, options) {
      used.add(path.basename(snapshotFile(dir, snapshotKey({ svcVersion, importKey: JSON.stringify([file, options]) }))));
      return loader.load(file, options, true);
    },
    async close() {
      await loader.close();
      // Only this build's snapshots stay: each change to the fingerprinted code makes a new set.
      for (const f of existsSync(dir) ? readdirSync(dir) : []) if (f.endsWith('.snap') && !used.has(f)) rmSync(path.join(dir, f), { force: true });
      await loader.prune();
    },
  };
}
