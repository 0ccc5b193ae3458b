// Credentials come from svc.yaml and environment variables, go where the spec's security schemes
// say, and never appear in a result, even when the API echoes them back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { echo, everything, harness, startServer, type Harness, type TestServer } from './helpers.ts';
import type { InvokeResult } from '../../src/invoke/index.ts';

const SECRETS = {
  SVC_TEST_BEARER: 'bearer-s3cr3t-7f9a1c',
  SVC_TEST_PASSWORD: 'pa55-s3cr3t-b2d4',
  SVC_TEST_KEY: 'key-s3cr3t-9e8d7c',
  SVC_TEST_CLIENT_SECRET: 'client-s3cr3t-4a5b6c',
  SVC_TEST_HEADER: 'hdr-s3cr3t-1q2w3e',
};
const TOKENS = ['oauth-token-aaaa1111', 'oauth-token-bbbb2222', 'oauth-token-cccc3333'];

let server: TestServer;
let h: Harness;
const outputs: InvokeResult[] = [];
let tokenCalls = 0;
let validToken = TOKENS[0]!;
let tokenLifetime = 3600;

before(async () => {
  Object.assign(process.env, SECRETS);
  server = await startServer();
  server.route('/oauth/token', (req, res) => {
    const form = new URLSearchParams(req.body.toString());
    if (form.get('client_secret') !== SECRETS.SVC_TEST_CLIENT_SECRET || form.get('grant_type') !== 'client_credentials') {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end(`bad client: ${req.body.toString()}`);
      return;
    }
    const token = TOKENS[tokenCalls++ % TOKENS.length]!;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: tokenLifetime, scope: form.get('scope') }));
  });
  server.route('/api/secure/oauth', (req, res) => {
    if (req.headers.authorization !== `Bearer ${validToken}`) {
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      res.end();
      return;
    }
    echo(req, res);
  });
  h = await harness(
    'petstore.yaml',
    'pets',
    `serverVariables:
  port: "${server.port}"
headers:
  X-Trace-Secret: "\${SVC_TEST_HEADER}"
auth:
  - { type: bearer, token: "\${SVC_TEST_BEARER}", scheme: bearerAuth }
  - { type: basic, username: alice, password: "\${SVC_TEST_PASSWORD}", scheme: basicAuth }
  - { type: apiKey, in: header, name: X-API-Key, value: "\${SVC_TEST_KEY}", scheme: keyHeader }
  - { type: apiKey, in: query, name: api_key, value: "\${SVC_TEST_KEY}", scheme: keyQuery }
  - { type: apiKey, in: cookie, name: sid, value: "\${SVC_TEST_KEY}", scheme: keyCookie }
  - { type: oauth2, tokenUrl: "${server.origin}/oauth/token", clientId: svc-client, clientSecret: "\${SVC_TEST_CLIENT_SECRET}", scopes: [pets.read], scheme: oauth }`,
  );
});

after(async () => {
  await server.close();
});

async function call(id: string, args = {}): Promise<{ r: InvokeResult; headers: Record<string, unknown>; url: string }> {
  const r = await h.call(id, args);
  outputs.push(r);
  const rec = server.requests.at(-1)!;
  return { r, headers: rec.headers, url: rec.url };
}

describe('auth kinds', () => {
  test('bearer goes in Authorization, and only the scheme the endpoint names is sent', async () => {
    const { r, headers } = await call('GET:/secure/bearer');
    assert.equal(r.isError, undefined, r.text);
    assert.equal(headers.authorization, `Bearer ${SECRETS.SVC_TEST_BEARER}`);
    assert.equal(headers['x-api-key'], undefined);
    assert.equal(headers.cookie, undefined);
    assert.equal(headers['x-trace-secret'], SECRETS.SVC_TEST_HEADER, 'static headers from svc.yaml are sent');
  });

  test('basic sends user:password base64-encoded', async () => {
    const { headers } = await call('GET:/secure/basic');
    assert.equal(headers.authorization, `Basic ${Buffer.from(`alice:${SECRETS.SVC_TEST_PASSWORD}`).toString('base64')}`);
  });

  test('an API key goes in the header the config names', async () => {
    const { headers } = await call('GET:/secure/key-header');
    assert.equal(headers['x-api-key'], SECRETS.SVC_TEST_KEY);
    assert.equal(headers.authorization, undefined);
  });

  test('an API key goes in the query', async () => {
    const { url } = await call('GET:/secure/key-query');
    assert.equal(url, `/api/secure/key-query?api_key=${SECRETS.SVC_TEST_KEY}`);
  });

  test('an API key goes in a cookie', async () => {
    const { headers } = await call('GET:/secure/key-cookie');
    assert.equal(headers.cookie, `sid=${SECRETS.SVC_TEST_KEY}`);
  });

  test('an endpoint with security: [] gets no credentials', async () => {
    const { headers } = await call('GET:/public');
    assert.equal(headers.authorization, undefined);
    assert.equal(headers['x-api-key'], undefined);
  });

  test('OAuth2 client credentials: the token is fetched once and cached', async () => {
    const before = tokenCalls;
    const first = await call('GET:/secure/oauth');
    assert.equal(first.r.isError, undefined, first.r.text);
    assert.equal(first.headers.authorization, `Bearer ${TOKENS[0]}`);
    const tokenRequest = server.requests.find((q) => q.url === '/oauth/token')!;
    const form = new URLSearchParams(tokenRequest.body.toString());
    assert.equal(form.get('client_id'), 'svc-client');
    assert.equal(form.get('scope'), 'pets.read');
    const second = await call('GET:/secure/oauth');
    assert.equal(second.r.isError, undefined);
    assert.equal(tokenCalls - before, 1);
  });

  test('OAuth2: a 401 fetches a new token once and repeats the request', async () => {
    validToken = TOKENS[1]!;
    const before = tokenCalls;
    const { r, headers } = await call('GET:/secure/oauth');
    assert.equal(r.isError, undefined, r.text);
    assert.equal(headers.authorization, `Bearer ${TOKENS[1]}`);
    assert.equal(tokenCalls - before, 1);
  });

  test('OAuth2: a second 401 after the refresh comes back as the API said', async () => {
    validToken = 'nothing-valid';
    const before = tokenCalls;
    const { r } = await call('GET:/secure/oauth');
    assert.equal(r.isError, true);
    assert.match(r.text, /^HTTP 401 Unauthorized\nwww-authenticate: Bearer error="invalid_token"/);
    assert.equal(tokenCalls - before, 1, 'fetched again once, not in a loop');
  });
});

describe('OAuth2 token cache', () => {
  const oauthOnly = (): string =>
    `serverVariables:\n  port: "${server.port}"\nauth:\n  - { type: oauth2, tokenUrl: "${server.origin}/oauth/token", clientId: svc-client, clientSecret: "\${SVC_TEST_CLIENT_SECRET}", scopes: [], scheme: oauth }`;

  test('concurrent calls share one token request', async () => {
    const h2 = await harness('petstore.yaml', 'pets', oauthOnly());
    const before = tokenCalls;
    validToken = TOKENS[tokenCalls % TOKENS.length]!;
    const results = await Promise.all([h2.call('GET:/secure/oauth', {}), h2.call('GET:/secure/oauth', {}), h2.call('GET:/secure/oauth', {})]);
    outputs.push(...results);
    for (const r of results) assert.equal(r.isError, undefined, r.text);
    assert.equal(tokenCalls - before, 1);
  });

  test('a token about to expire is fetched again before use', async () => {
    tokenLifetime = 10; // less than svc's 30 s safety margin: never reused
    try {
      const h2 = await harness('petstore.yaml', 'pets', oauthOnly());
      const before = tokenCalls;
      validToken = TOKENS[tokenCalls % TOKENS.length]!;
      outputs.push(await h2.call('GET:/secure/oauth', {}));
      validToken = TOKENS[tokenCalls % TOKENS.length]!;
      outputs.push(await h2.call('GET:/secure/oauth', {}));
      assert.equal(tokenCalls - before, 2);
      assert.equal(outputs.at(-1)!.isError, undefined, outputs.at(-1)!.text);
    } finally {
      tokenLifetime = 3600;
    }
  });
});

describe('auth failures', () => {
  test('a failed token request is an error with the status and without the client secret', async () => {
    process.env.SVC_TEST_CLIENT_SECRET = 'wrong-s3cr3t-zzzz';
    const h2 = await harness(
      'petstore.yaml',
      'pets',
      `serverVariables:\n  port: "${server.port}"\nauth:\n  - { type: oauth2, tokenUrl: "${server.origin}/oauth/token", clientId: svc-client, clientSecret: "\${SVC_TEST_CLIENT_SECRET}", scopes: [], scheme: oauth }`,
    );
    try {
      const r = await h2.call('GET:/secure/oauth', {});
      outputs.push(r);
      assert.equal(r.isError, true);
      assert.match(r.text, new RegExp(`^OAuth2 token request to ${server.origin}/oauth/token failed: HTTP 401 Unauthorized: bad client: `));
      assert.match(r.text, /client_secret=\[redacted\]/);
      assert.doesNotMatch(r.text, /wrong-s3cr3t-zzzz/);
      assert.match(r.text, /Hint: check specs\[0\]\.auth\[0\]/);
    } finally {
      process.env.SVC_TEST_CLIENT_SECRET = SECRETS.SVC_TEST_CLIENT_SECRET;
    }
  });

  test('a missing environment variable is named with the svc.yaml key that uses it', async () => {
    const h2 = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"\nauth: { type: bearer, token: "\${SVC_TEST_UNSET_VAR}" }`);
    delete process.env.SVC_TEST_UNSET_VAR;
    const count = server.requests.length;
    const r = await h2.call('GET:/secure/bearer', {});
    assert.equal(r.isError, true);
    assert.match(r.text, /^Environment variable SVC_TEST_UNSET_VAR \(named by specs\[0\]\.auth\[0\]\.token in svc\.yaml\) is not set/);
    assert.equal(server.requests.length, count);
  });

  test('a credential without a scheme name is matched to the spec scheme by type', async () => {
    const h2 = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"\nauth: { type: apiKey, in: header, name: X-API-Key, value: "\${SVC_TEST_KEY}" }`);
    const r = await h2.call('GET:/secure/key-header', {});
    outputs.push(r);
    assert.equal(server.requests.at(-1)!.headers['x-api-key'], SECRETS.SVC_TEST_KEY);
    const r2 = await h2.call('GET:/secure/basic', {});
    outputs.push(r2);
    assert.equal(server.requests.at(-1)!.headers['x-api-key'], undefined, 'not sent where the spec asks for basic');
  });

  test('a 401 without configured credentials says which scheme to configure', async () => {
    server.route('/api/secure/basic', (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"unauthorized"}');
    });
    const h2 = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"`);
    const r = await h2.call('GET:/secure/basic', {});
    assert.equal(r.isError, true);
    assert.equal(r.text, `HTTP 401 Unauthorized\ncontent-type: application/json\n\n{"error":"unauthorized"}\n[svc sent no credentials: GET /secure/basic needs security scheme 'basicAuth'; configure specs[0].auth in svc.yaml with scheme: basicAuth]`);
  });
});

describe('secrets', () => {
  test('no secret appears in any result, even where the server echoed it', async () => {
    assert.ok(outputs.length >= 10);
    const all = outputs.map(everything).join('\n');
    assert.match(all, /\[redacted\]/, 'the echoes were there and were redacted');
    const forbidden = [...Object.values(SECRETS), ...TOKENS, 'wrong-s3cr3t-zzzz', Buffer.from(`alice:${SECRETS.SVC_TEST_PASSWORD}`).toString('base64')];
    for (const s of forbidden) assert.ok(!all.includes(s), `secret ${s.slice(0, 6)}... leaked`);
  });

  test('echoed credential headers are redacted in structured headers', async () => {
    server.route('/api/public', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', link: `</api/public?api_key=${SECRETS.SVC_TEST_KEY}>; rel="next"` });
      res.end('ok');
    });
    const r = await h.call('GET:/public', {});
    assert.deepEqual(r.structured?.headers, { 'content-type': 'text/plain', link: '</api/public?api_key=[redacted]>; rel="next"' });
  });
});
