// $ref options and boundaries on real files in temp folders: allowRefsFrom, symlink escapes,
// remote refs (refused by default, private addresses refused even when allowed), and inputs
// that must come back as structured failures rather than exceptions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importSpec } from '../../src/import/index.ts';
import { FIXTURES } from './golden.ts';

const opts = { name: 't', collection: 'c' };

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-import-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('allowRefsFrom lets a $ref read a file outside the spec folder', async () => {
  const dir = path.join(FIXTURES, 'ref-outside-folder');
  const outcome = await importSpec(path.join(dir, 'spec/openapi.yaml'), { ...opts, allowRefsFrom: [dir] });
  assert.ok(outcome.ok);
  assert.deepEqual(outcome.spec.endpoints.map((e) => `${e.method} ${e.path} ${e.summary ?? ''}`), [
    'GET /inside ',
    'GET /outside Read from outside the spec folder',
  ]);
  assert.deepEqual(outcome.spec.files, [path.join(dir, 'spec/openapi.yaml'), path.join(dir, 'outside.yaml')]);
  assert.equal(outcome.spec.warnings.length, 0);
});

test('a symlink inside the spec folder that points outside it is refused', async (t) => {
  const dir = await tempDir(t);
  await mkdir(path.join(dir, 'spec'));
  await writeFile(path.join(dir, 'secret.yaml'), 'get:\n  summary: leaked\n  responses: {}\n');
  await symlink(path.join(dir, 'secret.yaml'), path.join(dir, 'spec', 'link.yaml'));
  await writeFile(path.join(dir, 'spec', 'openapi.yaml'), "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    $ref: link.yaml\n");
  const outcome = await importSpec(path.join(dir, 'spec', 'openapi.yaml'), opts);
  assert.ok(outcome.ok);
  assert.equal(outcome.spec.endpoints.length, 0);
  assert.deepEqual(outcome.spec.warnings.map((w) => [w.code, w.pointer]), [['ref-outside-folder', '/paths/~1a']]);
});

test('remote refs to loopback stay refused even with allowRemoteRefs', async (t) => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/yaml');
    res.end('get:\n  summary: remote\n  responses: {}\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;
  const dir = await tempDir(t);
  const file = path.join(dir, 'openapi.yaml');
  await writeFile(file, `openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /r:\n    $ref: 'http://127.0.0.1:${port}/item.yaml'\n`);

  const refused = await importSpec(file, opts);
  assert.ok(refused.ok);
  assert.deepEqual(refused.spec.warnings.map((w) => w.code), ['ref-remote-refused']);
  assert.match(refused.spec.warnings[0]!.hint!, /refs\.remote: true/, "the hint names the svc.yaml key that allows it");

  const allowed = await importSpec(file, { ...opts, allowRemoteRefs: true });
  assert.ok(allowed.ok);
  assert.equal(allowed.spec.endpoints.length, 0);
  assert.deepEqual(allowed.spec.warnings.map((w) => w.code), ['ref-remote-failed']);
  assert.match(allowed.spec.warnings[0]!.message, /loopback/);
  assert.equal(hits, 0, 'no request reached the loopback server');
});

test('an external file that is broken YAML is a warning naming its line', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, 'item.yaml'), 'get:\n  summary: "open\n  responses: {}\n');
  await writeFile(path.join(dir, 'openapi.yaml'), "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    $ref: item.yaml\n  /b:\n    get: {responses: {}}\n");
  const outcome = await importSpec(path.join(dir, 'openapi.yaml'), opts);
  assert.ok(outcome.ok);
  assert.deepEqual(outcome.spec.endpoints.map((e) => e.path), ['/b']);
  const w = outcome.spec.warnings.find((d) => d.code === 'ref-file-invalid');
  assert.ok(w, JSON.stringify(outcome.spec.warnings));
  assert.match(w.message, /item\.yaml at line \d+/);
});

test('bad inputs come back as failures naming the file, never as exceptions', async (t) => {
  const dir = await tempDir(t);
  const cases: [string, string | Buffer | null, string][] = [
    ['missing.yaml', null, 'file-missing'],
    ['empty.yaml', '', 'not-an-api-description'],
    ['list.json', '[1, 2]', 'not-an-api-description'],
    ['binary.bin', Buffer.from([0, 159, 146, 150, 255, 0, 1]), 'not-an-api-description'],
    ['v1.json', '{"name": "old", "requests": [], "order": []}', 'format-unsupported'],
    ['swagger12.json', '{"swaggerVersion": "1.2", "swagger": "1.2"}', 'format-unsupported'],
    ['truncated.json', '{"openapi": "3.0.0", "info": {', 'json-syntax'],
  ];
  for (const [name, content, code] of cases) {
    const file = path.join(dir, name);
    if (content !== null) await writeFile(file, content);
    const outcome = await importSpec(file, opts);
    assert.equal(outcome.ok, false, name);
    if (outcome.ok) continue;
    assert.equal(outcome.errors[0]!.code, code, `${name}: ${outcome.errors[0]!.message}`);
    assert.equal(outcome.errors[0]!.file, file);
  }
  const folder = await importSpec(dir, opts);
  assert.equal(folder.ok, false);
  if (!folder.ok) assert.equal(folder.errors[0]!.code, 'file-not-regular');
});

test('the hash changes when an external file changes, and files lists it', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, 'openapi.yaml'), "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    $ref: item.yaml\n");
  await writeFile(path.join(dir, 'item.yaml'), 'get:\n  summary: one\n  responses: {}\n');
  const first = await importSpec(path.join(dir, 'openapi.yaml'), opts);
  await writeFile(path.join(dir, 'item.yaml'), 'get:\n  summary: two\n  responses: {}\n');
  const second = await importSpec(path.join(dir, 'openapi.yaml'), opts);
  assert.ok(first.ok && second.ok);
  assert.deepEqual(first.spec.files, [path.join(dir, 'openapi.yaml'), path.join(dir, 'item.yaml')]);
  assert.notEqual(first.spec.hash, second.spec.hash);
  assert.equal(second.spec.endpoints[0]!.summary, 'two');
});
