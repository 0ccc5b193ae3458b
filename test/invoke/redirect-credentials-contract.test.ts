// Credentials stay within the base path they belong to, across redirects: a redirect inside the
// spec's base path keeps them; one to the same origin outside it drops every svc.yaml header and
// the auth header, while what the model itself gave (a header parameter, a cookie parameter) is
// still sent. Against a real server on loopback.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeResult } from '../../src/invoke/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { startServer, type Recorded, type TestServer } from './helpers.ts';

const KEY = 'redirect-key-5c6d7e8f';
const SECRET_HEADER = 'redirect-hdr-1a2b3c4d';
let server: TestServer;
let dir: string;
let spec: ImportedSpec;
let invoke: (path: string, params: Record<string, unknown>) => Promise<InvokeResult>;

before(async () => {
  process.env['SVC_TEST_REDIRECT_KEY'] = KEY;
  process.env['SVC_TEST_REDIRECT_HDR'] = SECRET_HEADER;
  server = await startServer();
  server.route('/api/out', (_req, res) => {
    res.writeHead(302, { location: '/elsewhere/landing' });
    res.end();
  });
  server.route('/api/in', (_req, res) => {
    res.writeHead(307, { location: '/api/landing' });
    res.end();
  });
  dir = await mkdtemp(path.join(tmpdir(), 'svc-redirect-creds-'));
  const file = path.join(dir, 'spec.yaml');
  const op = `    get:\n      parameters:\n        - { name: X-Trace, in: header, schema: { type: string } }\n        - { name: pref, in: cookie, schema: { type: string } }\n      responses: { '200': { description: ok } }\n`;
  await writeFile(
    file,
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\n` +
      `components:\n  securitySchemes:\n    key: { type: apiKey, in: header, name: X-Key }\nsecurity: [{ key: [] }]\n` +
      `paths:\n  /out:\n${op}  /in:\n${op}`,
  );
  const config = await parseConfig(
    `specs:\n  - path: ${JSON.stringify(file)}\n    name: r\n    auth: { type: apiKey, in: header, name: X-Key, value: "\${SVC_TEST_REDIRECT_KEY}" }\n` +
      `    headers: { X-Secret: "\${SVC_TEST_REDIRECT_HDR}", X-Team: core }\n`,
    path.join(dir, 'svc.yaml'),
  );
  const outcome = await importSpec(file, { name: 'r', collection: 'default' });
  assert.ok(outcome.ok);
  spec = outcome.spec;
  const invoker = createInvoker(config);
  invoke = (p, params) => invoker.invoke(spec.endpoints.find((e) => e.path === p)!, spec, { params }, {});
});
after(async () => {
  delete process.env['SVC_TEST_REDIRECT_KEY'];
  delete process.env['SVC_TEST_REDIRECT_HDR'];
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const arrived = (pathname: string): Recorded => {
  const hit = server.requests.findLast((r) => r.url.split('?')[0] === pathname);
  assert.ok(hit, `no request reached ${pathname}`);
  return hit;
};

describe('credentials across redirects', () => {
  test('a redirect inside the base path keeps the credentials and svc.yaml headers', async () => {
    const result = await invoke('/in', { 'X-Trace': 't-in', pref: 'dark' });
    assert.equal(result.isError, undefined, result.text);
    for (const p of ['/api/in', '/api/landing']) {
      const h = arrived(p).headers;
      assert.deepEqual([h['x-key'], h['x-secret'], h['x-team'], h['x-trace'], h['cookie']], [KEY, SECRET_HEADER, 'core', 't-in', 'pref=dark'], p);
    }
  });

  test('a redirect to the same origin outside the base path drops every credential and svc.yaml header, and keeps what the model gave', async () => {
    const result = await invoke('/out', { 'X-Trace': 't-out', pref: 'light' });
    assert.equal(result.isError, undefined, result.text);
    const first = arrived('/api/out').headers;
    assert.deepEqual([first['x-key'], first['x-secret'], first['x-team']], [KEY, SECRET_HEADER, 'core']);
    const landed = arrived('/elsewhere/landing').headers;
    assert.deepEqual(
      { key: landed['x-key'], secret: landed['x-secret'], team: landed['x-team'], authorization: landed['authorization'], trace: landed['x-trace'], cookie: landed['cookie'] },
      { key: undefined, secret: undefined, team: undefined, authorization: undefined, trace: 't-out', cookie: 'pref=light' },
    );
    assert.equal(result.text.includes(KEY) || result.text.includes(SECRET_HEADER), false);
  });
});
