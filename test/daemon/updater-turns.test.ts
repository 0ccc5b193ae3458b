// `svc update` over thousands of specs never holds the thread: a no-change update of 5,000 specs
// (one real file, 5,000 names) checks their files and walks past them in batches, a turn of the
// event loop between, so tool calls and status get in. In one process, with the real importer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { Updater } from '../../src/daemon/update.ts';
import { importSpec } from '../../src/import/index.ts';
import type { ImportOutcome } from '../../src/model/index.ts';
import { longestTurn } from '../support/turns.ts';
import { openapi } from './support.ts';

/** The most CPU time the update may hold the thread for between two turns of its event loop. */
const MAX_TURN_CPU_MS = 50;
const SPECS = 5_000;

const dir = mkdtempSync(join(tmpdir(), 'svc-updater-turns-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test(`a no-change update of ${SPECS.toLocaleString('en')} specs never holds the thread for over ${MAX_TURN_CPU_MS} ms of CPU time`, async (t) => {
  writeFileSync(join(dir, 'pets.yaml'), openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }]));
  writeFileSync(join(dir, 'svc.yaml'), `specs:\n${Array.from({ length: SPECS }, (_, i) => `  - path: pets.yaml\n    name: s${i}\n`).join('')}`);
  // A file changed within the last tenth of a second is hashed on every check (digests.ts, "racy"):
  // this one has settled by the update, as a user's files have.
  await sleep(150);
  const config = await loadConfig(join(dir, 'svc.yaml'));
  const imported = await importSpec(join(dir, 'pets.yaml'), { name: 'pets', collection: 'default' });
  assert.ok(imported.ok);
  // The same import under every name (the updater keeps each spec's files and hash, not its endpoints).
  const outcomes: ImportOutcome[] = config.specs.map((sc) => ({ ...imported, spec: { ...imported.spec, name: sc.name } }));
  const imports: string[] = [];
  const updater = new Updater({
    catalog: new Catalog(),
    reload: async () => config,
    importSpec: async (file, options) => (imports.push(file), importSpec(file, options)),
  });
  await updater.seed(config, outcomes);

  // The garbage of building this test's 5,000-entry config and seeding is collected first: the
  // figure is the update's own work, not a full collection of what came before it.
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const { result, longestMs: longest } = await longestTurn(async () => (await updater.update()).result);
  assert.equal(result.ok, true);
  assert.equal(result.specs.filter((s) => s.state === 'unchanged').length, SPECS);
  assert.deepEqual(imports, [], 'nothing changed, nothing imported');
  t.diagnostic(`longest turn: ${longest.toFixed(1)} ms of CPU time`);
  assert.ok(longest <= MAX_TURN_CPU_MS, `the update held the thread for ${longest.toFixed(0)} ms of CPU time in one turn`);
});
