// What every request carries and what svc.yaml's `parameters:` fill, against a real server on
// loopback: the default Accept and User-Agent; configured values for query and header parameters
// (redacted wherever the API echoes them, named by their key when their variable is unset), never
// for a path parameter, which stays the model's; and the codes of invoke's refusals.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { InvalidArgumentsError, OriginRefusedError, WriteRefusedError } from '../../src/invoke/errors.ts';
import { createInvoker, type InvokeContext, type InvokeResult } from '../../src/invoke/index.ts';
import { REDACTED } from '../../src/invoke/redact.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { startServer, type TestServer } from './helpers.ts';

const KEY = 'configured-key-4d5e6f7a';
const TENANT = 'configured-tenant-8b9c';
let server: TestServer;
let dir: string;
let spec: ImportedSpec;
let call: (method: string, p: string, params?: Record<string, unknown>, ctx?: InvokeContext) => Promise<InvokeResult>;
let callUnset: (method: string, p: string, params?: Record<string, unknown>) => Promise<InvokeResult>;

before(async () => {
  process.env['SVC_TEST_RD_KEY'] = KEY;
  process.env['SVC_TEST_RD_TENANT'] = TENANT;
  delete process.env['SVC_TEST_RD_UNSET'];
  server = await startServer();
  dir = await mkdtemp(path.join(tmpdir(), 'svc-request-defaults-'));
  const file = path.join(dir, 'spec.yaml');
  const params = `      parameters:\n        - { name: id, in: path, required: true, schema: { type: string } }\n        - { name: key, in: query, schema: { type: string } }\n        - { name: X-Tenant, in: header, schema: { type: string } }\n`;
  await writeFile(
    file,
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\npaths:\n` +
      `  /items/{id}:\n    get:\n${params}      responses: { '200': { description: ok } }\n    post:\n${params}      responses: { '200': { description: ok } }\n`,
  );
  const entry = (name: string, id: string) =>
    `  - path: ${JSON.stringify(file)}\n    name: ${name}\n    writes: confirm\n    parameters: { id: "\${${id}}", key: "\${SVC_TEST_RD_KEY}", header.X-Tenant: "\${SVC_TEST_RD_TENANT}" }\n`;
  const config = await parseConfig(`specs:\n${entry('r', 'SVC_TEST_RD_KEY')}`, path.join(dir, 'svc.yaml'));
  const unset = await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: r\n    parameters: { query.key: "\${SVC_TEST_RD_UNSET}" }\n`, path.join(dir, 'svc.yaml'));
  const outcome = await importSpec(file, { name: 'r', collection: 'default' });
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  spec = outcome.spec;
  const endpoint = (method: string, p: string) => spec.endpoints.find((e) => e.method === method && e.path === p)!;
  const invoker = createInvoker(config);
  call = (method, p, params = {}, ctx = {}) => invoker.invoke(endpoint(method, p), spec, { params }, ctx);
  const unsetInvoker = createInvoker(unset);
  callUnset = (method, p, params = {}) => unsetInvoker.invoke(endpoint(method, p), spec, { params }, {});
});
after(async () => {
  delete process.env['SVC_TEST_RD_KEY'];
  delete process.env['SVC_TEST_RD_TENANT'];
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('every request asks for JSON first and names svc as its user agent', async () => {
  await call('GET', '/items/{id}', { id: 'a1' });
  const last = server.requests.at(-1)!;
  assert.equal(last.headers['accept'], 'application/json, */*;q=0.8');
  assert.equal(last.headers['user-agent'], 'svc (+MCP bridge)');
});

describe("svc.yaml's parameters", () => {
  test('fill the query and header parameters, never the path one, and are redacted in the answer', async () => {
    const r = await call('GET', '/items/{id}', { id: 'a1' });
    const last = server.requests.at(-1)!;
    assert.equal(last.url, `/api/items/a1?key=${KEY}`);
    assert.equal(last.headers['x-tenant'], TENANT);
    // The echo server repeats the request: both configured values come back redacted.
    assert.ok(!r.text.includes(KEY) && !r.text.includes(TENANT), r.text);
    assert.ok(r.text.includes(`key=${REDACTED}`), r.text);
  });

  test('a path value equal to a configured one is the model\'s own, not a secret', async () => {
    const r = await call('GET', '/items/{id}', { id: 'plain-value-123' });
    assert.equal(server.requests.at(-1)!.url, `/api/items/plain-value-123?key=${KEY}`);
    assert.ok(r.text.includes('/api/items/plain-value-123'), r.text);
  });

  test('the confirmation of a write names the configured query key and header, not the path parameter', async () => {
    const asked: string[] = [];
    const r = await call('POST', '/items/{id}', { id: 'a1' }, { confirm: async (m) => (asked.push(m), false) });
    assert.equal(r.isError, true);
    assert.equal(asked.length, 1);
    assert.ok(asked[0]!.endsWith('(svc adds credentials from svc.yaml: query key key, header X-Tenant; not shown)'), asked[0]);
  });

  test('a configured parameter whose variable is unset is refused, naming its key in svc.yaml', async () => {
    const before = server.requests.length;
    const r = await callUnset('GET', '/items/{id}', { id: 'a1' });
    assert.equal(r.isError, true);
    assert.equal(r.text, "Environment variable SVC_TEST_RD_UNSET (named by specs[0].parameters.query.key in svc.yaml) is not set, so svc cannot authenticate to 'r'.\nHint: set SVC_TEST_RD_UNSET in the environment svc runs in");
    assert.equal(server.requests.length, before);
  });
});

test("invoke's refusals carry their codes, and the hint given", () => {
  assert.equal(new InvalidArgumentsError('m', ['p']).code, 'invoke-invalid-args');
  assert.deepEqual([new WriteRefusedError('m', 'h').code, new WriteRefusedError('m', 'h').hint], ['invoke-write-refused', 'h']);
  assert.deepEqual([new OriginRefusedError('m', 'h').code, new OriginRefusedError('m', 'h').hint], ['invoke-origin-refused', 'h']);
  assert.equal(new WriteRefusedError('m').hint, undefined);
  assert.equal(new OriginRefusedError('m').hint, undefined);
});
