// `svc update` against a real daemon process: edits to real files are reported by the watcher but
// served only after `svc update`; failed imports keep the last good version; removals and config
// errors behave. Everything goes through the real CLI and the real socket.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { WATCH_DELAY_MS } from '../../src/daemon/watcher.ts';
import type { StatusResult, UpdateResult } from '../../src/ipc/protocol.ts';
import { request } from '../../src/ipc/client.ts';
import { openapi, project, startDaemon, svc, svcJson, until, type Daemon, type Op, type Project } from './support.ts';

type UpdateJson = { daemons: { pid: number; result?: UpdateResult; error?: unknown }[]; wallMs: number };
type StatusJson = { daemons: { pid: number; status: StatusResult }[] };

const PETS: Op[] = [
  { method: 'GET', path: '/pets', summary: 'List pets', tag: 'pets' },
  { method: 'POST', path: '/pets', summary: 'Create a pet', tag: 'pets' },
  { method: 'GET', path: '/pets/{id}', summary: 'Get a pet', tag: 'pets' },
];
const STORE: Op[] = [{ method: 'GET', path: '/orders', summary: 'List orders' }];

async function update(p: Project): Promise<{ code: number | null; result: UpdateResult; stdout: string }> {
  const { run, json } = await svcJson<UpdateJson>(p, ['update']);
  assert.equal(json.daemons.length, 1, run.stderr);
  return { code: run.code, result: json.daemons[0]!.result!, stdout: run.stdout };
}

async function status(p: Project): Promise<StatusResult> {
  const { json } = await svcJson<StatusJson>(p, ['status']);
  return json.daemons[0]!.status;
}

function spec(result: UpdateResult, name: string) {
  const s = result.specs.find((x) => x.name === name);
  assert.ok(s, `no report for ${name}: ${JSON.stringify(result.specs.map((x) => x.name))}`);
  return s;
}

describe('svc update on a running daemon', () => {
  let p: Project;
  let daemon: Daemon;
  let pets = [...PETS];

  before(async () => {
    p = project();
    p.write('specs/pets.yaml', openapi('Pets', pets));
    p.write('specs/store.yaml', openapi('Store', STORE));
    p.config(['specs/pets.yaml', 'specs/store.yaml']);
    daemon = await startDaemon(p);
  });

  after(async () => {
    const code = await daemon.stop();
    p.cleanup();
    assert.equal(code, 0, 'SIGTERM ends the daemon with exit 0');
  });

  test('with nothing changed every spec is unchanged, nothing is re-imported, exit 0', async () => {
    const { code, result } = await update(p);
    assert.equal(code, 0);
    assert.equal(result.ok, true);
    assert.equal(result.changed, false);
    assert.deepEqual(result.specs.map((s) => [s.name, s.state, s.ms]), [['pets', 'unchanged', 0], ['store', 'unchanged', 0]]);
  });

  test('an edited file is only reported until svc update: the served catalogue stays as it was', async () => {
    pets = [
      { ...PETS[0]!, summary: 'List all the pets' },
      PETS[1]!,
      PETS[2]!,
      { method: 'GET', path: '/pets/{id}/toys', summary: 'List toys of a pet', tag: 'pets' },
    ];
    p.write('specs/pets.yaml', openapi('Pets', pets));
    await until(async () => (await status(p)).specs.find((s) => s.name === 'pets')!.pending.length > 0, 10_000, 'pending change');
    // Well past the watcher's delay: still nothing applied.
    await sleep(WATCH_DELAY_MS * 4);
    const before = await svc(p, ['inspect', 'pets:GET:/pets']);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /^GET \/pets\n/);
    assert.match(before.stdout, /List pets/);
    assert.doesNotMatch(before.stdout, /List all the pets/);
    const toys = await svc(p, ['inspect', 'pets:GET:/pets/{id}/toys']);
    assert.equal(toys.code, 1, 'the added endpoint is not served yet');
    const st = await status(p);
    const petsStatus = st.specs.find((s) => s.name === 'pets')!;
    assert.equal(petsStatus.state, 'pending');
    assert.match(petsStatus.pending[0]!, /pets\.yaml$/);
    assert.equal(petsStatus.endpoints, 3);
    assert.equal(daemon.stderr().match(/changed \(spec pets\)/g)?.length, 1, 'logged once');

    const { code, result, stdout } = await update(p);
    assert.equal(code, 0);
    const r = spec(result, 'pets');
    assert.equal(r.state, 'changed');
    assert.deepEqual(r.added, { count: 1, sample: ['pets:GET:/pets/{id}/toys'] });
    assert.deepEqual(r.changed, { count: 1, sample: ['pets:GET:/pets'] });
    assert.equal(r.removed.count, 0);
    assert.equal(spec(result, 'store').state, 'unchanged', 'the other spec is not re-imported');
    assert.ok(stdout.length > 0);

    const now = await svc(p, ['inspect', 'pets:GET:/pets']);
    assert.match(now.stdout, /List all the pets/);
    const after = await status(p);
    assert.equal(after.specs.find((s) => s.name === 'pets')!.pending.length, 0);
    assert.equal(after.specs.find((s) => s.name === 'pets')!.endpoints, 4);
  });

  test('the text report lists added, removed and changed ids and the time taken', async () => {
    pets = pets.filter((o) => o.path !== '/pets/{id}/toys');
    p.write('specs/pets.yaml', openapi('Pets', pets));
    const run = await svc(p, ['update']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /pets: changed/);
    assert.match(run.stdout, /removed 1 \(pets:GET:\/pets\/\{id\}\/toys\)/);
    assert.match(run.stdout, /1 spec unchanged/);
    assert.match(run.stdout, /catalogue updated in [\d.]+ m?s/);
  });

  test('concurrent updates run one after the other: the first applies the change, the second finds nothing to do', async () => {
    pets = [...pets, { method: 'PUT', path: '/pets/{id}', summary: 'Replace a pet', tag: 'pets' }];
    p.write('specs/pets.yaml', openapi('Pets', pets));
    const [a, b, c] = await Promise.all([request(daemon.socket, 'update'), request(daemon.socket, 'update'), request(daemon.socket, 'update')]);
    const states = [a, b, c].map((r) => spec(r, 'pets').state);
    assert.deepEqual(states, ['changed', 'unchanged', 'unchanged']);
    assert.deepEqual(spec(a, 'pets').added.sample, ['pets:PUT:/pets/{id}']);
    // Serialized: each starts after the one before finished.
    assert.ok(b.startedAt >= a.startedAt && c.startedAt >= b.startedAt);
    assert.ok(b.generation === a.generation && c.generation === a.generation, 'no-change updates do not swap the catalogue');
  });

  test('marking an endpoint deprecated is a change and shows in the status counts', async () => {
    pets = pets.map((o) => (o.method === 'POST' ? { ...o, deprecated: true } : o));
    p.write('specs/pets.yaml', openapi('Pets', pets));
    const { code, result } = await update(p);
    assert.equal(code, 0);
    assert.deepEqual(spec(result, 'pets').changed.sample, ['pets:POST:/pets']);
    const st = await status(p);
    assert.equal(st.specs.find((s) => s.name === 'pets')!.deprecated, 1);
    const shown = await svc(p, ['inspect', 'pets:POST:/pets']);
    assert.match(shown.stdout, /deprecated/i);
  });

  test('broken YAML keeps the last good version serving; status shows the error with file and line; fixing it recovers', async () => {
    p.write('specs/pets.yaml', `${openapi('Pets', pets)}  /broken: [\n`);
    const { code, result } = await update(p);
    assert.equal(code, 1, 'exit 1 when a spec failed');
    const r = spec(result, 'pets');
    assert.equal(r.state, 'failed');
    assert.equal(r.keptPrevious, true);
    assert.equal(r.errors[0]!.code, 'yaml-syntax');
    assert.match(r.errors[0]!.file, /pets\.yaml$/);
    assert.equal(typeof r.errors[0]!.line, 'number');

    const text = await svc(p, ['update']);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /pets: FAILED, previous version still serving/);
    assert.match(text.stdout, /pets\.yaml:\d+:\d+: error: /);

    const served = await svc(p, ['inspect', 'pets:GET:/pets']);
    assert.equal(served.code, 0, 'the old version keeps serving');
    assert.match(served.stdout, /List all the pets/);
    const st = await status(p);
    const petsStatus = st.specs.find((s) => s.name === 'pets')!;
    assert.equal(petsStatus.state, 'failed');
    assert.equal(petsStatus.endpoints, pets.length);
    assert.match(petsStatus.errors[0]!.message, /YAML/);
    assert.equal(st.totals.failed, 1);
    const human = await svc(p, ['status']);
    assert.match(human.stdout, /pets .*FAILED: .*pets\.yaml:\d+/);
    assert.match(human.stdout, /previous version keeps serving/);

    p.write('specs/pets.yaml', openapi('Pets', pets));
    const fixed = await update(p);
    assert.equal(fixed.code, 0);
    assert.equal(spec(fixed.result, 'pets').state, 'changed', 'recovering from a failure is a change');
    assert.equal((await status(p)).specs.find((s) => s.name === 'pets')!.state, 'ok');
  });

  test('a broken svc.yaml changes nothing and names the line', async () => {
    p.write('svc.yaml', 'specs:\n  - path: specs/pets.yaml\n  - pathh: specs/store.yaml\n');
    const { code, result } = await update(p);
    assert.equal(code, 1);
    assert.equal(result.changed, false);
    assert.ok(result.configErrors.length > 0);
    assert.equal(result.configErrors[0]!.line, 3);
    assert.equal((await status(p)).specs.length, 2, 'both specs still serve');
    p.config(['specs/pets.yaml', 'specs/store.yaml']);
  });

  test('a spec deleted from svc.yaml and from disk is removed with its endpoint ids', async () => {
    p.config(['specs/pets.yaml']);
    rmSync(`${p.dir}/specs/store.yaml`);
    const { code, result } = await update(p);
    assert.equal(code, 0);
    const r = spec(result, 'store');
    assert.equal(r.state, 'removed');
    assert.deepEqual(r.removed, { count: 1, sample: ['store:GET:/orders'] });
    const gone = await svc(p, ['inspect', 'store:GET:/orders']);
    assert.equal(gone.code, 1);
    assert.deepEqual((await status(p)).specs.map((s) => s.name), ['pets']);
  });

  test('a changed serve key is reported as waiting for a restart, once; the specs are still updated', async () => {
    p.write('svc.yaml', `serve:\n  maxSessions: 7\nspecs:\n  - path: specs/pets.yaml\n`);
    const text = await svc(p, ['update']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /not applied until svc serve restarts \(how it listens\): serve\.maxSessions/);
    const again = await update(p);
    assert.equal(again.result.restartNeeded, undefined, 'reported once, by the update that applied the change');
    p.config(['specs/pets.yaml']);
    const back = await update(p);
    assert.equal(back.code, 0);
    assert.deepEqual(back.result.restartNeeded, ['serve.maxSessions'], 'going back is a change too');
  });

  test('a spec added to svc.yaml is imported alone', async () => {
    p.write('specs/store.yaml', openapi('Store', STORE));
    p.config(['specs/pets.yaml', 'specs/store.yaml']);
    const { code, result } = await update(p);
    assert.equal(code, 0);
    assert.equal(spec(result, 'pets').state, 'unchanged');
    assert.equal(spec(result, 'store').state, 'added');
    assert.deepEqual(spec(result, 'store').added.sample, ['store:GET:/orders']);
    const found = await svc(p, ['search', 'orders']);
    assert.match(found.stdout, /store:GET:\/orders/);
  });
});
