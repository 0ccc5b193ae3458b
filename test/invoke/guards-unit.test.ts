// The guards as pure functions, from their contracts: method overrides, credential places, what a
// confirmation shows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { specDefaults } from '../../src/config/index.ts';
import type { SpecConfig } from '../../src/config/types.ts';
import { confirmationMessage, describeWrite, MAX_CONFIRM_BODY_CHARS } from '../../src/invoke/confirm.ts';
import { assertNoShadowing, credentialSlots, reservedParameters } from '../../src/invoke/credentials.ts';
import { allowedOrigins, checkOrigin, checkWrite, effectiveMethod, isSafeMethod } from '../../src/invoke/policy.ts';
import type { SpecSettings } from '../../src/invoke/settings.ts';
import type { Parameter } from '../../src/model/index.ts';

const config = (over: Partial<SpecConfig> = {}): SpecConfig => ({ ...specDefaults(''), name: 'p', collection: 'default', ...over });
const settings = (over: Partial<SpecConfig> = {}): SpecSettings => ({ spec: config(over), key: 'specs[0]', where: '', unlisted: false });

describe('method overrides', () => {
  const overrideHeader = fc.constantFrom('X-HTTP-Method-Override', 'x-http-method', 'X-Method-Override', 'X-HTTP-METHOD-OVERRIDE');
  const write = fc.constantFrom('POST', 'put', 'Delete', 'PATCH', 'PURGE');

  test('any override header naming a write makes the request that write, in any case and position', () => {
    fc.assert(
      fc.property(fc.constantFrom('GET', 'HEAD', 'OPTIONS'), overrideHeader, write, fc.array(fc.tuple(fc.constantFrom('X-Other', 'Accept'), fc.string())), (method, name, named, others) => {
        const headers: Array<[string, string]> = [...others, [name, ` ${named} `]];
        assert.equal(effectiveMethod(method, headers), named.toUpperCase());
        assert.equal(effectiveMethod(method, others), method);
      }),
    );
  });

  test('an override naming a safe method, or empty, changes nothing', () => {
    assert.equal(effectiveMethod('GET', [['X-HTTP-Method-Override', 'HEAD']]), 'GET');
    assert.equal(effectiveMethod('DELETE', [['X-HTTP-Method-Override', 'GET']]), 'DELETE');
    assert.equal(effectiveMethod('GET', [['X-HTTP-Method-Override', '  ']]), 'GET');
  });

  test('checkWrite judges the overridden method, naming both', () => {
    assert.equal(checkWrite({ method: 'GET', path: '/a' }, settings(), undefined), false);
    assert.throws(() => checkWrite({ method: 'GET', path: '/a' }, settings(), undefined, 'DELETE'), /Refused: GET \/a with a method override to DELETE is a write/);
    assert.equal(checkWrite({ method: 'GET', path: '/a' }, settings({ writes: 'confirm' }), async () => true, 'DELETE'), true);
    assert.equal(checkWrite({ method: 'GET', path: '/a' }, settings({ writes: 'allow' }), undefined, 'DELETE'), false);
    for (const m of ['GET', 'HEAD', 'OPTIONS']) assert.ok(isSafeMethod(m));
    for (const m of ['POST', 'get', 'TRACE']) assert.ok(!isSafeMethod(m));
  });

  test('refusals say what, why and which key to set', () => {
    assert.throws(() => checkWrite({ method: 'POST', path: '/a' }, settings(), undefined), (err: unknown) => {
      assert.ok(err instanceof Error);
      assert.match(err.message, /^Refused: POST \/a is a write, and writes to spec 'p' are off/);
      assert.match((err as { hint?: string }).hint ?? '', /to allow them set specs\[0\]\.writes: allow/);
      return true;
    });
    assert.throws(() => checkWrite({ method: 'POST', path: '/a' }, settings({ writes: 'confirm' }), undefined), (err: unknown) => {
      assert.match((err as Error).message, /^Refused: POST \/a needs the person's confirmation \(specs\[0\]\.writes: confirm\), but this MCP client cannot ask/);
      assert.match((err as { hint?: string }).hint ?? '', /use a client with elicitation, or set specs\[0\]\.writes: allow/);
      return true;
    });
    const allowed = allowedOrigins('https://a.example', settings({ allowedOrigins: ['https://b.example'] }));
    assert.throws(() => checkOrigin(new URL('https://c.example/x'), allowed, settings()), (err: unknown) => {
      assert.equal((err as Error).message, "Refused: https://c.example is not the origin of spec 'p' (https://a.example, https://b.example).");
      assert.equal((err as { hint?: string }).hint, 'to allow it list it in specs[0].allowedOrigins in svc.yaml');
      return true;
    });
  });

  test('origins: the base origin and the listed ones, nothing else', () => {
    const allowed = allowedOrigins('https://a.example', settings({ allowedOrigins: ['https://b.example:8443', 'not a url'] }));
    assert.deepEqual([...allowed], ['https://a.example', 'https://b.example:8443']);
    assert.doesNotThrow(() => checkOrigin(new URL('https://b.example:8443/x'), allowed, settings()));
    assert.throws(() => checkOrigin(new URL('https://a.example.evil/x'), allowed, settings()), /Refused: https:\/\/a\.example\.evil is not the origin of spec 'p'/);
  });
});

describe('credential places', () => {
  const spec = config({
    headers: { 'X-Trace': { env: 'T' }, 'User-Agent': 'svc' },
    auth: [
      { type: 'bearer', token: { env: 'B' } },
      { type: 'apiKey', in: 'query', name: 'api_key', value: { env: 'K' } },
      { type: 'apiKey', in: 'cookie', name: 'sid', value: { env: 'K' } },
      { type: 'apiKey', in: 'header', name: 'X-Key', value: { env: 'K' } },
    ],
    parameters: { token: { env: 'P' }, 'query.team': { env: 'Q' }, 'header.X-Team': { env: 'R' }, 'cookie.Lang': { env: 'S' } },
  });
  const slots = credentialSlots(spec, 'specs[0]');
  const serialized = (over: { query?: string; headers?: Array<[string, string]>; cookies?: string[] }) => ({ path: '', query: '', headers: [], cookies: [], ...over });

  test('every configured header, auth place and parameter is a slot', () => {
    assert.deepEqual(
      slots.map((s) => `${s.in}:${s.name}<-${s.key}`),
      [
        'header:x-trace<-specs[0].headers.X-Trace',
        'header:user-agent<-specs[0].headers.User-Agent',
        'header:authorization<-specs[0].auth[0]',
        'query:api_key<-specs[0].auth[1]',
        'cookie:sid<-specs[0].auth[2]',
        'header:x-key<-specs[0].auth[3]',
        'header:token<-specs[0].parameters.token',
        'query:token<-specs[0].parameters.token',
        'cookie:token<-specs[0].parameters.token',
        'query:team<-specs[0].parameters.query.team',
        'header:x-team<-specs[0].parameters.header.X-Team',
        'cookie:Lang<-specs[0].parameters.cookie.Lang',
      ],
    );
  });

  test('a parameters key is split at a location prefix only: other dots and undotted names are whole names in every place', () => {
    const odd = credentialSlots(config({ parameters: { 'a.b': { env: 'X' }, headerX: { env: 'X' }, 'path.id': { env: 'X' } }, auth: [{ type: 'apiKey', in: 'query', name: 'Api_Key', value: { env: 'K' } }] }), 'k');
    assert.deepEqual(
      odd.map((s) => `${s.in}:${s.name}`),
      ['query:Api_Key', 'header:a.b', 'query:a.b', 'cookie:a.b', 'header:headerx', 'query:headerX', 'cookie:headerX', 'header:path.id', 'query:path.id', 'cookie:path.id'],
    );
    const spaced = credentialSlots(config({ auth: [{ type: 'apiKey', in: 'query', name: 'api key', value: { env: 'K' } }] }), 'k');
    assert.throws(() => assertNoShadowing({ path: '', query: 'api+key=1', headers: [], cookies: [] }, spaced), (err: unknown) => {
      assert.equal((err as { code?: string }).code, 'invoke-unsafe-value');
      assert.equal((err as Error).message, "Refused: the arguments set the query key 'api key', which svc.yaml fills with a credential (k.auth[0]); leave it out, svc sends it itself.");
      return true;
    });
    // A key that does not percent-decode is compared as written.
    const raw = credentialSlots(config({ auth: [{ type: 'apiKey', in: 'query', name: 'k%E0', value: { env: 'K' } }] }), 'k');
    assert.throws(() => assertNoShadowing({ path: '', query: 'a=1&k%E0=1', headers: [], cookies: [] }, raw), /the query key 'k%E0'/);
    assert.doesNotThrow(() => assertNoShadowing({ path: '', query: 'k%E1=1', headers: [], cookies: [] }, raw));
  });

  test('a query key reaching a credential is refused however it is written: encoded, bracketed, anywhere in the list', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a=1', 'b=2', 'x%5By%5D=3'), { maxLength: 3 }), fc.constantFrom('api_key=x', 'api%5Fkey=x', 'api_key%5B0%5D=x', 'api_key[a]=x', 'team=x', 'token', 'api_key'), fc.nat(3), (others, bad, at) => {
        const list: string[] = [...others];
        list.splice(Math.min(at, list.length), 0, bad);
        assert.throws(() => assertNoShadowing(serialized({ query: list.join('&') }), slots), /which svc\.yaml fills with a credential/);
        assert.doesNotThrow(() => assertNoShadowing(serialized({ query: others.join('&') }), slots));
      }),
    );
  });

  test('a header or cookie reaching a credential is refused, and a whole Cookie header when a credential is a cookie', () => {
    assert.throws(() => assertNoShadowing(serialized({ headers: [['x-KEY', 'v']] }), slots), /the header 'x-KEY'.*\(specs\[0\]\.auth\[3\]\)/);
    assert.throws(() => assertNoShadowing(serialized({ headers: [['Cookie', 'sid=1']] }), slots), /a Cookie header/);
    assert.throws(() => assertNoShadowing(serialized({ cookies: ['a=1', 'sid=2'] }), slots), /the cookie 'sid'/);
    assert.throws(() => assertNoShadowing(serialized({ headers: [['Cookie', 'x=1']] }), slots), (err: unknown) => {
      assert.equal((err as Error).message, "Refused: the arguments set a Cookie header, which svc.yaml fills with a credential (specs[0].auth[2]); leave it out, svc sends it itself.");
      return true;
    });
    assert.doesNotThrow(() => assertNoShadowing(serialized({ headers: [['X-Other', 'v']], cookies: ['a=1'], query: 'q=%ZZ' }), slots));
    const noCookies = credentialSlots(config({ auth: [{ type: 'bearer', token: { env: 'B' } }] }), 'specs[0]');
    assert.doesNotThrow(() => assertNoShadowing(serialized({ headers: [['Cookie', 'x=1']] }), noCookies));
  });

  test('reserved parameters: by location and name (headers in any case), path parameters never', () => {
    const p = (name: string, where: Parameter['in']): Parameter => ({ name, in: where, required: true, type: 'string' });
    const params = [p('X-KEY', 'header'), p('api_key', 'query'), p('api_key', 'cookie'), p('token', 'path'), p('token', 'query'), p('team', 'header'), p('Team', 'query')];
    const reserved = reservedParameters({ parameters: params }, slots);
    assert.deepEqual([...reserved].map(([x, key]) => `${x.in}.${x.name}:${key}`), ['header.X-KEY:specs[0].auth[3]', 'query.api_key:specs[0].auth[1]', 'query.token:specs[0].parameters.token']);
  });
});

describe('what a confirmation shows', () => {
  const url = new URL('https://api.example/v1/pay?to=acct-1&amount=5');

  test('method and full URL, headers, cookies, content type, credentials by name, and the body', () => {
    const c = describeWrite(
      { method: 'POST', url, headers: [['X-Trace', 't-1']], cookies: ['lang=en'], body: { body: '{"amount":5}', contentType: 'application/json' }, credentials: ['Authorization header'] },
      'bank',
      'POST /pay',
      [],
    );
    assert.equal(c.question, "Allow this POST to spec 'bank' (POST /pay)?");
    assert.equal(
      c.request,
      'POST https://api.example/v1/pay?to=acct-1&amount=5\nX-Trace: t-1\nCookie: lang=en\nContent-Type: application/json\n(svc adds credentials from svc.yaml: Authorization header; not shown)\n\n{"amount":5}',
    );
    assert.equal(confirmationMessage(c), `${c.question}\n\n${c.request}`);
  });

  test('several cookies and credentials are listed in full; a long body is cut with a note', () => {
    const c = describeWrite(
      { method: 'PUT', url, headers: [], cookies: ['a=1', 'b=2'], body: { body: 'z'.repeat(2500) }, credentials: ['Authorization header', 'query key k'] },
      's',
      'PUT /x',
      [],
    );
    assert.ok(c.request.includes('Cookie: a=1; b=2'));
    assert.ok(c.request.includes('(svc adds credentials from svc.yaml: Authorization header, query key k; not shown)'));
    assert.ok(c.request.endsWith(`${'z'.repeat(MAX_CONFIRM_BODY_CHARS)}\n[body cut: showing ${MAX_CONFIRM_BODY_CHARS} of 2500 characters]`));
  });

  test('no body, no cookies, no credentials: only the request line', () => {
    const c = describeWrite({ method: 'DELETE', url, headers: [], cookies: [], credentials: [] }, 'bank', 'DELETE /pay', []);
    assert.equal(c.request, `DELETE ${url.href}`);
  });

  test('a body of any length is shown up to the bound, then cut with a note; secrets never shown', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (text) => {
        const body = `secret-Zc9 ${text}`;
        const c = describeWrite({ method: 'PUT', url, headers: [], cookies: [], body: { body }, credentials: [] }, 's', 'PUT /x', ['secret-Zc9']);
        assert.ok(!c.request.includes('secret-Zc9'));
        const cut = body.length > MAX_CONFIRM_BODY_CHARS;
        assert.equal(c.request.includes(`[body cut: showing ${MAX_CONFIRM_BODY_CHARS} of ${body.length} characters]`), cut);
        assert.ok(c.request.length < MAX_CONFIRM_BODY_CHARS + 200);
      }),
      { numRuns: 50 },
    );
  });

  test('a multipart body lists its fields, and files by name, size and type', () => {
    const form = new FormData();
    form.append('note', 'hello');
    form.append('photo', new Blob(['abc'], { type: 'image/png' }), 'p.png');
    form.append('raw', new Blob(['abcd']));
    const c = describeWrite({ method: 'POST', url, headers: [], cookies: [], body: { body: form }, credentials: [] }, 's', 'POST /x', []);
    assert.ok(c.request.endsWith('multipart form:\nnote=hello\nphoto: file p.png (3 bytes, image/png)\nraw: file blob (4 bytes, application/octet-stream)'), c.request);
  });
});
