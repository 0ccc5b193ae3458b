// A daemon whose socket accepts connections but that does not answer (stuck, or starved of CPU):
// `svc status` and `svc update` name it in their text and in their JSON, and exit 1; with no other
// daemon they do not say "no daemon" and suggest starting one, since one is there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { preparePrivateSocketDir, socketTarget } from '../../src/ipc/paths.ts';
import { type Project, openapi, project, startDaemon, svc, svcJson } from './support.ts';

const skip = process.platform === 'win32' ? 'Unix sockets' : false;

function fixture(): Project {
  const p = project();
  p.write('specs/pets.yaml', openapi('Pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }]));
  p.config(['specs/pets.yaml']);
  return p;
}

/** A socket in the config's daemon folder that accepts connections and never answers. */
async function silentSocket(p: Project): Promise<{ path: string; close(): Promise<void> }> {
  const target = socketTarget({ configFile: p.configFile, env: { XDG_RUNTIME_DIR: p.runtime } });
  if (target.kind !== 'dir') throw new Error('expected the per-config folder');
  // Named as a daemon's socket is: by a live process's pid (this one's).
  const path = join(target.dir, `${process.pid}.sock`);
  preparePrivateSocketDir(target, path);
  const held: Socket[] = [];
  const server: Server = createServer((s) => held.push(s));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    close: async () => {
      for (const s of held) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('alone, a daemon that does not answer is named, and no other one is suggested', { skip }, async () => {
  const p = fixture();
  const silent = await silentSocket(p);
  try {
    const run = await svc(p, ['status']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`${escaped(silent.path)}: a daemon is there but did not answer`));
    assert.match(run.stderr, /no daemon serving .*svc\.yaml answered; 1 did not/);
    assert.doesNotMatch(run.stderr, /start one with/);
  } finally {
    await silent.close();
    p.cleanup();
  }
});

test('beside a live daemon, one that does not answer is in the JSON with its socket and why, and status and update exit 1', { skip }, async () => {
  const p = fixture();
  const d = await startDaemon(p);
  const silent = await silentSocket(p);
  try {
    const { run, json } = await svcJson<{ daemons: { socket: string; pid?: number; status?: unknown; error?: string }[] }>(p, ['status']);
    assert.equal(run.code, 1, run.stderr);
    const live = json.daemons.find((x) => x.pid === d.pid);
    assert.ok(live?.status, 'the live daemon answers with its status');
    const quiet = json.daemons.find((x) => x.socket === silent.path);
    assert.ok(quiet, JSON.stringify(json.daemons));
    assert.match(quiet.error ?? '', /^did not answer: .*(timeout|no reply)/);
    assert.equal(quiet.status, undefined);
    const text = await svc(p, ['status']);
    assert.equal(text.code, 1);
    assert.match(text.stdout, new RegExp(`daemon at ${escaped(silent.path)}: no status: did not answer`));
    // An update reaches the live daemon and says which one it could not.
    const up = await svcJson<{ daemons: { socket: string; pid?: number; result?: { ok: boolean }; error?: { code: string; message: string } }[] }>(p, ['update']);
    assert.equal(up.run.code, 1, up.run.stderr);
    assert.equal(up.json.daemons.find((x) => x.pid === d.pid)?.result?.ok, true);
    const notUpdated = up.json.daemons.find((x) => x.socket === silent.path);
    assert.equal(notUpdated?.error?.code, 'no-answer', JSON.stringify(up.json.daemons));
    const upText = await svc(p, ['update']);
    assert.equal(upText.code, 1);
    assert.match(upText.stdout, new RegExp(`daemon at ${escaped(silent.path)}: not updated: did not answer`));
  } finally {
    await silent.close();
    await d.stop();
    p.cleanup();
  }
});
