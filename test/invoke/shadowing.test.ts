// Attacks on the credentials through the arguments a model gives: a parameter named like a
// credential (header, query key, cookie), a free-form object that adds the API key's query key,
// a method-override header past `writes: deny`. And the credentials svc.yaml gives for parameters
// a spec declares (Slack's `token`): the model is never asked for them and never sees them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { everything, harness, startServer, type Harness, type TestServer } from './helpers.ts';

const ENV = {
  SVC_SH_TOKEN: 'bearer-Zq81-sh4d0w',
  SVC_SH_KEY: 'apikey-Zq82-sh4d0w',
  SVC_SH_TRACE: 'trace-Zq83-sh4d0w',
  SVC_SH_PARAM: 'xoxb-Zq84-param-token',
  SVC_SH_TEAM: 'team-Zq85-secret',
};

let server: TestServer;
let withParameters: Harness | undefined;
/** The spec with svc.yaml `parameters:` (built on first use, so the attacks above need nothing newer). */
async function full(): Promise<Harness> {
  return (withParameters ??= await harness('guarded.yaml', 'guarded', entry(server.port)));
}
/** The same spec without svc.yaml `parameters:`: the attacks below need nothing newer than that. */
let plain: Harness;

const entry = (port: number, writes = 'allow', parameters = true): string => `serverVariables:
  port: "${port}"
writes: ${writes}
headers:
  X-Trace: "\${SVC_SH_TRACE}"
auth:
  - { type: bearer, token: "\${SVC_SH_TOKEN}" }
  - { type: apiKey, in: query, name: api_key, value: "\${SVC_SH_KEY}" }
  - { type: apiKey, in: cookie, name: sid, value: "\${SVC_SH_KEY}" }
  - { type: apiKey, in: header, name: X-API-Key, value: "\${SVC_SH_KEY}" }
${parameters ? 'parameters:\n  token: "${SVC_SH_PARAM}"\n  header.X-Team: "${SVC_SH_TEAM}"' : ''}`;

before(async () => {
  Object.assign(process.env, ENV);
  server = await startServer();
  plain = await harness('guarded.yaml', 'guarded', entry(server.port, 'allow', false));
});
after(async () => {
  await server.close();
});

async function refused(params: Record<string, unknown>, pattern: RegExp): Promise<void> {
  const count = server.requests.length;
  const r = await plain.call('GET:/echo', { params: { token: 'tok-given', 'X-Team': 'team-given', ...params } });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, pattern);
  assert.equal(server.requests.length, count, 'nothing was sent');
}

describe('credentials cannot be shadowed by arguments', () => {
  test('a header parameter named like a svc.yaml header cannot replace it', async () => {
    await refused({ 'X-Trace': 'attacker' }, /'X-Trace': svc sends this credential itself \(specs\[0\]\.headers\.X-Trace in svc\.yaml\)/);
  });

  test('an Authorization header parameter cannot replace the bearer token', async () => {
    await refused({ Authorization: 'Bearer attacker' }, /'Authorization': svc sends this credential itself \(specs\[0\]\.auth\[0\]/);
  });

  test('a query parameter named like the API key cannot put its value before the secret', async () => {
    await refused({ api_key: 'attacker' }, /'api_key': svc sends this credential itself/);
  });

  test('an object query parameter cannot add the API key as one of its keys', async () => {
    await refused({ obj: { api_key: 'attacker' } }, /the query key 'api_key', which svc\.yaml fills with a credential \(specs\[0\]\.auth\[1\]\)/);
  });

  test('a query parameter without a schema cannot add the API key either', async () => {
    await refused({ q: { api_key: 'attacker', other: 1 } }, /the query key 'api_key'/);
  });

  test('a cookie parameter named like the cookie credential is refused', async () => {
    await refused({ sid: 'attacker' }, /'sid': svc sends this credential itself/);
  });

  test('a header parameter named like the API key header is refused, whatever its case', async () => {
    await refused({ 'x-api-key': 'attacker' }, /svc sends this credential itself \(specs\[0\]\.auth\[3\]/);
  });

  test('a credential parameter is not required of the model, is sent by svc, and never shown', async () => {
    const r = await (await full()).call('GET:/echo', { params: { q: 'hello' } });
    assert.equal(r.isError, undefined, r.text);
    const rec = server.requests.at(-1)!;
    const url = new URL(rec.url, server.origin);
    assert.equal(url.searchParams.get('token'), ENV.SVC_SH_PARAM);
    assert.equal(url.searchParams.get('q'), 'hello');
    assert.equal(url.searchParams.getAll('api_key').length, 0, 'the query key is only for endpoints whose security asks for it');
    assert.equal(rec.headers['x-team'], ENV.SVC_SH_TEAM);
    assert.equal(rec.headers.authorization, `Bearer ${ENV.SVC_SH_TOKEN}`);
    assert.equal(rec.headers['x-trace'], ENV.SVC_SH_TRACE);
    const all = everything(r);
    for (const v of Object.values(ENV)) assert.ok(!all.includes(v.slice(0, 9)), `${v} shows in ${all}`);
  });

  test('a credential parameter given by the model is refused, and the error does not ask for it', async () => {
    const r = await (await full()).call('GET:/echo', { params: { token: 'mine' } });
    assert.equal(r.isError, true);
    assert.match(r.text, /'token': svc sends this credential itself \(specs\[0\]\.parameters\.token in svc\.yaml\)/);
    assert.doesNotMatch(r.text, /Expected params:.*token \(query/);
  });
});

describe('method-override headers count as the method they name', () => {
  test('a GET with X-HTTP-Method-Override: DELETE is refused under writes: deny', async () => {
    const deny = await harness('guarded.yaml', 'guarded', entry(server.port, 'deny', false));
    const count = server.requests.length;
    const r = await deny.call('GET:/echo', { params: { 'X-HTTP-Method-Override': 'delete', token: 't-1', 'X-Team': 'x-1' } });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /Refused: GET \/echo with a method override to DELETE is a write/);
    assert.equal(server.requests.length, count);
  });

  test('the same GET is confirmed first under writes: confirm, and the question says so', async () => {
    const confirm = await harness('guarded.yaml', 'guarded', entry(server.port, 'confirm', false));
    const asked: string[] = [];
    const count = server.requests.length;
    const r = await confirm.call('GET:/echo', { params: { 'X-HTTP-Method-Override': 'PATCH', token: 't-1', 'X-Team': 'x-1' } }, { confirm: async (m) => (asked.push(m), false) });
    assert.equal(r.isError, true);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /GET \/echo, overridden to PATCH/);
    assert.match(asked[0]!, /X-HTTP-Method-Override: PATCH/);
    assert.equal(server.requests.length, count);
  });

  test('an override that names a safe method leaves a GET a GET', async () => {
    const deny = await harness('guarded.yaml', 'guarded', entry(server.port, 'deny', false));
    const r = await deny.call('GET:/echo', { params: { 'X-HTTP-Method-Override': 'HEAD', token: 't-1', 'X-Team': 'x-1' } });
    assert.equal(r.isError, undefined, r.text);
  });
});

describe('parameters svc fills', () => {
  test('svcFilledParameters names each parameter svc.yaml fills or guards, with the key that does', async () => {
    const { svcFilledParameters } = await import('../../src/invoke/index.ts');
    const h = await full();
    const filled = svcFilledParameters(h.endpoint('GET:/echo'), h.config.specs[0]!, 'specs[0]');
    const byName = Object.fromEntries([...filled].map(([p, key]) => [`${p.in}.${p.name}`, key]));
    assert.deepEqual(byName, {
      'query.api_key': 'specs[0].auth[1]',
      'header.X-API-Key': 'specs[0].auth[3]',
      'header.X-Trace': 'specs[0].headers.X-Trace',
      'header.Authorization': 'specs[0].auth[0]',
      'cookie.sid': 'specs[0].auth[2]',
      'query.token': 'specs[0].parameters.token',
      'header.X-Team': 'specs[0].parameters.header.X-Team',
    });
  });
});

describe('the confirmation names where credentials go', () => {
  test('by place only: the headers, query keys and cookies svc.yaml fills for this call', async () => {
    const confirm = await harness('guarded.yaml', 'guarded', entry(server.port, 'confirm'));
    const asked: string[] = [];
    await confirm.call('GET:/echo', { params: { 'X-HTTP-Method-Override': 'DELETE' } }, { confirm: async (m) => (asked.push(m), false) });
    assert.match(asked[0]!, /\(svc adds credentials from svc\.yaml: X-Trace header, Authorization header, query key token, header X-Team; not shown\)/);
    for (const v of Object.values(ENV)) assert.ok(!asked[0]!.includes(v));
  });
});

describe('inspect and the parameters svc fills', () => {
  test('inspect marks a credential parameter as filled by svc.yaml instead of asking the model for it', async () => {
    const { inspect } = await import('../../src/tools/inspect.ts');
    const { Catalog } = await import('../../src/catalog/index.ts');
    const h = await full();
    const ctx = { catalog: new Catalog([h.spec]), config: h.config, invoker: h.invoker };
    const r = await inspect.handler({ endpointId: h.endpoint('GET:/echo').id }, ctx);
    const line = r.text.split('\n').find((l) => /^\s+token \(/.test(l));
    assert.ok(line, r.text);
    assert.match(line, /filled by svc from specs\[0\]\.parameters\.token/);
    assert.doesNotMatch(line, /required/);
    for (const v of Object.values(ENV)) assert.ok(!r.text.includes(v), `${v} shows in inspect`);
    // Without svc.yaml `parameters:` the spec's own requirement stands.
    const bare = await inspect.handler({ endpointId: plain.endpoint('GET:/echo').id }, { catalog: new Catalog([plain.spec]), config: plain.config, invoker: plain.invoker });
    assert.doesNotMatch(bare.text.split('\n').find((l) => /^\s+token \(/.test(l)) ?? '', /filled by svc/);
  });
});
