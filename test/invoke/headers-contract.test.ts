// svc.yaml's headers on the wire, against a real server on loopback: a literal header goes with
// every request and shows in a write's confirmation; a secret one goes only where credentials go,
// is named (never shown) in the confirmation, is refused when its variable is unset or holds a
// line break; and nothing else rides along (the header names are those of a plain fetch plus the
// configured ones). The "no credentials sent" note appears exactly when svc.yaml has credentials
// for the spec and the call leaves their base URL; a read is never put to the person.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeContext, type InvokeResult, type Invoker } from '../../src/invoke/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { startServer, type TestServer } from './helpers.ts';

const SECRET = 'header-secret-7e6d5c4b';
const NOTE = '[svc sent no credentials:';
let server: TestServer;
let dir: string;
let spec: ImportedSpec;

before(async () => {
  process.env['SVC_TEST_HC_SECRET'] = SECRET;
  process.env['SVC_TEST_HC_BROKEN'] = 'two\r\nlines';
  delete process.env['SVC_TEST_HC_UNSET'];
  server = await startServer();
  server.route('/other/denied', (_req, res) => {
    res.writeHead(401, { 'content-type': 'text/plain' });
    res.end('who are you');
  });
  dir = await mkdtemp(path.join(tmpdir(), 'svc-headers-'));
  const file = path.join(dir, 'spec.yaml');
  const ok = "responses: { '200': { description: ok } }";
  await writeFile(
    file,
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\npaths:\n` +
      `  /in:\n    get: { ${ok} }\n    post: { ${ok} }\n` +
      `  /out:\n    get:\n      servers: [{ url: '${server.origin}/other' }]\n      ${ok}\n` +
      `  /denied:\n    get:\n      servers: [{ url: '${server.origin}/other' }]\n      ${ok}\n`,
  );
  const outcome = await importSpec(file, { name: 'h', collection: 'default' });
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  spec = outcome.spec;
});
after(async () => {
  for (const v of ['SVC_TEST_HC_SECRET', 'SVC_TEST_HC_BROKEN']) delete process.env[v];
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function invoker(headers: string): Promise<Invoker> {
  const file = path.join(dir, 'spec.yaml');
  return createInvoker(await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: h\n    writes: confirm\n${headers}`, path.join(dir, 'svc.yaml')));
}

function call(i: Invoker, method: string, p: string, ctx: InvokeContext = {}): Promise<InvokeResult> {
  return i.invoke(spec.endpoints.find((e) => e.method === method && e.path === p)!, spec, {}, ctx);
}

/** The header names a plain fetch sends to this server (undici's own, whatever its version). */
async function plainHeaderNames(): Promise<Set<string>> {
  await fetch(`${server.origin}/plain`).then((r) => r.arrayBuffer());
  return new Set(Object.keys(server.requests.at(-1)!.headers));
}

describe("svc.yaml's headers", () => {
  const configured = '    headers: { X-Team: core, X-Secret: "${SVC_TEST_HC_SECRET}" }\n';

  test('go with a request inside the base URL, and no other header rides along', async () => {
    const i = await invoker(configured);
    const plain = await plainHeaderNames();
    const r = await call(i, 'GET', '/in');
    assert.equal(r.isError, undefined, r.text);
    const got = server.requests.at(-1)!.headers;
    assert.equal(got['x-team'], 'core');
    assert.equal(got['x-secret'], SECRET);
    assert.deepEqual(Object.keys(got).filter((n) => !plain.has(n)).sort(), ['x-secret', 'x-team']);
    assert.ok(!r.text.includes(NOTE), r.text);
  });

  test('outside the base URL the secret one stays home and the answer says why; the literal one goes, nothing else', async () => {
    const i = await invoker(configured);
    const plain = await plainHeaderNames();
    const r = await call(i, 'GET', '/out');
    const last = server.requests.at(-1)!;
    assert.equal(last.url, '/other/out');
    assert.equal(last.headers['x-team'], 'core');
    assert.deepEqual(Object.keys(last.headers).filter((n) => !plain.has(n)), ['x-team']);
    assert.ok(r.text.endsWith(`\n${NOTE} ${server.origin}/other/out is outside ${server.origin}/api, the only base URL svc.yaml's credentials go to]`), r.text);
  });

  test('a 401 outside the base URL is the answer as it came, with the notes, and is not retried', async () => {
    const i = await invoker(configured);
    const before = server.requests.length;
    const r = await call(i, 'GET', '/denied');
    assert.equal(server.requests.length, before + 1);
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      `HTTP 401 Unauthorized\ncontent-type: text/plain\n\nwho are you\n${NOTE} ${server.origin}/other/denied is outside ${server.origin}/api, the only base URL svc.yaml's credentials go to]\n` +
        `${NOTE} GET /denied needs credentials; configure specs[0].auth in svc.yaml]`,
    );
  });

  test("a write's confirmation shows the literal header and names the secret one without its value", async () => {
    const i = await invoker(configured);
    const asked: string[] = [];
    const before = server.requests.length;
    await call(i, 'POST', '/in', { confirm: async (m) => (asked.push(m), false) });
    assert.equal(server.requests.length, before);
    assert.equal(asked[0], `Allow this POST to spec 'h' (POST /in)?\n\nPOST ${server.origin}/api/in\nX-Team: core\n(svc adds credentials from svc.yaml: X-Secret header; not shown)`);
  });

  test('a read is never put to the person, even when the client can ask', async () => {
    const i = await invoker(configured);
    const asked: string[] = [];
    const r = await call(i, 'GET', '/in', { confirm: async (m) => (asked.push(m), true) });
    assert.equal(r.isError, undefined, r.text);
    assert.deepEqual(asked, []);
  });

  test('a secret header whose variable is unset, or holds a line break, is refused before anything is sent', async () => {
    const before = server.requests.length;
    const unset = await call(await invoker('    headers: { X-Secret: "${SVC_TEST_HC_UNSET}" }\n'), 'GET', '/in');
    assert.equal(unset.text, "Environment variable SVC_TEST_HC_UNSET (named by specs[0].headers.X-Secret in svc.yaml) is not set, so svc cannot authenticate to 'h'.\nHint: set SVC_TEST_HC_UNSET in the environment svc runs in");
    const broken = await call(await invoker('    headers: { X-Secret: "${SVC_TEST_HC_BROKEN}" }\n'), 'GET', '/in');
    assert.equal(broken.text, "Header 'X-Secret' contains a line break (CR or LF) or NUL; svc refuses it, since it could inject headers.");
    assert.equal(server.requests.length, before);
  });

  test('a credential from auth with a line break is refused too', async () => {
    const before = server.requests.length;
    const r = await call(await invoker('    auth: { type: bearer, token: "${SVC_TEST_HC_BROKEN}" }\n'), 'GET', '/in');
    assert.equal(r.text, "Header 'authorization' contains a line break (CR or LF) or NUL; svc refuses it, since it could inject headers.");
    assert.equal(server.requests.length, before);
  });
});

test('with nothing of svc.yaml to guard a call outside the base URL carries no note about credentials', async () => {
  const r = await call(await invoker(''), 'GET', '/out');
  assert.equal(r.isError, undefined, r.text);
  assert.ok(!r.text.includes(NOTE), r.text);
});
