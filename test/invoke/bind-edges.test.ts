// Binding a call's arguments at its edges, against a real server on loopback: a parameter given
// twice (bare and qualified) is refused with the key named; a request body the description gives
// without any media type is sent as JSON unless the call names another type.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeResult } from '../../src/invoke/index.ts';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let dir: string;
let call: (p: string, args: { params?: Record<string, unknown>; body?: unknown; contentType?: string }) => Promise<InvokeResult>;

before(async () => {
  server = await startServer();
  dir = await mkdtemp(path.join(tmpdir(), 'svc-bind-'));
  const file = path.join(dir, 'spec.yaml');
  await writeFile(
    file,
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\npaths:\n` +
      `  /items/{id}:\n    get:\n      parameters:\n        - { name: id, in: path, required: true, schema: { type: string } }\n        - { name: id, in: query, schema: { type: string } }\n        - { name: mode, in: query, schema: { type: string } }\n      responses: { '200': { description: ok } }\n` +
      `  /raw:\n    post:\n      requestBody: { content: {} }\n      responses: { '200': { description: ok } }\n`,
  );
  const config = await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: b\n    writes: allow\n`, path.join(dir, 'svc.yaml'));
  const outcome = await importSpec(file, { name: 'b', collection: 'default' });
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  const invoker = createInvoker(config);
  call = (p, args) => invoker.invoke(spec.endpoints.find((e) => e.path === p)!, spec, args, {});
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('binding arguments', () => {
  test('a parameter given twice, bare and qualified, is refused naming the second key', async () => {
    const before = server.requests.length;
    const r = await call('/items/{id}', { params: { 'path.id': 'a', 'query.id': 'b', mode: 'x', 'query.mode': 'y' } });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /'query\.mode': given twice/);
    assert.equal(server.requests.length, before);
    const ok = await call('/items/{id}', { params: { 'path.id': 'a', 'query.id': 'b', mode: 'x' } });
    assert.equal(ok.isError, undefined, ok.text);
    assert.equal(server.requests.at(-1)!.url, '/api/items/a?id=b&mode=x');
  });

  test('a body described without a media type goes as JSON, or as the type the call names', async () => {
    const r = await call('/raw', { body: { a: [1, 'two'] } });
    assert.equal(r.isError, undefined, r.text);
    const sent = server.requests.at(-1)!;
    assert.deepEqual([sent.headers['content-type'], sent.body.toString()], ['application/json', '{"a":[1,"two"]}']);
    const t = await call('/raw', { body: 'plain words', contentType: 'text/plain' });
    assert.equal(t.isError, undefined, t.text);
    const text = server.requests.at(-1)!;
    assert.deepEqual([text.headers['content-type']?.split(';')[0], text.body.toString()], ['text/plain', 'plain words']);
  });
});
