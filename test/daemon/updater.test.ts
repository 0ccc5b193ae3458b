// `svc update`'s change detection in one process, on real files, the real importer and a real
// catalogue: every kind of svc.yaml change and spec change, and what each one must (and must not)
// re-import, report, serve and watch. The daemon tests (update.test.ts) cover the same through
// the CLI and the socket; these run in-process so each rule is checked directly and fast.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import fc from 'fast-check';
import { Updater, type ImportFn } from '../../src/daemon/update.ts';
import { diagnosticView } from '../../src/daemon/update-report.ts';
import { SAMPLE_IDS } from '../../src/ipc/protocol.ts';
import { importSpec } from '../../src/import/index.ts';
import type { SpecUpdateReport, UpdateResult } from '../../src/ipc/protocol.ts';
import { fileWriter, openapi, type Op } from './support.ts';

const PETS: Op[] = [
  { method: 'GET', path: '/pets', summary: 'List pets', tag: 'pets' },
  { method: 'GET', path: '/pets/{id}', summary: 'Get a pet', tag: 'pets' },
];
const STORE: Op[] = [{ method: 'GET', path: '/orders', summary: 'List orders' }];

/** A spec whose response schema lives in another file. */
const WITH_REF = `openapi: 3.0.3
info: { title: Zoo, version: '1' }
paths:
  /animals:
    get:
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { $ref: './schemas.yaml#/Animal' }
`;
const animal = (type: string): string => `Animal:\n  type: object\n  properties:\n    name: { type: ${type} }\n`;

interface Harness {
  readonly dir: string;
  readonly catalog: Catalog;
  readonly updater: Updater;
  /** Files each import call was given, in order. */
  readonly imported: string[];
  write(rel: string, text: string): string;
  path(rel: string): string;
  yaml(text: string): void;
  update(): Promise<UpdateResult>;
}

let h: Harness;

function harness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'svc-updater-'));
  const catalog = new Catalog();
  const imported: string[] = [];
  // The real importer; only counted, so a test can tell which specs an update re-read.
  const counted: ImportFn = (file, options) => {
    imported.push(file);
    return importSpec(file, options);
  };
  const configFile = join(dir, 'svc.yaml');
  const updater = new Updater({ catalog, reload: () => loadConfig(configFile), importSpec: counted });
  const write = fileWriter(dir);
  return {
    dir,
    catalog,
    updater,
    imported,
    write,
    path: (rel) => join(dir, rel),
    yaml: (text) => void write('svc.yaml', text),
    update: async () => (await updater.update()).result,
  };
}

function report(result: UpdateResult, name: string): SpecUpdateReport {
  const r = result.specs.find((s) => s.name === name);
  assert.ok(r, `no report for ${name}: ${JSON.stringify(result.specs.map((s) => [s.name, s.state]))}`);
  return r;
}

const states = (result: UpdateResult): Record<string, string> => Object.fromEntries(result.specs.map((s) => [s.name, s.state]));
const ids = (catalog: Catalog, spec: string): string[] => (catalog.spec(spec)?.endpoints ?? []).map((e) => e.id).sort();

/** pets and store served, first update done, import log cleared. */
async function twoSpecs(): Promise<UpdateResult> {
  h.write('specs/pets.yaml', openapi('Pets', PETS));
  h.write('specs/store.yaml', openapi('Store', STORE));
  h.yaml('specs:\n  - specs/pets.yaml\n  - specs/store.yaml\n');
  const first = await h.update();
  h.imported.length = 0;
  return first;
}

beforeEach(() => {
  h = harness();
});
afterEach(() => {
  rmSync(h.dir, { recursive: true, force: true });
});

describe('first update and no-change updates', () => {
  test('the first update adds every spec and serves it', async () => {
    const { result, specsAddedOrRemoved } = await (async () => {
      h.write('specs/pets.yaml', openapi('Pets', PETS));
      h.yaml('specs:\n  - specs/pets.yaml\n');
      return h.updater.update();
    })();
    assert.equal(result.ok, true);
    assert.equal(result.changed, true);
    assert.equal(specsAddedOrRemoved, true);
    assert.deepEqual(states(result), { pets: 'added' });
    assert.deepEqual(report(result, 'pets').added, { count: 2, sample: ['pets:GET:/pets', 'pets:GET:/pets/{id}'] });
    assert.deepEqual(ids(h.catalog, 'pets'), ['pets:GET:/pets', 'pets:GET:/pets/{id}']);
    assert.equal(result.generation, h.catalog.generation);
    assert.equal(h.updater.busy, false);
    assert.equal(h.updater.lastResult, result);
    assert.equal(result.restartNeeded, undefined, 'nothing to restart on the first update');
  });

  test('a new updater is idle and has no result; every update reports its phases in tenths of a millisecond', async () => {
    assert.equal(h.updater.busy, false);
    assert.equal(h.updater.lastResult, undefined);
    assert.equal(h.updater.config, undefined);
    await twoSpecs();
    h.write('specs/pets.yaml', openapi('Pets', [PETS[0]!]));
    const result = await h.update();
    const phases = result.phases!;
    assert.deepEqual(Object.keys(phases).sort(), ['check', 'config', 'diff', 'import', 'index']);
    for (const [name, ms] of Object.entries({ ...phases, total: result.ms })) {
      assert.ok(ms >= 0 && ms < 60_000, `${name}: ${ms}`);
      assert.ok(Number.isInteger(Math.round(ms * 10 * 1000) / 1000), `${name} has one decimal: ${ms}`);
    }
    assert.ok(phases.config + phases.check + phases.import <= result.ms + 0.5, JSON.stringify(result));
    assert.ok(Math.abs(result.startedAt - Date.now()) < 60_000);
  });

  test('with nothing changed nothing is re-imported, the catalogue is not swapped and the result says unchanged', async () => {
    await twoSpecs();
    const generation = h.catalog.generation;
    const { result, specsAddedOrRemoved } = await h.updater.update();
    assert.deepEqual(h.imported, []);
    assert.deepEqual(states(result), { pets: 'unchanged', store: 'unchanged' });
    for (const r of result.specs) {
      assert.deepEqual([r.warnings, r.errors, r.keptPrevious, r.ms, r.added.count, r.changed.count], [[], [], false, 0, 0, 0], r.name);
    }
    assert.equal(result.ok, true);
    assert.equal(result.changed, false);
    assert.equal(specsAddedOrRemoved, false);
    assert.equal(h.catalog.generation, generation);
    assert.equal(result.restartNeeded, undefined);
  });

  test('progress counts only the specs that are re-imported', async () => {
    await twoSpecs();
    h.write('specs/store.yaml', openapi('Store', [...STORE, { method: 'DELETE', path: '/orders' }]));
    const seen: { done: number; total: number; spec?: string }[] = [];
    await h.updater.update({ onProgress: (p) => seen.push({ done: p.done, total: p.total, ...(p.spec ? { spec: p.spec } : {}) }) });
    assert.deepEqual(seen, [
      { done: 0, total: 1, spec: 'store' },
      { done: 1, total: 1 },
    ]);
  });
});

describe('spec file changes', () => {
  test('an added operation re-imports that spec alone and reports the new id', async () => {
    await twoSpecs();
    h.write('specs/pets.yaml', openapi('Pets', [...PETS, { method: 'POST', path: '/pets', summary: 'Create' }]));
    const result = await h.update();
    assert.deepEqual(h.imported, [h.path('specs/pets.yaml')]);
    assert.deepEqual(states(result), { pets: 'changed', store: 'unchanged' });
    assert.deepEqual(report(result, 'pets').added.sample, ['pets:POST:/pets']);
    assert.deepEqual([report(result, 'pets').warnings, report(result, 'pets').errors, report(result, 'pets').keptPrevious], [[], [], false]);
    assert.equal(await h.updater.changedOnDisk('pets'), false);
    assert.equal(await h.updater.changedOnDisk('store'), false);
    h.write('specs/pets.yaml', openapi('Pets', PETS));
    assert.equal(await h.updater.changedOnDisk('pets'), true);
    assert.equal(await h.updater.changedOnDisk('store'), false, 'only the spec whose file changed');
    assert.equal(report(result, 'pets').removed.count, 0);
    assert.equal(result.changed, true);
    assert.ok(h.catalog.get('pets:POST:/pets'));
  });

  test('a removed and a changed operation are reported as such', async () => {
    await twoSpecs();
    h.write('specs/pets.yaml', openapi('Pets', [{ ...PETS[0]!, summary: 'All the pets' }]));
    const result = await h.update();
    const pets = report(result, 'pets');
    assert.deepEqual(pets.removed.sample, ['pets:GET:/pets/{id}']);
    assert.deepEqual(pets.changed.sample, ['pets:GET:/pets']);
    assert.equal(h.catalog.get('pets:GET:/pets/{id}'), undefined);
  });

  test('a new version with no endpoint change (the title) is still reported changed and served', async () => {
    await twoSpecs();
    const before = h.catalog.spec('pets');
    h.write('specs/pets.yaml', openapi('Pets v2', PETS));
    const result = await h.update();
    const pets = report(result, 'pets');
    assert.equal(pets.state, 'changed');
    assert.deepEqual([pets.added.count, pets.removed.count, pets.changed.count], [0, 0, 0]);
    assert.equal(result.changed, true);
    assert.notEqual(h.catalog.spec('pets'), before);
    assert.equal(h.catalog.spec('pets')?.title, 'Pets v2');
  });

  test('a change in a file reached through $ref re-imports the spec that reads it, and that file is watched', async () => {
    h.write('specs/zoo/zoo.yaml', WITH_REF);
    const schemas = h.write('specs/zoo/schemas.yaml', animal('string'));
    h.yaml('specs:\n  - path: specs/zoo/zoo.yaml\n    name: zoo\n');
    await h.update();
    assert.deepEqual(h.updater.watchedFiles().get(schemas), ['zoo']);
    h.imported.length = 0;
    h.write('specs/zoo/schemas.yaml', animal('integer'));
    const result = await h.update();
    assert.deepEqual(h.imported, [h.path('specs/zoo/zoo.yaml')]);
    assert.deepEqual(report(result, 'zoo').changed.sample, ['zoo:GET:/animals']);
  });

  test('a spec file deleted from disk but still listed fails and keeps its last good version', async () => {
    await twoSpecs();
    unlinkSync(h.path('specs/store.yaml'));
    const result = await h.update();
    // The config check reports the missing file: nothing changes, the old set keeps serving.
    assert.equal(result.ok, false);
    assert.match(result.configErrors.map((e) => e.message).join('\n'), /store\.yaml does not exist/);
    assert.deepEqual(ids(h.catalog, 'store'), ['store:GET:/orders']);
  });
});

describe('failed imports', () => {
  test('broken YAML keeps the last good version serving, and its files stay watched', async () => {
    h.write('specs/zoo/zoo.yaml', WITH_REF);
    const schemas = h.write('specs/zoo/schemas.yaml', animal('string'));
    const root = h.path('specs/zoo/zoo.yaml');
    h.yaml('specs:\n  - path: specs/zoo/zoo.yaml\n    name: zoo\n');
    await h.update();
    const good = h.catalog.spec('zoo');
    // The broken version reads only its root file: the schemas file of the good one must stay watched.
    h.write('specs/zoo/zoo.yaml', 'openapi: 3.0.3\ninfo: [unclosed\n');
    const { result, specsAddedOrRemoved } = await h.updater.update();
    const zoo = report(result, 'zoo');
    assert.equal(result.ok, false);
    assert.equal(zoo.state, 'failed');
    assert.equal(zoo.keptPrevious, true);
    assert.ok(zoo.errors.length > 0);
    assert.equal(zoo.errors[0]!.file, root);
    assert.equal(specsAddedOrRemoved, false);
    assert.equal(h.catalog.spec('zoo'), good, 'the good version still serves');
    const watched = h.updater.watchedFiles();
    assert.deepEqual(watched.get(root), ['zoo']);
    assert.deepEqual(watched.get(schemas), ['zoo'], 'the last good version reads schemas.yaml: still watched');
    const state = h.updater.states.find((s) => s.config.name === 'zoo')!;
    assert.ok(state.failure);
    assert.equal(state.serving, good);

    // Nothing changed since the failure: not pending, and the next update tries again only if files change.
    assert.equal(await h.updater.changedOnDisk('zoo'), false);
    h.imported.length = 0;
    const again = await h.update();
    assert.deepEqual(h.imported, [root], 'a failed spec is tried again on every update');
    assert.equal(report(again, 'zoo').state, 'failed');

    // An edit after the failure is pending; fixing the file serves the new version and clears the failure.
    h.write('specs/zoo/schemas.yaml', animal('integer'));
    assert.equal(await h.updater.changedOnDisk('zoo'), true);
    h.write('specs/zoo/zoo.yaml', WITH_REF);
    const fixed = await h.update();
    assert.equal(fixed.ok, true);
    assert.equal(report(fixed, 'zoo').state, 'changed');
    assert.deepEqual(report(fixed, 'zoo').changed.sample, ['zoo:GET:/animals']);
    assert.equal(h.updater.states.find((s) => s.config.name === 'zoo')!.failure, undefined);
  });

  test('a spec that never imported is added once it is fixed', async () => {
    h.write('specs/pets.yaml', 'openapi: 3.0.3\ninfo: [unclosed\n');
    h.yaml('specs:\n  - specs/pets.yaml\n');
    const failed = await h.updater.update();
    assert.equal(report(failed.result, 'pets').state, 'failed');
    assert.equal(report(failed.result, 'pets').keptPrevious, false);
    assert.equal(failed.specsAddedOrRemoved, false, 'nothing serves yet: no spec was added to the lists');
    assert.equal(await h.updater.changedOnDisk('pets'), false, 'failed and unchanged since: not pending');
    assert.equal(h.catalog.spec('pets'), undefined);
    assert.deepEqual([...h.updater.watchedFiles().keys()], [h.path('specs/pets.yaml')]);
    h.write('specs/pets.yaml', openapi('Pets', PETS));
    const fixed = await h.updater.update();
    assert.equal(report(fixed.result, 'pets').state, 'added');
    assert.equal(fixed.specsAddedOrRemoved, true);
    assert.deepEqual(ids(h.catalog, 'pets'), ['pets:GET:/pets', 'pets:GET:/pets/{id}']);
  });
});

describe('svc.yaml changes', () => {
  test('a spec added to svc.yaml is imported alone and reported added', async () => {
    await twoSpecs();
    h.write('specs/extra.yaml', openapi('Extra', [{ method: 'GET', path: '/x' }]));
    h.yaml('specs:\n  - specs/pets.yaml\n  - specs/store.yaml\n  - specs/extra.yaml\n');
    const { result, specsAddedOrRemoved } = await h.updater.update();
    assert.deepEqual(h.imported, [h.path('specs/extra.yaml')]);
    assert.deepEqual(states(result), { pets: 'unchanged', store: 'unchanged', extra: 'added' });
    assert.equal(specsAddedOrRemoved, true);
    assert.deepEqual(ids(h.catalog, 'extra'), ['extra:GET:/x']);
  });

  test('a spec removed from svc.yaml is reported removed with its ids, leaves the catalogue and is no longer watched', async () => {
    await twoSpecs();
    h.yaml('specs:\n  - specs/pets.yaml\n');
    const { result, specsAddedOrRemoved } = await h.updater.update();
    assert.deepEqual(h.imported, []);
    assert.deepEqual(states(result), { pets: 'unchanged', store: 'removed' });
    assert.deepEqual(report(result, 'store').removed, { count: 1, sample: ['store:GET:/orders'] });
    assert.deepEqual([report(result, 'store').warnings, report(result, 'store').errors, report(result, 'store').keptPrevious], [[], [], false]);
    assert.equal(specsAddedOrRemoved, true, 'a removed spec changes every listing of specs');
    assert.equal(result.changed, true);
    assert.equal(h.catalog.spec('store'), undefined);
    assert.equal(h.updater.watchedFiles().has(h.path('specs/store.yaml')), false);
    assert.deepEqual(h.updater.states.map((s) => s.config.name), ['pets']);
  });

  test('a spec whose path changed is re-imported from the new file, and only the new file is watched', async () => {
    await twoSpecs();
    // Same content at a new place: nothing on disk changed, but the entry now names another file.
    h.write('specs/pets-v2.yaml', openapi('Pets', PETS));
    h.yaml('specs:\n  - path: specs/pets-v2.yaml\n    name: pets\n  - specs/store.yaml\n');
    const result = await h.update();
    assert.deepEqual(h.imported, [h.path('specs/pets-v2.yaml')]);
    assert.equal(report(result, 'pets').state, 'changed');
    assert.equal(h.catalog.spec('pets')?.file, h.path('specs/pets-v2.yaml'));
    const watched = h.updater.watchedFiles();
    assert.equal(watched.has(h.path('specs/pets.yaml')), false);
    assert.deepEqual(watched.get(h.path('specs/pets-v2.yaml')), ['pets']);
  });

  test('a changed collection re-imports the spec into the new collection', async () => {
    await twoSpecs();
    h.yaml('specs:\n  - path: specs/pets.yaml\n    collection: animals\n  - specs/store.yaml\n');
    const result = await h.update();
    assert.deepEqual(h.imported, [h.path('specs/pets.yaml')]);
    assert.equal(report(result, 'pets').state, 'changed');
    assert.equal(h.catalog.spec('pets')?.collection, 'animals');
  });

  test('changed $ref settings re-import the spec: allowFrom lets a ref outside the folder resolve', async () => {
    h.write('specs/zoo.yaml', WITH_REF.replace('./schemas.yaml', '../shared/schemas.yaml'));
    h.write('shared/schemas.yaml', animal('string'));
    h.yaml('specs:\n  - path: specs/zoo.yaml\n');
    const refused = await h.update();
    assert.deepEqual(report(refused, 'zoo').warnings.map((w) => w.code), ['ref-outside-folder']);
    h.imported.length = 0;
    h.yaml('specs:\n  - path: specs/zoo.yaml\n    refs:\n      allowFrom: [shared]\n');
    const allowed = await h.update();
    assert.deepEqual(h.imported, [h.path('specs/zoo.yaml')], 'nothing on disk changed, the import settings did');
    assert.equal(report(allowed, 'zoo').state, 'changed');
    assert.deepEqual(report(allowed, 'zoo').warnings, []);
    assert.deepEqual(h.updater.watchedFiles().get(h.path('shared/schemas.yaml')), ['zoo']);
    // And taking the permission back re-imports again.
    h.imported.length = 0;
    h.yaml('specs:\n  - path: specs/zoo.yaml\n');
    const revoked = await h.update();
    assert.deepEqual(h.imported, [h.path('specs/zoo.yaml')]);
    assert.deepEqual(report(revoked, 'zoo').warnings.map((w) => w.code), ['ref-outside-folder']);
  });

  test('changed remote-ref permission and size limit re-import every spec they apply to', async () => {
    await twoSpecs();
    h.yaml('specs:\n  - path: specs/pets.yaml\n    refs: { remote: true }\n  - specs/store.yaml\n');
    await h.update();
    assert.deepEqual(h.imported, [h.path('specs/pets.yaml')]);
    h.imported.length = 0;
    h.yaml('limits:\n  maxSpecBytes: 100\nspecs:\n  - path: specs/pets.yaml\n    refs: { remote: true }\n  - specs/store.yaml\n');
    const result = await h.update();
    assert.deepEqual(h.imported.sort(), [h.path('specs/pets.yaml'), h.path('specs/store.yaml')]);
    assert.deepEqual(states(result), { pets: 'failed', store: 'failed' }, 'both files are over 100 bytes');
    assert.equal(report(result, 'pets').keptPrevious, true);
    // One of two failing is enough for ok: false.
    h.yaml('limits:\n  maxSpecBytes: 100\nspecs:\n  - path: specs/pets.yaml\n    refs: { remote: true }\n  - specs/tiny.yaml\n');
    h.write('specs/tiny.yaml', 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n');
    const mixed = await h.update();
    assert.deepEqual(states(mixed), { pets: 'failed', tiny: 'added', store: 'removed' });
    assert.equal(mixed.ok, false);
  });

  test('a renamed spec is the old name removed and the new one added', async () => {
    await twoSpecs();
    h.yaml('specs:\n  - path: specs/pets.yaml\n    name: animals\n  - specs/store.yaml\n');
    const { result, specsAddedOrRemoved } = await h.updater.update();
    assert.deepEqual(states(result), { animals: 'added', store: 'unchanged', pets: 'removed' });
    assert.equal(specsAddedOrRemoved, true);
    assert.deepEqual(ids(h.catalog, 'animals'), ['animals:GET:/pets', 'animals:GET:/pets/{id}']);
    assert.equal(h.catalog.spec('pets'), undefined);
  });

  test('a setting invoke reads (writes, headers) re-imports nothing but is a change and reaches the config', async () => {
    await twoSpecs();
    const generation = h.catalog.generation;
    h.yaml('specs:\n  - path: specs/pets.yaml\n    writes: allow\n  - specs/store.yaml\n');
    const result = await h.update();
    assert.deepEqual(h.imported, []);
    assert.deepEqual(states(result), { pets: 'unchanged', store: 'unchanged' });
    assert.equal(result.changed, true, 'the config changed');
    assert.equal(h.catalog.generation, generation, 'the catalogue did not');
    assert.equal(h.updater.config?.specs[0]?.writes, 'allow');
    assert.equal(h.updater.states[0]?.config.writes, 'allow', 'the spec state carries the new settings');
  });

  test('a change outside the spec entries alone (search, limits) re-imports nothing but is a change', async () => {
    await twoSpecs();
    // After the entries: their lines (which an entry records) stay as they were.
    h.yaml('specs:\n  - specs/pets.yaml\n  - specs/store.yaml\nsearch:\n  vocabulary: wordnet\n');
    const result = await h.update();
    assert.deepEqual(h.imported, []);
    assert.deepEqual(states(result), { pets: 'unchanged', store: 'unchanged' });
    assert.equal(result.changed, true, 'the config changed');
    assert.equal(h.updater.config?.search?.vocabulary, 'wordnet');
    const again = await h.update();
    assert.equal(again.changed, false, 'and the next update finds nothing new');
  });

  test('changed serve keys and socket are reported as waiting for a restart; the specs still update', async () => {
    await twoSpecs();
    h.write('specs/pets.yaml', openapi('Pets', [PETS[0]!]));
    h.yaml('serve:\n  port: 7400\n  maxSessions: 3\nsocket: ctl.sock\nspecs:\n  - specs/pets.yaml\n  - specs/store.yaml\n');
    const result = await h.update();
    assert.deepEqual(result.restartNeeded, ['serve.port', 'serve.maxSessions', 'socket']);
    assert.equal(report(result, 'pets').state, 'changed');
    const again = await h.update();
    assert.equal(again.restartNeeded, undefined, 'reported once, not on every later update');
  });

  test('a broken svc.yaml changes nothing and names the file and line', async () => {
    await twoSpecs();
    const generation = h.catalog.generation;
    h.yaml('specs:\n  - specs/pets.yaml\n  - path: [oops\n');
    const { result, specsAddedOrRemoved } = await h.updater.update();
    assert.equal(result.ok, false);
    assert.equal(result.changed, false);
    assert.equal(specsAddedOrRemoved, false);
    assert.deepEqual(result.specs, []);
    assert.ok(result.configErrors.length > 0);
    assert.equal(result.configErrors[0]!.file, h.path('svc.yaml'));
    assert.equal(result.configErrors[0]!.code, 'config-invalid');
    assert.equal(typeof result.configErrors[0]!.line, 'number');
    assert.equal(h.catalog.generation, generation);
    assert.deepEqual(h.updater.states.map((s) => s.config.name), ['pets', 'store']);
    // Fixed again: nothing to re-import, the specs were never touched.
    h.yaml('specs:\n  - specs/pets.yaml\n  - specs/store.yaml\n');
    assert.deepEqual(states(await h.update()), { pets: 'unchanged', store: 'unchanged' });
  });

  test('an svc.yaml that cannot be read at all is a config error, not a crash', async () => {
    await twoSpecs();
    rmSync(h.path('svc.yaml'));
    const result = await h.update();
    assert.equal(result.ok, false);
    assert.match(result.configErrors[0]!.message, /file not found/);
  });
});

describe('one update at a time', () => {
  test('concurrent updates run one after the other: the first applies the change, the second finds nothing', async () => {
    await twoSpecs();
    h.write('specs/pets.yaml', openapi('Pets', [...PETS, { method: 'PUT', path: '/pets/{id}' }]));
    const first = h.updater.update();
    const second = h.updater.update();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(report(a.result, 'pets').state, 'changed');
    assert.equal(report(b.result, 'pets').state, 'unchanged');
    assert.deepEqual(h.imported, [h.path('specs/pets.yaml')]);
  });

  test('busy is true while an update runs and onStart is called before files are read', async () => {
    await twoSpecs();
    let busyAtStart = false;
    let importsAtStart = -1;
    h.write('specs/pets.yaml', openapi('Pets', [PETS[0]!]));
    await h.updater.update({
      onStart: () => {
        busyAtStart = h.updater.busy;
        importsAtStart = h.imported.length;
      },
    });
    assert.equal(busyAtStart, true);
    assert.equal(importsAtStart, 0);
    assert.equal(h.updater.busy, false);
  });
});

describe('seed: taking over the first import', () => {
  test('specs seeded from serve are not re-imported until their files change', async () => {
    h.write('specs/pets.yaml', openapi('Pets', PETS));
    h.write('specs/broken.yaml', 'openapi: 3.0.3\ninfo: [unclosed\n');
    h.yaml('specs:\n  - specs/pets.yaml\n  - specs/broken.yaml\n');
    const config = await loadConfig(h.path('svc.yaml'));
    const outcomes = await Promise.all(config.specs.map((s) => importSpec(s.path, { name: s.name, collection: s.collection })));
    h.catalog.replace(outcomes.flatMap((o) => (o.ok ? [o.spec] : [])));
    await h.updater.seed(config, outcomes);
    assert.equal(h.updater.config, config);
    assert.equal(await h.updater.changedOnDisk('pets'), false);
    assert.equal(await h.updater.changedOnDisk('nosuch'), false);
    assert.deepEqual([...h.updater.watchedFiles().keys()].sort(), [h.path('specs/broken.yaml'), h.path('specs/pets.yaml')]);

    const seeded = h.updater.states.find((s) => s.config.name === 'broken')!;
    assert.ok(seeded.failure && seeded.failure.errors.length > 0);
    const result = await h.update();
    assert.deepEqual(h.imported, [h.path('specs/broken.yaml')], 'only the spec that failed at start is tried again');
    assert.deepEqual(states(result), { pets: 'unchanged', broken: 'failed' });

    h.write('specs/pets.yaml', openapi('Pets', [PETS[0]!]));
    assert.equal(await h.updater.changedOnDisk('pets'), true);
    h.imported.length = 0;
    const changed = await h.update();
    assert.deepEqual(report(changed, 'pets').removed.sample, ['pets:GET:/pets/{id}']);
  });
});

test('a spec with no outcome from the first import is seeded as failed with its own file watched', async () => {
  h.write('specs/pets.yaml', openapi('Pets', PETS));
  h.write('specs/late.yaml', openapi('Late', STORE));
  h.yaml('specs:\n  - specs/pets.yaml\n  - specs/late.yaml\n');
  const config = await loadConfig(h.path('svc.yaml'));
  const pets = await importSpec(config.specs[0]!.path, { name: 'pets', collection: 'default' });
  await h.updater.seed(config, [pets]);
  const late = h.updater.states.find((s) => s.config.name === 'late')!;
  assert.deepEqual(late.failure?.errors, []);
  assert.deepEqual(late.failure?.warnings, []);
  assert.deepEqual(late.files, [h.path('specs/late.yaml')]);
  assert.equal(late.serving, undefined);
  assert.equal(await h.updater.changedOnDisk('late'), true, 'never served: pending until it imports');
  const result = await h.update();
  assert.deepEqual(states(result), { pets: 'unchanged', late: 'added' });
});

test('a report samples at most SAMPLE_IDS ids and counts them all', async () => {
  const many = Array.from({ length: SAMPLE_IDS + 3 }, (_, i) => ({ method: 'GET', path: `/r${i}` }));
  h.write('specs/big.yaml', openapi('Big', many));
  h.yaml('specs:\n  - specs/big.yaml\n');
  const result = await h.update();
  const added = report(result, 'big').added;
  assert.equal(added.count, SAMPLE_IDS + 3);
  assert.deepEqual(added.sample, many.slice(0, SAMPLE_IDS).map((o) => `big:GET:${o.path}`));
});

test('a config that cannot be read at all is reported as unreadable, and one without a line has no line', async () => {
  const broken = new Updater({ catalog: h.catalog, reload: () => Promise.reject(new Error('disk on fire')), importSpec });
  const { result } = await broken.update();
  assert.deepEqual(result.configErrors, [{ severity: 'error', code: 'config-unreadable', message: 'disk on fire', file: '' }]);
  const odd = new Updater({ catalog: h.catalog, reload: () => Promise.reject('not an error'), importSpec });
  assert.equal((await odd.update()).result.configErrors[0]!.message, 'not an error');
  const missing = new Updater({ catalog: h.catalog, reload: () => loadConfig(h.path('nope.yaml')), importSpec });
  const view = (await missing.update()).result.configErrors[0]!;
  assert.equal(view.code, 'config-invalid');
  assert.equal(Object.hasOwn(view, 'line'), false);
  assert.match(view.message, /^file not found/, 'a problem without a key is its message alone');
});

test('diagnosticView keeps exactly the optional fields a diagnostic has', () => {
  const optional = fc.record(
    { pointer: fc.string(), line: fc.nat(), column: fc.nat(), hint: fc.string() },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(optional, fc.constantFrom('error' as const, 'warning' as const), (extra, severity) => {
      const d = { severity, code: 'c', message: 'm', file: '/f', ...extra };
      assert.deepEqual(diagnosticView(d), d);
      assert.deepEqual(Object.keys(diagnosticView(d)).sort(), Object.keys(d).sort());
    }),
  );
});
