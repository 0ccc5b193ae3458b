// What counts as a redirect, and several query credentials at once, against a real server on
// loopback: only a 3xx with a Location is followed (a 201 Created or a 4xx that names a Location
// is the answer itself); every API key svc.yaml puts in the query goes as its own pair; cookies
// share one header.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type Invoker } from '../../src/invoke/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { startServer, type TestServer } from './helpers.ts';

const K1 = 'first-query-key-1a2b';
const K2 = 'second-query-key-3c4d';
let server: TestServer;
let dir: string;
let spec: ImportedSpec;
let invoker: Invoker;

before(async () => {
  process.env['SVC_TEST_WE_K1'] = K1;
  process.env['SVC_TEST_WE_K2'] = K2;
  server = await startServer();
  server.route('/api/status/', (req, res) => {
    res.writeHead(Number(req.url.split('?')[0]!.split('/').at(-1)), { location: '/api/landing', 'content-type': 'text/plain' });
    res.end('here');
  });
  server.route('/api/landing', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('landed');
  });
  dir = await mkdtemp(path.join(tmpdir(), 'svc-wire-edges-'));
  const file = path.join(dir, 'spec.yaml');
  await writeFile(
    file,
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\npaths:\n` +
      `  /status/{code}:\n    get:\n      parameters: [{ name: code, in: path, required: true, schema: { type: integer } }]\n      responses: { '200': { description: ok } }\n`+
      `  /cookies:\n    get:\n      parameters: [{ name: a, in: cookie, schema: { type: string } }, { name: b, in: cookie, schema: { type: string } }]\n      responses: { '200': { description: ok } }\n`,
  );
  const config = await parseConfig(
    `specs:\n  - path: ${JSON.stringify(file)}\n    name: w\n    auth:\n` +
      `      - { type: apiKey, in: query, name: k1, value: "\${SVC_TEST_WE_K1}" }\n      - { type: apiKey, in: query, name: k2, value: "\${SVC_TEST_WE_K2}" }\n`,
    path.join(dir, 'svc.yaml'),
  );
  const outcome = await importSpec(file, { name: 'w', collection: 'default' });
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  spec = outcome.spec;
  invoker = createInvoker(config);
});
after(async () => {
  delete process.env['SVC_TEST_WE_K1'];
  delete process.env['SVC_TEST_WE_K2'];
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function statusCall(code: number): Promise<{ text: string; targets: string[] }> {
  const before = server.requests.length;
  const r = await invoker.invoke(spec.endpoints[0]!, spec, { params: { code } }, {});
  return { text: r.text, targets: server.requests.slice(before).map((q) => q.url.split('?')[0]!) };
}

test('a 3xx with a Location is followed; any other status with one is the answer', async () => {
  for (const code of [300, 301, 302, 307, 308, 399]) {
    const { text, targets } = await statusCall(code);
    assert.deepEqual(targets, [`/api/status/${code}`, '/api/landing'], String(code));
    assert.match(text, /^HTTP 200 OK\n[\s\S]*\n\nlanded$/, String(code));
  }
  for (const code of [200, 201, 299, 400, 404]) {
    const { text, targets } = await statusCall(code);
    assert.deepEqual(targets, [`/api/status/${code}`], String(code));
    assert.match(text, new RegExp(`^HTTP ${code}( [^\\n]*)?\\ncontent-type: text/plain\\nlocation: /api/landing\\n\\nhere$`), String(code));
  }
});

test('every API key for the query goes as its own pair, in the order svc.yaml lists them', async () => {
  await statusCall(200);
  assert.equal(server.requests.at(-1)!.url, `/api/status/200?k1=${K1}&k2=${K2}`);
});

test('cookies go in one Cookie header, separated by a semicolon and a space', async () => {
  const endpoint = spec.endpoints.find((e) => e.path === '/cookies')!;
  await invoker.invoke(endpoint, spec, { params: { a: '1', b: 'two' } }, {});
  assert.equal(server.requests.at(-1)!.headers['cookie'], 'a=1; b=two');
});
