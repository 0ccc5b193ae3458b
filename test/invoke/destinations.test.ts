// Attacks on where the credentials go: a spec default that moves svc.yaml's templated host, an
// operation-level server elsewhere, a redirect out of the base path, a 307 that moves a confirmed
// write. And what the person approving a write is shown.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeResult } from '../../src/invoke/index.ts';
import { everything, harness, startServer, type TestServer } from './helpers.ts';

const TOKEN = 'bearer-Zd91-destination';
let server: TestServer;
let dir: string;

before(async () => {
  process.env.SVC_DEST_TOKEN = TOKEN;
  server = await startServer();
  dir = await mkdtemp(path.join(tmpdir(), 'svc-dest-'));
  server.route('/api/raw/', (req, res) => {
    const kind = req.url.split('?')[0]!.slice('/api/raw/'.length);
    if (kind === 'out-of-base') {
      res.writeHead(302, { location: '/elsewhere/landing' });
      res.end();
    } else if (kind === 'within-base') {
      res.writeHead(302, { location: '/api/raw/landed' });
      res.end();
    } else if (kind === 'move-write') {
      res.writeHead(307, { location: '/api/raw/stolen' });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind, method: req.method }));
    }
  });
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const bearer = `auth:\n  - { type: bearer, token: "\${SVC_DEST_TOKEN}" }`;

/** A spec written for one test, with svc.yaml entry lines; returns a caller. */
async function custom(spec: string, entry: string): Promise<(id: string, params?: Record<string, unknown>) => Promise<InvokeResult>> {
  const file = path.join(dir, `spec-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, spec);
  const yaml = `specs:\n  - path: ${JSON.stringify(file)}\n    name: custom\n${entry.split('\n').map((l) => `    ${l}`).join('\n')}\n`;
  const config = await parseConfig(yaml, path.join(dir, 'svc.yaml'));
  const outcome = await importSpec(file, { name: 'custom', collection: 'default' });
  assert.ok(outcome.ok);
  const invoker = createInvoker(config);
  return (id, params = {}) => invoker.invoke(outcome.spec.endpoints.find((e) => e.id === `custom:${id}`)!, outcome.spec, { params }, {});
}

describe('credentials go only to the base URL', () => {
  test("a spec's default for a variable of svc.yaml's templated baseUrl cannot move the host", async () => {
    const call = await custom(
      `openapi: 3.0.3
info: { title: t, version: '1' }
servers:
  - url: http://{tenant}.api.example/v1
    variables:
      tenant: { default: '127.0.0.1:${server.port}/steal#' }
paths:
  /me: { get: { responses: { '200': { description: ok } } } }
`,
      `baseUrl: http://{tenant}.api.example/v1\n${bearer}`,
    );
    const count = server.requests.length;
    const r = await call('GET:/me');
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /uses variable 'tenant' without a default/);
    assert.match(r.text, /svc\.yaml's baseUrl takes its variables from svc\.yaml only/);
    assert.equal(server.requests.length, count, 'nothing reached the address the spec chose');
  });

  test("svc.yaml's own value for a templated baseUrl is percent-encoded, so it cannot add a host or path", async () => {
    const call = await custom(
      `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /me: { get: { responses: { '200': { description: ok } } } }
`,
      `baseUrl: http://127.0.0.1:${server.port}/api/{tenant}\nserverVariables:\n  tenant: "a/../../steal?x=1#"\n${bearer}`,
    );
    const r = await call('GET:/me');
    assert.equal(r.isError, undefined, r.text);
    assert.equal(server.requests.at(-1)!.url, '/api/a%2F..%2F..%2Fsteal%3Fx%3D1%23/me');
  });

  test("an operation-level server on another origin gets no credentials, even when svc.yaml allows the origin", async () => {
    const h = await harness(
      'petstore.yaml',
      'pets',
      `serverVariables:\n  port: "${server.port}"\nallowedOrigins: ["http://localhost:${server.port}"]\nheaders:\n  X-Secret-Header: "\${SVC_DEST_TOKEN}"\n  User-Agent: svc-test\n${bearer}`,
    );
    const r = await h.call('GET:/uploads/{name}', { params: { name: 'a.txt' } });
    const rec = server.requests.at(-1)!;
    assert.equal(rec.url, '/files/uploads/a.txt');
    assert.equal(rec.headers.authorization, undefined);
    assert.equal(rec.headers['x-secret-header'], undefined, 'a secret header is a credential too');
    assert.equal(rec.headers['user-agent'], 'svc-test');
    assert.match(r.text, /\[svc sent no credentials: http:\/\/localhost:\d+\/files\/uploads\/a\.txt is outside http:\/\/127\.0\.0\.1:\d+\/api/);
  });

  test('a redirect out of the base path is followed without the credential', async () => {
    const h = await harness('guarded.yaml', 'g', `serverVariables:\n  port: "${server.port}"\n${bearer}`);
    await h.call('GET:/raw/{kind}', { params: { kind: 'out-of-base' } });
    const landed = server.requests.at(-1)!;
    assert.equal(landed.url, '/elsewhere/landing');
    assert.equal(landed.headers.authorization, undefined);
  });

  test('a redirect within the base path keeps the credential', async () => {
    const h = await harness('guarded.yaml', 'g', `serverVariables:\n  port: "${server.port}"\n${bearer}`);
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'within-base' } });
    assert.equal(r.isError, undefined, r.text);
    assert.equal(server.requests.at(-1)!.url, '/api/raw/landed');
    assert.equal(server.requests.at(-1)!.headers.authorization, `Bearer ${TOKEN}`);
  });

  test('a 307 after a confirmed write is not followed to another path', async () => {
    const h = await harness('guarded.yaml', 'g', `serverVariables:\n  port: "${server.port}"\nwrites: confirm\n${bearer}`);
    const r = await h.call('PUT:/raw/{kind}', { params: { kind: 'move-write' }, body: { amount: 5 } }, { confirm: async () => true });
    assert.equal(server.requests.at(-1)!.url, '/api/raw/move-write');
    assert.match(r.text, /HTTP 307/);
    assert.match(r.text, /redirect of PUT to \/api\/raw\/stolen not followed/);
  });

});

describe('the write confirmation shows what will be sent', () => {
  test('method, full URL with query, non-secret headers and the body, with no credential', async () => {
    const h = await harness('guarded.yaml', 'g', `serverVariables:\n  port: "${server.port}"\nwrites: confirm\nheaders:\n  User-Agent: svc-test\n${bearer}`);
    const asked: string[] = [];
    await h.call('POST:/echo', { params: { note: 'pay rent', 'X-Trace': 't-1' }, body: { amount: 1000, to: 'acct-999' } }, { confirm: async (m) => (asked.push(m), false) });
    assert.equal(asked.length, 1);
    const m = asked[0]!;
    assert.match(m, /^Allow this POST to spec 'g' \(POST \/echo\)\?/);
    assert.ok(m.includes(`POST http://127.0.0.1:${server.port}/api/echo?note=pay%20rent`), m);
    assert.ok(m.includes('User-Agent: svc-test'), m);
    assert.ok(m.includes('X-Trace: t-1'), m);
    assert.ok(m.includes('Content-Type: application/json'), m);
    assert.ok(m.includes('{"amount":1000,"to":"acct-999"}'), m);
    assert.ok(m.includes('(svc adds credentials from svc.yaml: Authorization header; not shown)'), m);
    assert.ok(!m.includes(TOKEN), m);
  });

  test('a long body is cut with a note saying how much is shown', async () => {
    const h = await harness('guarded.yaml', 'g', `serverVariables:\n  port: "${server.port}"\nwrites: confirm\n${bearer}`);
    const asked: string[] = [];
    await h.call('POST:/echo', { body: { text: 'w'.repeat(5000) } }, { confirm: async (m) => (asked.push(m), false) });
    assert.match(asked[0]!, /\[body cut: showing 2000 of 5011 characters\]/);
    assert.ok(asked[0]!.length < 2600);
  });
});

describe('auth entries whose meaning is clear', () => {
  test('a bearer entry serves an apiKey scheme in the Authorization header, and the answer says so', async () => {
    const h = await harness('guarded.yaml', 'g', `serverVariables:\n  port: "${server.port}"\n${bearer}`);
    const r = await h.call('GET:/k8s');
    assert.equal(server.requests.at(-1)!.headers.authorization, `Bearer ${TOKEN}`);
    assert.match(r.text, /\[svc applied specs\[0\]\.auth\[0\] \(type bearer\) as 'Authorization: Bearer \.\.\.' to scheme 'BearerToken', which the spec declares as an apiKey in the header 'authorization'\]/);
    assert.ok(!everything(r).includes(TOKEN));
  });
});
