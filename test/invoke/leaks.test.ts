// Attacks on the secrets through what an API sends back: a cut inside an echoed token, a token that
// comes back JSON-escaped, an OAuth2 error page that quotes the client secret, an endless body.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { ConfigError } from '../../src/model/errors.ts';
import { everything, FIXTURES, harness, startServer, type Harness, type TestServer } from './helpers.ts';

const TOKEN = 'tok"SEC\\RET-7f9a1c2b3d4e';
const CLIENT_SECRET = 'Ks3cr3t-of-the-client-0a9b8c';
const LIMIT = 200;

let server: TestServer;
let h: Harness;

before(async () => {
  process.env.SVC_LEAK_TOKEN = TOKEN;
  process.env.SVC_LEAK_CLIENT_SECRET = CLIENT_SECRET;
  server = await startServer();
  server.route('/api/raw/', (req, res) => {
    const kind = req.url.split('?')[0]!.slice('/api/raw/'.length);
    if (kind === 'one-long-string') {
      // One JSON string, no comma to cut at: the cut falls 6 characters into the token.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ note: `${'x'.repeat(LIMIT - 10 - 6)}${TOKEN} and more text after it` }));
    } else if (kind === 'escaped') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echoed: TOKEN, nested: [JSON.stringify({ again: TOKEN })] }));
    } else if (kind === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${'y'.repeat(LIMIT - 8)}${TOKEN}${'z'.repeat(4000)}`);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  server.route('/oauth/quoting', (req, res) => {
    // The cut at 300 characters falls inside the quoted client secret.
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end(`${'e'.repeat(300 - 8)}${new URLSearchParams(req.body.toString()).get('client_secret')} rejected`);
  });
  server.route('/oauth/endless', (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    const chunk = 'overloaded '.repeat(6000);
    const push = (): void => {
      if (res.destroyed) return;
      if (res.write(chunk)) setImmediate(push);
      else res.once('drain', push);
    };
    push();
  });
  h = await harness(
    'guarded.yaml',
    'leaky',
    `serverVariables:
  port: "${server.port}"
auth:
  - { type: bearer, token: "\${SVC_LEAK_TOKEN}", scheme: bearerAuth }`,
    `limits:\n  maxResponseBytes: ${LIMIT}\n`,
  );
});

after(async () => {
  await server.close();
});

async function oauthCall(tokenPath: string): Promise<string> {
  const o = await harness(
    'petstore.yaml',
    'oauthy',
    `serverVariables:
  port: "${server.port}"
auth:
  - { type: oauth2, tokenUrl: "${server.origin}${tokenPath}", clientId: svc, clientSecret: "\${SVC_LEAK_CLIENT_SECRET}", scheme: oauth }`,
  );
  const r = await o.call('GET:/secure/oauth');
  assert.equal(r.isError, true);
  return r.text;
}

describe('secrets echoed by an API', () => {
  test('a JSON body cut inside an echoed token shows none of the token, not even its start', async () => {
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'one-long-string' } });
    const all = everything(r);
    assert.match(r.text, /\[truncated/);
    assert.ok(!all.includes(TOKEN.slice(0, 4)), all);
    assert.ok(!all.includes(JSON.stringify(TOKEN).slice(1, 5)), all);
  });

  test('a token that comes back JSON-escaped (and escaped twice inside a string) is redacted', async () => {
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'escaped' } });
    const all = everything(r);
    assert.equal(r.isError, undefined, r.text);
    assert.ok(!all.includes('SEC'), all);
    assert.ok(all.includes('[redacted]'));
  });

  test('a text body cut inside an echoed token shows none of it', async () => {
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'text' } });
    const all = everything(r);
    assert.match(r.text, /\[truncated/);
    assert.ok(!all.includes('SEC'), all);
    assert.ok(!all.includes('tok"S'), all);
  });

  test('an OAuth2 error page that quotes the client secret at the cut shows none of it', async () => {
    const text = await oauthCall('/oauth/quoting');
    assert.match(text, /HTTP 400/);
    assert.ok(!text.includes(CLIENT_SECRET.slice(0, 4)), text);
    assert.match(text, /e\[redacted\]\.\.\./);
  });

  test('an OAuth2 token endpoint that never stops sending is read only up to a bound', async () => {
    const started = Date.now();
    const text = await oauthCall('/oauth/endless');
    assert.match(text, /HTTP 500/);
    assert.ok(text.length < 2000, `error text of ${text.length} characters`);
    assert.ok(Date.now() - started < 20_000);
  });
});

describe('secrets too short to redact', () => {
  test('a 2-character secret is refused when svc.yaml is read, naming the variable and not the value', async () => {
    process.env.SVC_LEAK_SHORT = 'k9';
    const yaml = `specs:\n  - path: ${JSON.stringify(path.join(FIXTURES, 'guarded.yaml'))}\n    auth: { type: bearer, token: "\${SVC_LEAK_SHORT}" }\n`;
    await assert.rejects(parseConfig(yaml, path.join(FIXTURES, 'svc.yaml')), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /SVC_LEAK_SHORT.*shorter than 3 characters/);
      assert.match(err.message, /specs\[0\]\.auth\.token/);
      assert.ok(!err.message.includes('k9'));
      return true;
    });
  });

  test('a 3-character secret, and a variable not set yet, are accepted', async () => {
    process.env.SVC_LEAK_SHORT = 'k9x';
    delete process.env.SVC_LEAK_UNSET;
    const yaml = `specs:\n  - path: ${JSON.stringify(path.join(FIXTURES, 'guarded.yaml'))}\n    auth: [{ type: bearer, token: "\${SVC_LEAK_SHORT}" }, { type: basic, username: "\${SVC_LEAK_UNSET}", password: "\${SVC_LEAK_SHORT}" }]\n`;
    const config = await parseConfig(yaml, path.join(FIXTURES, 'svc.yaml'));
    assert.equal(config.specs[0]!.auth.length, 2);
  });
});
