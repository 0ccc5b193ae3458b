// Credential selection from its contract, over generated security requirements and configured
// credentials: only the schemes asked for, all of an AND or none of it, optional `{}`
// alternatives, an empty environment variable never sent, a query API key percent-encoded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { AuthConfig } from '../../src/config/types.ts';
import { authMatches, describeInferred, schemeFit } from '../../src/invoke/auth-match.ts';
import { applyAuth, chooseAuth, configuredSecrets, isAvailable } from '../../src/invoke/auth.ts';
import { InvokeError } from '../../src/invoke/errors.ts';
import { TokenCache } from '../../src/invoke/oauth2.ts';
import type { SpecSettings } from '../../src/invoke/settings.ts';
import { specDefaults } from '../../src/config/index.ts';
import type { SecurityRequirement, SecurityScheme } from '../../src/model/index.ts';

const NAMES = ['s0', 's1', 's2', 's3'] as const;

const schemeArb: fc.Arbitrary<SecurityScheme> = fc.oneof(
  fc.constant<SecurityScheme>({ type: 'http', scheme: 'bearer' }),
  fc.constant<SecurityScheme>({ type: 'http', scheme: 'Basic' }),
  fc.constantFrom<SecurityScheme>(
    { type: 'apiKey', in: 'header', name: 'X-Key' },
    { type: 'apiKey', in: 'query', name: 'key' },
    { type: 'apiKey', in: 'cookie', name: 'sid' },
    { type: 'apiKey', in: 'header', name: 'Authorization' },
  ),
  fc.constant<SecurityScheme>({ type: 'oauth2' }),
);

const authArb: fc.Arbitrary<AuthConfig> = fc
  .tuple(
    fc.oneof(
      fc.constant<AuthConfig>({ type: 'bearer', token: { env: 'E_BEARER' } }),
      fc.constant<AuthConfig>({ type: 'basic', username: 'u', password: { env: 'E_PASS' } }),
      fc.constantFrom<AuthConfig>(
        { type: 'apiKey', in: 'header', name: 'x-key', value: { env: 'E_KEY' } },
        { type: 'apiKey', in: 'query', name: 'key', value: { env: 'E_KEY' } },
        { type: 'apiKey', in: 'cookie', name: 'sid', value: { env: 'E_KEY' } },
      ),
      fc.constant<AuthConfig>({ type: 'oauth2', tokenUrl: 'http://127.0.0.1:9/t', clientId: 'c', clientSecret: { env: 'E_CS' }, scopes: [] }),
    ),
    fc.option(fc.constantFrom(...NAMES, 'missing'), { nil: undefined }),
  )
  .map(([auth, scheme]) => (scheme === undefined ? auth : { ...auth, scheme }));

const requirementArb: fc.Arbitrary<SecurityRequirement> = fc.subarray([...NAMES]).map((names) => Object.fromEntries(names.map((n) => [n, []])));

const world = fc.record({
  schemes: fc.tuple(schemeArb, schemeArb, schemeArb, schemeArb).map((list) => Object.fromEntries(list.map((s, i) => [NAMES[i]!, s]))),
  auths: fc.array(authArb, { maxLength: 5 }),
  security: fc.option(fc.array(requirementArb, { maxLength: 4 }), { nil: undefined }),
  available: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
});

/** Can `auth` serve scheme `name` (the user named it, or its kind fits)? */
function serves(auth: AuthConfig, name: string, schemes: Record<string, SecurityScheme>): boolean {
  return auth.scheme === name || (auth.scheme === undefined && schemeFit(auth, schemes[name]) !== 'none');
}

/** Exhaustive: can the alternative be met with distinct entries from `pool`? */
function satisfiable(names: string[], pool: number[], auths: AuthConfig[], schemes: Record<string, SecurityScheme>): boolean {
  if (names.length === 0) return true;
  const [first, ...rest] = names;
  return pool.some((i) => serves(auths[i]!, first!, schemes) && satisfiable(rest, pool.filter((j) => j !== i), auths, schemes));
}

describe('credential selection', () => {
  test('only schemes the endpoint asks for, all of one alternative or nothing, the first alternative that can be met', () => {
    fc.assert(
      fc.property(world, ({ schemes, auths, security, available }) => {
        const isOn = (a: AuthConfig): boolean => available[auths.indexOf(a)] ?? true;
        const { chosen, unmet } = chooseAuth({ security }, { securitySchemes: schemes }, auths, isOn);
        const indexes = chosen.map((c) => c.index);
        assert.equal(new Set(indexes).size, indexes.length, 'an entry is used once');
        for (const c of chosen) assert.equal(c.auth, auths[c.index]);
        if (security === undefined) {
          assert.deepEqual(indexes, auths.map((_, i) => i).filter((i) => isOn(auths[i]!)));
          return;
        }
        if (security.length === 0) {
          assert.deepEqual(chosen, []);
          return;
        }
        const on = auths.map((_, i) => i).filter((i) => isOn(auths[i]!));
        const all = auths.map((_, i) => i);
        const firstMet = security.find((alt) => Object.keys(alt).length > 0 && satisfiable(Object.keys(alt), on, auths, schemes));
        const anonymous = security.some((alt) => Object.keys(alt).length === 0);
        if (firstMet !== undefined) {
          // All of the first alternative that can be met now, one entry per scheme, nothing else.
          const names = Object.keys(firstMet);
          assert.equal(chosen.length, names.length);
          names.forEach((n, k) => assert.ok(serves(chosen[k]!.auth, n, schemes), `${n} served by ${JSON.stringify(chosen[k])}`));
          for (const c of chosen) assert.ok(isOn(c.auth));
          assert.deepEqual(unmet, []);
        } else if (anonymous) {
          assert.deepEqual(chosen, [], 'an optional alternative goes without credentials');
        } else if (security.some((alt) => Object.keys(alt).length > 0 && satisfiable(Object.keys(alt), all, auths, schemes))) {
          assert.ok(chosen.length > 0, 'configured but unset: chosen so the error names the variable');
        } else {
          assert.deepEqual(chosen, []);
          assert.deepEqual(unmet, Object.keys(security.find((a) => Object.keys(a).length > 0)!));
        }
        for (const c of chosen) assert.equal(c.inferred !== undefined, c.auth.scheme === undefined && schemeFit(c.auth, schemes[c.inferred ?? '']) === 'inferred');
      }),
      { numRuns: 2000 },
    );
  });

  test('one entry that fits two schemes of an AND does not starve the other', () => {
    const schemes: Record<string, SecurityScheme> = { o: { type: 'oauth2' }, b: { type: 'http', scheme: 'bearer' } };
    const auths: AuthConfig[] = [
      { type: 'bearer', token: { env: 'E1' } },
      { type: 'oauth2', tokenUrl: 'http://x/t', clientId: 'c', clientSecret: { env: 'E2' }, scopes: [] },
    ];
    const { chosen } = chooseAuth({ security: [{ o: [], b: [] }] }, { securitySchemes: schemes }, auths);
    assert.deepEqual(chosen.map((c) => c.index), [1, 0]);
  });

  test('how an auth entry maps onto schemes: exact kinds, the bearer-in-Authorization inference, a named scheme', () => {
    const schemes: Record<string, SecurityScheme> = {
      BearerToken: { type: 'apiKey', in: 'header', name: 'authorization' },
      http: { type: 'http', scheme: 'Bearer' },
      q: { type: 'apiKey', in: 'query', name: 'key' },
      h: { type: 'apiKey', in: 'header', name: 'X-Key' },
      oidc: { type: 'openIdConnect', url: 'https://x' },
      other: { type: 'other', description: 'x' },
    };
    assert.deepEqual(authMatches({ type: 'bearer', token: { env: 'E' } }, schemes), [
      { scheme: 'BearerToken', fit: 'inferred' },
      { scheme: 'http', fit: 'exact' },
      { scheme: 'oidc', fit: 'exact' },
    ]);
    assert.deepEqual(authMatches({ type: 'apiKey', in: 'header', name: 'x-key', value: { env: 'E' } }, schemes), [{ scheme: 'h', fit: 'exact' }]);
    assert.deepEqual(authMatches({ type: 'apiKey', in: 'header', name: 'key', value: { env: 'E' } }, schemes), []);
    assert.deepEqual(authMatches({ type: 'basic', username: 'u', password: { env: 'E' } }, schemes), []);
    assert.deepEqual(authMatches({ type: 'oauth2', tokenUrl: 'x', clientId: 'c', clientSecret: { env: 'E' }, scopes: [], scheme: 'q' }, schemes), [{ scheme: 'q', fit: 'exact' }]);
    assert.deepEqual(authMatches({ type: 'bearer', token: { env: 'E' }, scheme: 'BearerToken' }, schemes), [{ scheme: 'BearerToken', fit: 'inferred' }]);
    assert.deepEqual(authMatches({ type: 'bearer', token: { env: 'E' }, scheme: 'nope' }, schemes), []);
    assert.equal(schemeFit({ type: 'bearer', token: { env: 'E' } }, undefined), 'none');
    assert.equal(schemeFit({ type: 'bearer', token: { env: 'E' } }, { type: 'apiKey', in: 'query', name: 'authorization' }), 'none');
    assert.equal(schemeFit({ type: 'basic', username: 'u', password: { env: 'E' } }, { type: 'http', scheme: 'BASIC' }), 'exact');
    assert.equal(schemeFit({ type: 'apiKey', in: 'cookie', name: 'sid', value: { env: 'E' } }, { type: 'apiKey', in: 'cookie', name: 'SID' }), 'none');
  });
});

describe('credentials on the wire', () => {
  const settings = (auth: AuthConfig[]): SpecSettings => ({ spec: { ...specDefaults(''), name: 'p', collection: 'default', auth }, key: 'specs[0]', where: '', unlisted: false });
  const spec = { securitySchemes: {} } as never;

  test('an empty environment variable is never sent: left out when optional, an error naming it when required', async () => {
    await fc.assert(
      fc.asyncProperty(authArb.filter((a) => a.type !== 'oauth2'), async (generated) => {
        for (const name of ['E_BEARER', 'E_PASS', 'E_KEY']) process.env[name] = '';
        const auth = { ...generated, scheme: 's0' } as AuthConfig;
        assert.equal(isAvailable(auth), false);
        const loose = await applyAuth({ security: undefined } as never, spec, settings([auth]), new TokenCache(), 'http://x');
        assert.deepEqual([loose.headers, loose.query, loose.cookies, loose.secrets], [[], [], [], []]);
        const required = { security: [{ s0: [] }] } as never;
        await assert.rejects(applyAuth(required, spec, settings([auth]), new TokenCache(), 'http://x'), /Environment variable E_\w+ .* is not set/);
      }),
      { numRuns: 30 },
    );
  });

  test('a query API key and a cookie value are percent-encoded, whatever the secret holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 3, maxLength: 30 }), fc.constantFrom('key', 'api key', 'k&y=1'), async (value, name) => {
        process.env.E_KEY = value;
        const auths: AuthConfig[] = [
          { type: 'apiKey', in: 'query', name, value: { env: 'E_KEY' } },
          { type: 'apiKey', in: 'cookie', name: 'sid', value: { env: 'E_KEY' } },
        ];
        const out = await applyAuth({ security: undefined } as never, spec, settings(auths), new TokenCache(), 'http://x');
        assert.deepEqual(out.query, [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`]);
        assert.equal(new URLSearchParams(out.query[0]!).get(name), value);
        assert.equal(out.cookies[0], `sid=${encodeURIComponent(value)}`);
        assert.ok(!/[;\s]/.test(out.cookies[0]!.slice(4)));
        assert.ok(out.secrets.includes(value));
      }),
      { numRuns: 100 },
    );
  });

  test('bearer, basic and header keys go in their headers, and every value used is listed as a secret', async () => {
    Object.assign(process.env, { E_BEARER: 'tok-123', E_PASS: 'pw-456', E_KEY: 'key-789' });
    const out = await applyAuth(
      { security: undefined } as never,
      spec,
      settings([
        { type: 'bearer', token: { env: 'E_BEARER' } },
        { type: 'basic', username: { env: 'E_BEARER' }, password: { env: 'E_PASS' } },
        { type: 'apiKey', in: 'header', name: 'X-Key', value: { env: 'E_KEY' } },
      ]),
      new TokenCache(),
      'http://x',
    );
    const basic = Buffer.from('tok-123:pw-456').toString('base64');
    assert.deepEqual(out.headers, [['authorization', 'Bearer tok-123'], ['authorization', `Basic ${basic}`], ['X-Key', 'key-789']]);
    assert.deepEqual(new Set(out.secrets), new Set(['tok-123', 'pw-456', basic, 'key-789']));
    assert.deepEqual([...out.sensitiveHeaders], ['x-key']);
  });

  test('a secret shorter than 3 characters in the environment is refused, not sent', async () => {
    process.env.E_BEARER = 'ab';
    await assert.rejects(
      applyAuth({ security: undefined } as never, spec, settings([{ type: 'bearer', token: { env: 'E_BEARER' } }]), new TokenCache(), 'http://x'),
      /E_BEARER .* is shorter than 3 characters/,
    );
  });
});

describe('credential selection, case by case', () => {
  const settings = (auth: AuthConfig[], over: Record<string, unknown> = {}): SpecSettings => ({
    spec: { ...specDefaults(''), name: 'p', collection: 'default', auth, ...over },
    key: 'specs[0]',
    where: '',
    unlisted: false,
  });

  test('with nothing said about availability every configured entry counts, and unmet is empty whenever something is chosen', () => {
    const auths: AuthConfig[] = [{ type: 'bearer', token: { env: 'NOPE_UNSET' } }];
    assert.deepEqual(chooseAuth({ security: undefined }, { securitySchemes: {} }, auths), { chosen: [{ auth: auths[0]!, index: 0 }], unmet: [] });
    assert.deepEqual(chooseAuth({ security: [] }, { securitySchemes: {} }, auths), { chosen: [], unmet: [] });
    assert.deepEqual(chooseAuth({ security: [{ x: [] }, {}] }, { securitySchemes: {} }, auths), { chosen: [], unmet: [] });
    const b = { securitySchemes: { b: { type: 'http', scheme: 'bearer' } as SecurityScheme } };
    assert.deepEqual(chooseAuth({ security: [{ b: [] }] }, b, auths, () => false), { chosen: [{ auth: auths[0]!, index: 0 }], unmet: [] });
    assert.deepEqual(chooseAuth({ security: [{ x: [], y: [] }, { z: [] }] }, b, auths), { chosen: [], unmet: ['x', 'y'] });
  });

  test('a requirement naming many schemes that cannot all be met is given up quickly', () => {
    const names = Array.from({ length: 11 }, (_, i) => `s${i}`);
    const schemes = Object.fromEntries(names.map((n, i) => [n, (i < 10 ? { type: 'http', scheme: 'bearer' } : { type: 'other', description: 'x' }) as SecurityScheme]));
    const auths: AuthConfig[] = names.map((_, i) => ({ type: 'bearer', token: { env: `E${i}` } }));
    const started = performance.now();
    const { chosen, unmet } = chooseAuth({ security: [Object.fromEntries(names.map((n) => [n, []]))] }, { securitySchemes: schemes }, auths);
    assert.deepEqual(chosen, []);
    assert.equal(unmet.length, 11);
    assert.ok(performance.now() - started < 5000);
  });

  test('isAvailable: every secret set and non-empty; literal values count as set', () => {
    process.env.AV_SET = 'value-1';
    delete process.env.AV_UNSET;
    process.env.AV_EMPTY = '';
    assert.equal(isAvailable({ type: 'basic', username: 'alice', password: { env: 'AV_SET' } }), true);
    assert.equal(isAvailable({ type: 'basic', username: { env: 'AV_UNSET' }, password: { env: 'AV_SET' } }), false);
    assert.equal(isAvailable({ type: 'bearer', token: { env: 'AV_EMPTY' } }), false);
    assert.equal(isAvailable({ type: 'apiKey', in: 'query', name: 'k', value: { env: 'AV_UNSET' } }), false);
    assert.equal(isAvailable({ type: 'oauth2', tokenUrl: 'x', clientId: 'c', clientSecret: { env: 'AV_UNSET' }, scopes: [] }), false);
    assert.equal(isAvailable({ type: 'oauth2', tokenUrl: 'x', clientId: { env: 'AV_SET' }, clientSecret: { env: 'AV_SET' }, scopes: [] }), true);
  });

  test('configuredSecrets: every set secret of every auth, header and parameter; literals and empty values left out', () => {
    Object.assign(process.env, { CS_A: 'sec-a', CS_B: 'sec-b', CS_C: 'sec-c', CS_D: 'sec-d', CS_E: 'sec-e', CS_F: 'sec-f', CS_EMPTY: '' });
    delete process.env.CS_UNSET;
    const s = settings(
      [
        { type: 'bearer', token: { env: 'CS_A' } },
        { type: 'basic', username: 'alice', password: { env: 'CS_B' } },
        { type: 'apiKey', in: 'query', name: 'k', value: { env: 'CS_UNSET' } },
        { type: 'oauth2', tokenUrl: 'x', clientId: { env: 'CS_C' }, clientSecret: { env: 'CS_EMPTY' }, scopes: [] },
      ],
      { headers: { 'User-Agent': 'literal-agent', 'X-Secret': { env: 'CS_D' } }, parameters: { token: { env: 'CS_E' }, 'query.k': { env: 'CS_F' } } },
    );
    assert.deepEqual(configuredSecrets(s), ['sec-a', 'sec-b', 'sec-c', 'sec-d', 'sec-e', 'sec-f']);
  });

  test('a missing secret names the variable, the key, the spec and what to do', async () => {
    delete process.env.CS_UNSET;
    const spec = { securitySchemes: {} } as never;
    for (const [auth, key] of [
      [{ type: 'bearer', token: { env: 'CS_UNSET' } }, 'token'],
      [{ type: 'basic', username: 'alice', password: { env: 'CS_UNSET' } }, 'password'],
      [{ type: 'basic', username: { env: 'CS_UNSET' }, password: { env: 'CS_A' } }, 'username'],
      [{ type: 'apiKey', in: 'header', name: 'k', value: { env: 'CS_UNSET' } }, 'value'],
      [{ type: 'oauth2', tokenUrl: 'http://x/t', clientId: 'c', clientSecret: { env: 'CS_UNSET' }, scopes: [] }, 'clientSecret'],
      [{ type: 'oauth2', tokenUrl: 'http://x/t', clientId: { env: 'CS_UNSET' }, clientSecret: { env: 'CS_A' }, scopes: [] }, 'clientId'],
    ] as Array<[AuthConfig, string]>) {
      await assert.rejects(applyAuth({ security: [{ s: [] }] } as never, spec, settings([{ ...auth, scheme: 's' } as AuthConfig]), new TokenCache(), 'http://x'), (err: unknown) => {
        assert.ok(err instanceof InvokeError);
        assert.equal(err.code, 'invoke-auth');
        assert.equal(err.message, `Environment variable CS_UNSET (named by specs[0].auth[0].${key} in svc.yaml) is not set, so svc cannot authenticate to 'p'.`);
        assert.equal(err.hint, 'set CS_UNSET in the environment svc runs in');
        return true;
      });
    }
    process.env.CS_SHORT = 'ab';
    await assert.rejects(applyAuth({ security: undefined } as never, spec, settings([{ type: 'bearer', token: { env: 'CS_SHORT' } }]), new TokenCache(), 'http://x'), (err: unknown) => {
      assert.ok(err instanceof InvokeError && err.code === 'invoke-auth' && err.hint === 'set CS_SHORT to the real credential');
      return true;
    });
  });

  test('applied auth: nothing unmet when chosen, a note only for an inferred fit, a literal user name not listed as a secret', async () => {
    Object.assign(process.env, { AP_T: 'tok-ap-1', AP_P: 'pw-ap-2' });
    const spec = { securitySchemes: { k8s: { type: 'apiKey', in: 'header', name: 'Authorization' }, basic: { type: 'http', scheme: 'basic' } } } as never;
    const bearer = await applyAuth({ security: [{ k8s: [] }] } as never, spec, settings([{ type: 'bearer', token: { env: 'AP_T' } }]), new TokenCache(), 'http://x');
    assert.deepEqual(bearer.unmet, []);
    assert.deepEqual(bearer.headers, [['authorization', 'Bearer tok-ap-1']]);
    assert.deepEqual(bearer.notes, ["[svc applied specs[0].auth[0] (type bearer) as 'Authorization: Bearer ...' to scheme 'k8s', which the spec declares as an apiKey in the header 'Authorization']"]);
    const basic = await applyAuth({ security: [{ basic: [] }] } as never, spec, settings([{ type: 'basic', username: 'alice', password: { env: 'AP_P' } }]), new TokenCache(), 'http://x');
    assert.deepEqual(basic.notes, []);
    assert.deepEqual(basic.unmet, []);
    assert.ok(!basic.secrets.includes('alice'));
    const unmet = await applyAuth({ security: [{ basic: [] }] } as never, spec, settings([]), new TokenCache(), 'http://x');
    assert.deepEqual(unmet.unmet, ['basic']);
  });

  test('schemeFit: each kind against each scheme', () => {
    const bearer: AuthConfig = { type: 'bearer', token: { env: 'E' } };
    const oauth: AuthConfig = { type: 'oauth2', tokenUrl: 'x', clientId: 'c', clientSecret: { env: 'E' }, scopes: [] };
    assert.equal(schemeFit(bearer, { type: 'http', scheme: 'basic' }), 'none');
    assert.equal(schemeFit(bearer, { type: 'oauth2' }), 'exact');
    assert.equal(schemeFit(bearer, { type: 'other', description: 'x' }), 'none');
    assert.equal(schemeFit(oauth, { type: 'openIdConnect', url: 'x' }), 'exact');
    assert.equal(schemeFit(oauth, { type: 'oauth2' }), 'exact');
    assert.equal(schemeFit(oauth, { type: 'http', scheme: 'bearer' }), 'none');
    assert.equal(schemeFit({ type: 'apiKey', in: 'query', name: 'key', value: { env: 'E' } }, { type: 'apiKey', in: 'query', name: 'key' }), 'exact');
    assert.equal(schemeFit({ type: 'apiKey', in: 'query', name: 'Key', value: { env: 'E' } }, { type: 'apiKey', in: 'query', name: 'key' }), 'none');
    assert.equal(schemeFit({ type: 'apiKey', in: 'header', name: 'key', value: { env: 'E' } }, { type: 'http', scheme: 'bearer' }), 'none');
    assert.equal(describeInferred(bearer, 'x', { type: 'oauth2' }, 'k'), "[svc applied k (type bearer) as 'Authorization: Bearer ...' to scheme 'x', which the spec declares as oauth2]");
    assert.equal(describeInferred(bearer, 'x', undefined, 'k'), "[svc applied k (type bearer) as 'Authorization: Bearer ...' to scheme 'x', which the spec declares as unknown]");
  });
});
