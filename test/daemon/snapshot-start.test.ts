// A real daemon across restarts: the first start imports and saves a snapshot, the next start
// serves from it (status says which), an edited file is rebuilt at the next start, and five
// `svc update` started at once all succeed, sharing runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from '../../src/ipc/client.ts';
import type { StatusResult, UpdateResult } from '../../src/ipc/protocol.ts';
import { type Daemon, openapi, project, startDaemon, svc, type Op } from './support.ts';

const OPS: Op[] = Array.from({ length: 30 }, (_, i) => ({ method: 'GET', path: `/widgets/${i}`, summary: `Read widget ${i}`, tag: 'widgets' }));

/**
 * The spec's snapshot note, once final: a spec the worker imported is served before its snapshot is
 * written. Asked over the control socket (what `svc status --json` prints), not by a CLI process per
 * poll: on a loaded machine the polls ran for seconds; the CLI's own status output is checked below.
 */
async function snapshotNote(d: Daemon): Promise<string | undefined> {
  // Up to 30 s: on a loaded machine the worker may take seconds to write the snapshot.
  const until = Date.now() + 30_000;
  for (;;) {
    const status = (await request(d.socket, 'status', {}, { timeoutMs: 10_000 })) as StatusResult;
    const note = status.specs.find((s) => s.name === 'widgets')?.snapshot;
    // Undefined until the daemon serves the spec (a rebuild on a busy machine takes a while).
    if ((note !== undefined && !note.endsWith('; saving snapshot')) || Date.now() > until) return note;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('the next start serves from the snapshot; an edited file is rebuilt and status says why', async () => {
  const p = project();
  p.write('specs/widgets.yaml', openapi('Widgets', OPS));
  p.config(['specs/widgets.yaml']);
  let d: Daemon | undefined;
  try {
    d = await startDaemon(p);
    assert.equal(await snapshotNote(d), 'rebuilt: no snapshot yet; snapshot saved');
    await d.stop();

    d = await startDaemon(p);
    assert.equal(await snapshotNote(d), 'loaded from snapshot');
    const found = await svc(p, ['search', 'read widget 7']);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /widgets:GET:\/widgets\/7/);
    const text = await svc(p, ['status']);
    assert.match(text.stdout, /loaded from snapshot/);
    await d.stop();

    p.write('specs/widgets.yaml', openapi('Widgets', [...OPS, { method: 'POST', path: '/widgets', summary: 'Create a widget' }]));
    d = await startDaemon(p);
    assert.equal(await snapshotNote(d), 'rebuilt: files changed since the snapshot; snapshot saved');
    assert.match((await svc(p, ['search', 'create widget'])).stdout, /widgets:POST:\/widgets/);
  } finally {
    // A failed assertion must not leave the daemon running over a deleted project folder.
    await d?.stop();
    p.cleanup();
  }
});

test('five svc update started at once all succeed; one run applies the change', async () => {
  const p = project();
  p.write('specs/widgets.yaml', openapi('Widgets', OPS));
  p.config(['specs/widgets.yaml']);
  const d = await startDaemon(p);
  try {
    p.write('specs/widgets.yaml', openapi('Widgets', OPS.map((o) => ({ ...o, summary: `${o.summary} (v2)` }))));
    const runs = await Promise.all(Array.from({ length: 5 }, () => svc(p, ['update', '--json'])));
    const results = runs.map((r) => {
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      return (JSON.parse(r.stdout) as { daemons: { result: UpdateResult }[] }).daemons[0]!.result;
    });
    for (const r of results) assert.equal(r.ok, true);
    // The change was applied by exactly one run (every caller of that run reports it), and serves.
    const applied = new Set(results.filter((r) => r.specs.some((s) => s.state === 'changed')).map((r) => r.startedAt));
    assert.equal(applied.size, 1);
    assert.match((await svc(p, ['search', 'read widget 3'])).stdout, /\(v2\)/);
  } finally {
    await d.stop();
    p.cleanup();
  }
});
