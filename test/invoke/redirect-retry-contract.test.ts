// Redirects and retries from their HTTP contracts, against a real server on loopback: 303 (and
// 301/302 after a POST) become a GET without the body, HEAD stays HEAD, other redirects keep the
// method and body but a write is re-sent only to the same path; only safe methods are retried,
// only on 429, 502, 503 and 504, and the answer says how many retries it took.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeResult } from '../../src/invoke/index.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let dir: string;
let spec: ImportedSpec;
let invoke: (method: string, kind: string, body?: unknown) => Promise<InvokeResult>;
const hits = new Map<string, number>();

before(async () => {
  server = await startServer();
  dir = await mkdtemp(path.join(tmpdir(), 'svc-redirect-'));
  server.route('/api/r/', (req, res) => {
    const url = new URL(req.url, 'http://x');
    const kind = url.pathname.slice('/api/r/'.length);
    const n = (hits.get(`${req.method} ${kind}`) ?? 0) + 1;
    hits.set(`${req.method} ${kind}`, n);
    const redirect = /^(30[12378])-(.+)$/.exec(kind);
    if (redirect !== null && !url.searchParams.has('landed')) {
      const target = redirect[2] === 'same' ? `/api/r/${kind}?landed=1` : '/api/r/landing';
      res.writeHead(Number(redirect[1]), { location: target });
      res.end();
      return;
    }
    const status = /^(\d{3})-then-ok$/.exec(kind);
    if (status !== null && n === 1) {
      res.writeHead(Number(status[1]), { 'retry-after': '0', 'content-type': 'text/plain' });
      res.end(`failed ${status[1]}`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, path: url.pathname, body: req.body.toString() }));
  });
  const file = path.join(dir, 'spec.yaml');
  const op = (m: string) => `    ${m}:\n      parameters: [{ name: kind, in: path, required: true, schema: { type: string } }]\n${m === 'get' || m === 'head' ? '' : "      requestBody: { content: { application/json: { schema: { type: object } } } }\n"}      responses: { '200': { description: ok } }\n`;
  await writeFile(file, `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\npaths:\n  /r/{kind}:\n${['get', 'head', 'post', 'put'].map(op).join('')}`);
  const config = await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: r\n    writes: allow\n    retries: 2\n`, path.join(dir, 'svc.yaml'));
  const outcome = await importSpec(file, { name: 'r', collection: 'default' });
  assert.ok(outcome.ok);
  spec = outcome.spec;
  const invoker = createInvoker(config);
  invoke = (method, kind, body) => {
    const endpoint = spec.endpoints.find((e: Endpoint) => e.method === method)!;
    return invoker.invoke(endpoint, spec, { params: { kind }, ...(body !== undefined ? { body } : {}) }, {});
  };
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const landed = (r: InvokeResult): { method: string; path: string; body: string } => (r.structured as { body: { method: string; path: string; body: string } }).body;

describe('redirects', () => {
  test('303 turns any method into GET without the body; HEAD stays HEAD', async () => {
    assert.deepEqual(landed(await invoke('POST', '303-x', { a: 1 })), { method: 'GET', path: '/api/r/landing', body: '' });
    assert.deepEqual(landed(await invoke('PUT', '303-x', { a: 1 })), { method: 'GET', path: '/api/r/landing', body: '' });
    const head = await invoke('HEAD', '303-x');
    assert.equal(head.isError, undefined);
    assert.equal(hits.get('HEAD landing'), 1);
  });

  test('301 and 302 turn a POST into GET; a GET stays GET', async () => {
    for (const s of ['301', '302']) {
      assert.deepEqual(landed(await invoke('POST', `${s}-x`, { a: 1 })), { method: 'GET', path: '/api/r/landing', body: '' }, s);
      assert.deepEqual(landed(await invoke('GET', `${s}-x`)), { method: 'GET', path: '/api/r/landing', body: '' }, s);
    }
  });

  test('a redirect that keeps the method re-sends a write, body included, only to the same path', async () => {
    for (const s of ['301', '302', '307', '308']) {
      const moved = await invoke('PUT', `${s}-x`, { a: 1 });
      assert.match(moved.text, /\[redirect of PUT to \/api\/r\/landing not followed: svc re-sends a write only to the same path\]/, s);
      assert.deepEqual(landed(await invoke('PUT', `${s}-same`, { a: 2 })), { method: 'PUT', path: `/api/r/${s}-same`, body: '{"a":2}' }, s);
    }
    assert.deepEqual(landed(await invoke('POST', '307-same', { a: 3 })), { method: 'POST', path: '/api/r/307-same', body: '{"a":3}' });
  });
});

describe('retries', () => {
  test('a safe method is retried on 429, 502, 503 and 504, and the answer counts the retries', async () => {
    for (const s of ['429', '502', '503', '504']) {
      const r = await invoke('GET', `${s}-then-ok`);
      assert.equal(r.isError, undefined, s);
      assert.ok(r.text.endsWith('\n[after 1 retry]'), r.text);
      assert.equal(hits.get(`GET ${s}-then-ok`), 2, s);
    }
  });

  test('other errors are not retried, and writes never are', async () => {
    const r = await invoke('GET', '500-then-ok');
    assert.equal(r.isError, true);
    assert.equal(hits.get('GET 500-then-ok'), 1);
    const w = await invoke('POST', '503-then-ok', { a: 1 });
    assert.equal(w.isError, true);
    assert.match(w.text, /^HTTP 503/);
    assert.equal(hits.get('POST 503-then-ok'), 1);
  });
});
