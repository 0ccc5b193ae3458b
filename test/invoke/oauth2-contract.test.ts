// The OAuth2 token cache from its contract, against a real token endpoint on loopback: what it
// posts, which answers give a token (JSON or form-encoded), how long a token is kept, what a 401
// forgets, and what every failure says (the client secret never in it).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { specDefaults } from '../../src/config/index.ts';
import type { AuthConfig } from '../../src/config/types.ts';
import { applyAuth } from '../../src/invoke/auth.ts';
import { InvokeError } from '../../src/invoke/errors.ts';
import { type ClientCredentials, TokenCache } from '../../src/invoke/oauth2.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';
import { type Recorded, startServer, type TestServer } from './helpers.ts';

const SECRET = 'client-secret-9f8e7d6c';

let server: TestServer;
/** What the token endpoint answers next: status, content type and body. */
let answer: (req: Recorded) => { status?: number; type?: string; body: string } = () => ({ body: '{}' });

before(async () => {
  server = await startServer();
  server.route('/token', (req, res) => {
    const a = answer(req);
    res.writeHead(a.status ?? 200, { 'content-type': a.type ?? 'application/json' });
    res.end(a.body);
  });
});
after(() => server.close());

let n = 0;
/** Fresh credentials per test (the cache is keyed by URL, client and scopes). */
function creds(over: Partial<ClientCredentials> = {}): ClientCredentials {
  n++;
  return { tokenUrl: `${server.origin}/token`, clientId: `client-${n}`, clientSecret: SECRET, scopes: [], timeoutMs: 5000, key: 'specs[0].auth[1]', ...over };
}

function tokenCalls(c: ClientCredentials): Recorded[] {
  return server.requests.filter((r) => r.url === '/token' && new URLSearchParams(r.body.toString()).get('client_id') === c.clientId);
}

async function refusal(p: Promise<unknown>): Promise<InvokeError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof InvokeError, String(err));
    return err;
  }
  assert.fail('expected a refusal');
}

describe('OAuth2 token request', () => {
  test('posts the client credentials grant as a form, scopes space-separated, and asks for JSON', async () => {
    answer = () => ({ body: JSON.stringify({ access_token: 'tok-scoped-1234' }) });
    const c = creds({ scopes: ['pets.read', 'pets.write'] });
    assert.equal(await new TokenCache().get(c), 'tok-scoped-1234');
    const [req] = tokenCalls(c);
    assert.equal(req!.method, 'POST');
    assert.equal(req!.headers.accept, 'application/json');
    assert.match(String(req!.headers['content-type']), /^application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(req!.body.toString());
    assert.deepEqual(Object.fromEntries(form), { grant_type: 'client_credentials', client_id: c.clientId, client_secret: SECRET, scope: 'pets.read pets.write' });
  });

  test('with no scopes the form has no scope field', async () => {
    answer = () => ({ body: JSON.stringify({ access_token: 'tok-noscope-1234' }) });
    const c = creds();
    await new TokenCache().get(c);
    assert.equal(new URLSearchParams(tokenCalls(c)[0]!.body.toString()).has('scope'), false);
  });

  test('a form-encoded token answer is understood', async () => {
    answer = () => ({ type: 'application/x-www-form-urlencoded', body: 'access_token=tok-form-5678&token_type=bearer&expires_in=3600' });
    assert.equal(await new TokenCache().get(creds()), 'tok-form-5678');
  });

  test('an answer without a usable access_token is refused, naming the URL and the key to check', async () => {
    for (const body of ['{}', JSON.stringify({ access_token: '' }), JSON.stringify({ access_token: 42 }), 'token_type=bearer']) {
      answer = () => ({ body });
      const c = creds();
      const err = await refusal(new TokenCache().get(c));
      assert.equal(err.code, 'invoke-auth');
      assert.equal(err.message, `OAuth2 token response from ${c.tokenUrl} has no access_token.`, body);
      assert.equal(err.hint, 'check specs[0].auth[1].tokenUrl in svc.yaml');
    }
  });

  test('an HTTP error names the status and a redacted, cut excerpt of the answer', async () => {
    answer = () => ({ status: 401, body: `{"error":"invalid_client","echo":"${SECRET}"}` });
    const c = creds();
    const err = await refusal(new TokenCache().get(c));
    assert.equal(err.code, 'invoke-auth');
    assert.equal(err.message, `OAuth2 token request to ${c.tokenUrl} failed: HTTP 401 Unauthorized: {"error":"invalid_client","echo":"[redacted]"}`);
    assert.equal(err.hint, 'check specs[0].auth[1] (tokenUrl, clientId, clientSecret, scopes) in svc.yaml and the environment variables it names');

    answer = () => ({ status: 500, body: `${'x'.repeat(296)}${SECRET}` });
    const long = await refusal(new TokenCache().get(creds()));
    // Redacted before the cut at 300 characters, and a marker the cut would split is shown whole.
    assert.ok(long.message.endsWith(`HTTP 500 Internal Server Error: ${'x'.repeat(296)}[redacted]...`), long.message);
    answer = () => ({ status: 500, body: `${'y'.repeat(301)}${SECRET}` });
    const cut = await refusal(new TokenCache().get(creds()));
    assert.ok(cut.message.endsWith(`Error: ${'y'.repeat(300)}...`), cut.message);
    answer = () => ({ status: 500, body: 'y'.repeat(300) });
    const whole = await refusal(new TokenCache().get(creds()));
    assert.ok(whole.message.endsWith(`Error: ${'y'.repeat(300)}`), whole.message);

    answer = () => ({ status: 503, body: '' });
    const empty = await refusal(new TokenCache().get(creds()));
    assert.match(empty.message, /failed: HTTP 503 Service Unavailable$/);
  });

  test('an unreachable token URL is a clear error without the secret', async () => {
    const closed = await startServer();
    const url = `${closed.origin}/token`;
    await closed.close();
    const err = await refusal(new TokenCache().get(creds({ tokenUrl: url })));
    assert.equal(err.code, 'invoke-auth');
    assert.ok(err.message.startsWith(`OAuth2 token request to ${url} failed: `), err.message);
    assert.ok(!err.message.includes(SECRET));
    assert.equal(err.hint, 'check specs[0].auth[1].tokenUrl in svc.yaml');
  });
});

describe('OAuth2 token cache', () => {
  let issued = 0;
  const fresh = (expires?: unknown) => () => ({ body: JSON.stringify({ access_token: `tok-${++issued}-abcdef`, ...(expires !== undefined ? { expires_in: expires } : {}) }) });

  test('a token is kept while it has more than 30 s to live, and fetched again after', async () => {
    const cache = new TokenCache();
    answer = fresh(3600);
    const c = creds();
    const first = await cache.get(c);
    assert.equal(await cache.get(c), first);
    assert.equal(tokenCalls(c).length, 1);
    // 30 s or less left: the token is renewed on every call.
    answer = fresh(30);
    const d = creds();
    const a = await cache.get(d);
    const b = await cache.get(d);
    assert.notEqual(a, b);
    assert.equal(tokenCalls(d).length, 2);
  });

  test('without a usable expires_in a token is kept until a 401', async () => {
    for (const expires of [undefined, 'soon', -5, 0]) {
      const cache = new TokenCache();
      answer = fresh(expires);
      const c = creds();
      const first = await cache.get(c);
      assert.equal(await cache.get(c), first, String(expires));
      assert.equal(tokenCalls(c).length, 1);
    }
  });

  test('concurrent calls share one request; different scopes or clients do not share a token', async () => {
    const cache = new TokenCache();
    answer = fresh(3600);
    const c = creds({ scopes: ['a'] });
    const [x, y] = await Promise.all([cache.get(c), cache.get(c)]);
    assert.equal(x, y);
    assert.equal(tokenCalls(c).length, 1);
    const other = await cache.get({ ...c, scopes: ['a', 'b'] });
    assert.notEqual(other, x);
  });

  test('a failed request is not cached: the next call asks again', async () => {
    const cache = new TokenCache();
    const c = creds();
    answer = () => ({ status: 500, body: 'down' });
    await refusal(cache.get(c));
    answer = fresh(3600);
    assert.match(await cache.get(c), /^tok-/);
    assert.equal(tokenCalls(c).length, 2);
  });

  test('invalidate forgets that token only: a newer one stays, an unknown client is ignored', async () => {
    const cache = new TokenCache();
    answer = fresh(3600);
    const c = creds();
    const old = await cache.get(c);
    await cache.invalidate(c, old);
    const renewed = await cache.get(c);
    assert.notEqual(renewed, old);
    await cache.invalidate(c, old);
    assert.equal(await cache.get(c), renewed);
    assert.equal(tokenCalls(c).length, 2);
    await cache.invalidate(creds(), 'never-issued');
  });

  test('issued() lists the tokens handed out, at most the 64 newest', async () => {
    const cache = new TokenCache();
    answer = fresh(3600);
    // The two oldest first, then 64 more at once: the two oldest drop out.
    const oldest = [await cache.get(creds()), await cache.get(creds())];
    const newer = await Promise.all(Array.from({ length: 64 }, () => cache.get(creds())));
    assert.deepEqual(new Set(cache.issued()), new Set(newer));
    assert.equal(cache.issued().length, 64);
    assert.ok(!cache.issued().some((t) => oldest.includes(t)));
  });

  test('any expires_in over 30 s keeps the token; none at or under does', async () => {
    await fc.assert(
      // (31 and 32 s leave a second or two: not a margin to test on a loaded machine.)
      fc.asyncProperty(fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 33, max: 100_000 })), async (seconds) => {
        const cache = new TokenCache();
        answer = fresh(seconds);
        const c = creds();
        const a = await cache.get(c);
        const b = await cache.get(c);
        assert.equal(a === b, seconds > 30, `${seconds}`);
      }),
      { numRuns: 25 },
    );
  });
});

describe('OAuth2 credentials applied to a request', () => {
  test('the token goes as a bearer header; the secret, the token and a client id from the environment are all redacted', async () => {
    answer = () => ({ body: JSON.stringify({ access_token: 'tok-applied-4321', expires_in: 3600 }) });
    process.env.SVC_O2C_ID = 'client-from-env-77';
    process.env.SVC_O2C_SECRET = SECRET;
    try {
      const fromEnv: AuthConfig = { type: 'oauth2', tokenUrl: '/token', clientId: { env: 'SVC_O2C_ID' }, clientSecret: { env: 'SVC_O2C_SECRET' }, scopes: ['read'] };
      const literal: AuthConfig = { ...fromEnv, clientId: 'public-client-id' };
      const settingsFor = (auth: AuthConfig) => ({ spec: { ...specDefaults('/x.yaml'), name: 's', collection: 'default', auth: [auth], timeoutMs: 5000 }, key: 'specs[0]', where: '', unlisted: false });
      const endpoint = { security: undefined } as unknown as Endpoint;
      const spec = { securitySchemes: {} } as unknown as ImportedSpec;
      // A relative tokenUrl resolves against the request's base URL.
      const applied = await applyAuth(endpoint, spec, settingsFor(fromEnv), new TokenCache(), `${server.origin}/api`);
      assert.deepEqual(applied.headers, [['authorization', 'Bearer tok-applied-4321']]);
      assert.deepEqual(applied.secrets, [SECRET, 'client-from-env-77', 'tok-applied-4321']);
      assert.equal(applied.oauth[0]!.creds.tokenUrl, `${server.origin}/token`);
      assert.equal(applied.oauth[0]!.creds.key, 'specs[0].auth[0]');
      const plain = await applyAuth(endpoint, spec, settingsFor(literal), new TokenCache(), `${server.origin}/api`);
      assert.deepEqual(plain.secrets, [SECRET, 'tok-applied-4321']);
    } finally {
      delete process.env.SVC_O2C_ID;
      delete process.env.SVC_O2C_SECRET;
    }
  });
});

describe('every credential applied is listed for redaction', () => {
  test('bearer, basic (user from the environment or literal) and API keys in each place', async () => {
    Object.assign(process.env, { SVC_AP_TOKEN: 'bearer-tok-1234', SVC_AP_USER: 'env-user-5678', SVC_AP_PASS: 'pass-word-9012', SVC_AP_KEY: 'key/val ue+34' });
    try {
      const endpoint = { security: undefined } as unknown as Endpoint;
      const spec = { securitySchemes: {} } as unknown as ImportedSpec;
      const apply = (auth: AuthConfig) =>
        applyAuth(endpoint, spec, { spec: { ...specDefaults('/x.yaml'), name: 's', collection: 'default', auth: [auth] }, key: 'specs[0]', where: '', unlisted: false }, new TokenCache(), 'https://api.example.com');
      const bearer = await apply({ type: 'bearer', token: { env: 'SVC_AP_TOKEN' } });
      assert.deepEqual([bearer.headers, bearer.secrets], [[['authorization', 'Bearer bearer-tok-1234']], ['bearer-tok-1234']]);
      const encoded = Buffer.from('env-user-5678:pass-word-9012').toString('base64');
      const basicEnv = await apply({ type: 'basic', username: { env: 'SVC_AP_USER' }, password: { env: 'SVC_AP_PASS' } });
      assert.deepEqual([basicEnv.headers, basicEnv.secrets], [[['authorization', `Basic ${encoded}`]], ['pass-word-9012', encoded, 'env-user-5678']]);
      const basicLiteral = await apply({ type: 'basic', username: 'alice', password: { env: 'SVC_AP_PASS' } });
      assert.deepEqual(basicLiteral.secrets, ['pass-word-9012', Buffer.from('alice:pass-word-9012').toString('base64')]);
      const header = await apply({ type: 'apiKey', in: 'header', name: 'X-Api-Key', value: { env: 'SVC_AP_KEY' } });
      assert.deepEqual([header.headers, [...header.sensitiveHeaders], header.secrets], [[['X-Api-Key', 'key/val ue+34']], ['x-api-key'], ['key/val ue+34']]);
      const query = await apply({ type: 'apiKey', in: 'query', name: 'api key', value: { env: 'SVC_AP_KEY' } });
      assert.deepEqual([query.query, query.secrets], [['api%20key=key%2Fval%20ue%2B34'], ['key/val ue+34']]);
      const cookie = await apply({ type: 'apiKey', in: 'cookie', name: 'sid', value: { env: 'SVC_AP_KEY' } });
      assert.deepEqual([cookie.cookies, cookie.secrets], [['sid=key%2Fval%20ue%2B34'], ['key/val ue+34']]);
    } finally {
      for (const k of ['SVC_AP_TOKEN', 'SVC_AP_USER', 'SVC_AP_PASS', 'SVC_AP_KEY']) delete process.env[k];
    }
  });
});
