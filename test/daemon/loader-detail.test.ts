// Once a spec the worker imported at start has its late part, its schemas come from what the worker
// read (the snapshot file it wrote, or the detail it sent when no file could be written), not from
// the spec's files, which may have changed since (`svc update` is what takes changes in). A spec
// whose detail could not be made still gets the worker's change fingerprints (made here from its
// core they would differ, and the next update would report every endpoint changed). Real worker
// thread, real files, real snapshot folder, in this process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { fingerprintList } from '../../src/daemon/diff.ts';
import { FileDigests } from '../../src/daemon/digests.ts';
import { loadNote } from '../../src/daemon/load-notes.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { importSpec, type ImportOptions } from '../../src/import/index.ts';
import { served, temp } from '../snapshot/support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const opts = (name: string): ImportOptions => ({ name, collection: 'default' });
const tmp = temp();
const loaders: SpecLoader[] = [];
after(async () => {
  for (const l of loaders) await l.close();
  tmp.cleanup();
});

function loader(dir: string | undefined): SpecLoader {
  const l = new SpecLoader({ dir, svcVersion: '2.0.0', digests: new FileDigests() });
  loaders.push(l);
  return l;
}

async function fresh(file: string, options: ImportOptions): Promise<unknown> {
  const outcome = await importSpec(file, options);
  assert.ok(outcome.ok);
  return served(outcome.spec);
}

const blocked = path.join(tmp.dir, 'a-file');
writeFileSync(blocked, '');
const CASES: [label: string, dir: string | undefined, note: RegExp][] = [
  ['the snapshot file it wrote', path.join(tmp.dir, 'cache'), /^rebuilt: no snapshot yet; snapshot saved$/],
  ['the detail it sent, the folder being unwritable', blocked, /^rebuilt: snapshot damaged \(cannot open: ENOTDIR\); snapshot not saved: /],
  ['the detail it sent, snapshots being off', undefined, /^snapshots off; no snapshot$/],
];

for (const [label, dir, note] of CASES) {
  it(`serves the schemas the worker read, from ${label}, after the files change`, async () => {
    const file = path.join(tmp.copy(path.join(FIXTURES, 'multi-file'), `multi-${label.length}`), 'openapi.yaml');
    const before = await fresh(file, opts('m'));
    const l = loader(dir);
    const outcome = await l.load(file, opts('m'), true);
    assert.ok(outcome.ok);
    await l.settled();
    assert.match(loadNote(outcome.spec) ?? '', note);
    const pet = path.join(path.dirname(file), 'schemas/pet.yaml');
    writeFileSync(pet, 'type: object\nproperties:\n  renamed:\n    type: integer\n');
    const changed = await fresh(file, opts('m'));
    assert.notDeepEqual(changed, before, 'the change shows in a fresh import');
    assert.deepEqual(served(outcome.spec), before);
  });
}

it('serves a spec whose detail could not be made with the fingerprints a fresh import has, so the next update sees no change', async () => {
  const file = path.join(tmp.dir, 'loop.yaml');
  writeFileSync(
    file,
    "openapi: 3.0.3\ninfo: {title: Loop, version: '1'}\nx-loop: &loop\n  self: *loop\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n  /b:\n    post:\n      responses: {'201': {description: made}}\n",
  );
  const l = loader(path.join(tmp.dir, 'loop-cache'));
  const outcome = await l.load(file, opts('loop'), true);
  assert.ok(outcome.ok);
  await l.settled();
  assert.match(loadNote(outcome.spec) ?? '', /^rebuilt: no snapshot yet; snapshot not saved: cannot encode: Converting circular structure to JSON/);
  const imported = await importSpec(file, opts('loop'));
  assert.ok(imported.ok);
  assert.deepEqual(fingerprintList(outcome.spec), fingerprintList(imported.spec));
  assert.equal(fingerprintList(outcome.spec).length, 2);
});
