// Edges of invoke's contract that the usual specs never reach, against a real server on loopback:
// spec paths without a leading slash (or empty) and paths that climb out of the base path; an API
// key in the query beside the call's own query; a redirect whose Location is no URL; the
// confirmation of a write that goes outside the credentials' base URL; and whatever goes wrong
// while reading the caller's arguments comes back as an error result, redacted, never a rejection.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeArgs, type InvokeContext, type InvokeResult } from '../../src/invoke/index.ts';
import { REDACTED } from '../../src/invoke/redact.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { startServer, type TestServer } from './helpers.ts';

const KEY = 'edges-key-9f8e7d6c5b';
let server: TestServer;
let dir: string;
let spec: ImportedSpec;
let invoke: (method: string, p: string, args?: InvokeArgs, ctx?: InvokeContext) => Promise<InvokeResult>;

before(async () => {
  process.env['SVC_TEST_EDGES_KEY'] = KEY;
  server = await startServer();
  server.route('/api/bad-location', (_req, res) => {
    res.writeHead(302, { location: 'http://[not a host' });
    res.end();
  });
  dir = await mkdtemp(path.join(tmpdir(), 'svc-invoke-edges-'));
  const file = path.join(dir, 'spec.yaml');
  const ok = "responses: { '200': { description: ok } }";
  await writeFile(
    file,
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\n` +
      `components:\n  securitySchemes:\n    key: { type: apiKey, in: query, name: api_key }\nsecurity: [{ key: [] }]\n` +
      `paths:\n` +
      `  pets:\n    get: { ${ok} }\n` +
      `  '':\n    get: { ${ok} }\n` +
      `  /%2e%2e/outside:\n    get: { ${ok} }\n` +
      `  /list:\n    get:\n      parameters: [{ name: limit, in: query, schema: { type: integer } }]\n      ${ok}\n` +
      `  /bad-location:\n    get: { ${ok} }\n` +
      `  /elsewhere:\n    post:\n      servers: [{ url: '${server.origin}/other' }]\n      ${ok}\n`,
  );
  const config = await parseConfig(
    `specs:\n  - path: ${JSON.stringify(file)}\n    name: e\n    writes: confirm\n    auth: { type: apiKey, in: query, name: api_key, value: "\${SVC_TEST_EDGES_KEY}" }\n`,
    path.join(dir, 'svc.yaml'),
  );
  const outcome = await importSpec(file, { name: 'e', collection: 'default' });
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  spec = outcome.spec;
  const invoker = createInvoker(config);
  invoke = (method, p, args = {}, ctx = {}) => {
    const endpoint = spec.endpoints.find((e) => e.method === method && e.path === p);
    assert.ok(endpoint, `no ${method} ${p}`);
    return invoker.invoke(endpoint, spec, args, ctx);
  };
});
after(async () => {
  delete process.env['SVC_TEST_EDGES_KEY'];
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The request target of the last request the server saw. */
function lastTarget(): string {
  const last = server.requests.at(-1);
  assert.ok(last, 'no request reached the server');
  return last.url;
}

describe('spec paths', () => {
  test('a path without a leading slash goes under the base path with one', async () => {
    const r = await invoke('GET', 'pets');
    assert.equal(r.isError, undefined, r.text);
    assert.equal(lastTarget(), `/api/pets?api_key=${KEY}`);
  });

  test('an empty path is the base path itself, with no slash added', async () => {
    const r = await invoke('GET', '');
    assert.equal(r.isError, undefined, r.text);
    assert.equal(lastTarget(), `/api?api_key=${KEY}`);
  });

  // A literal `..` segment is refused when the path is built; `%2e%2e` is one too for every URL
  // parser, and the check of the final URL against the base path catches it.
  test('a path that climbs out of the base path (`%2e%2e`) is refused and nothing is sent', async () => {
    const before = server.requests.length;
    const r = await invoke('GET', '/%2e%2e/outside');
    assert.equal(r.isError, true);
    assert.equal(r.text, `The URL ${server.origin}/outside leaves the base path of spec 'e'; svc refuses it.`);
    assert.equal(server.requests.length, before);
  });
});

test("an API key in the query goes after the call's own query parameters, joined by &", async () => {
  const r = await invoke('GET', '/list', { params: { limit: 2 } });
  assert.equal(r.isError, undefined, r.text);
  assert.equal(lastTarget(), `/api/list?limit=2&api_key=${KEY}`);
  assert.ok(!r.text.includes(KEY));
});

test('a redirect whose Location is no URL is not followed, and the note quotes the Location', async () => {
  const before = server.requests.length;
  const r = await invoke('GET', '/bad-location');
  assert.equal(server.requests.length, before + 1);
  assert.match(r.text, /^HTTP 302 Found\nlocation: http:\/\/\[not a host\n/);
  assert.ok(r.text.endsWith(`\n[redirect to http://[not a host not followed: svc only follows redirects within ${server.origin}]`), r.text);
});

test('the confirmation of a write outside the base URL of the credentials names no credentials', async () => {
  const asked: string[] = [];
  const before = server.requests.length;
  const r = await invoke('POST', '/elsewhere', {}, { confirm: async (m) => (asked.push(m), false) });
  assert.equal(r.isError, true);
  assert.equal(asked.length, 1);
  assert.equal(asked[0], `Allow this POST to spec 'e' (POST /elsewhere)?\n\nPOST ${server.origin}/other/elsewhere`);
  assert.equal(server.requests.length, before);
});

describe('a failure while reading the arguments', () => {
  test('an Error becomes an error result with its message, secrets redacted', async () => {
    const params = Object.defineProperty({}, 'limit', {
      enumerable: true,
      get() {
        throw new Error(`cannot read limit (key ${KEY})`);
      },
    });
    const r = await invoke('GET', '/list', { params });
    assert.equal(r.isError, true);
    assert.equal(r.text, `Invoke failed: cannot read limit (key ${REDACTED})`);
  });

  test('a thrown value that is no Error is shown as text', async () => {
    const params = Object.defineProperty({}, 'limit', {
      enumerable: true,
      get() {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a caller's code may do
        throw `no limit here, ${KEY}`;
      },
    });
    const r = await invoke('GET', '/list', { params });
    assert.equal(r.isError, true);
    assert.equal(r.text, `Invoke failed: no limit here, ${REDACTED}`);
  });
});
