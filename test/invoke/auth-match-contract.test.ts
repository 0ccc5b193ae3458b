// What `svc check` says about credentials (matchAuth, unmetSchemes, describeScheme) from its
// contract, over generated schemes and svc.yaml auth entries: it is built on the same fit as
// invoke's choice, so check never reports a scheme as unmet that invoke would serve, nor the reverse.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { AuthConfig } from '../../src/config/types.ts';
import { authFits, authMatches, describeScheme, matchAuth, schemeFit, unmetSchemes } from '../../src/invoke/auth-match.ts';
import { specDefaults } from '../../src/config/index.ts';
import { chooseAuth, configuredSecrets } from '../../src/invoke/auth.ts';
import type { Endpoint, SecurityRequirement, SecurityScheme } from '../../src/model/index.ts';

const NAMES = ['s0', 's1', 's2', 's3'] as const;

const schemeArb: fc.Arbitrary<SecurityScheme> = fc.oneof(
  fc.constantFrom('bearer', 'Bearer', 'BEARER', 'basic', 'Basic', 'digest').map((scheme): SecurityScheme => ({ type: 'http', scheme })),
  fc
    .tuple(fc.constantFrom('header', 'query', 'cookie' as const), fc.constantFrom('X-Key', 'x-key', 'key', 'Authorization', 'authorization', 'sid'))
    .map(([where, name]): SecurityScheme => ({ type: 'apiKey', in: where, name })),
  fc.constant<SecurityScheme>({ type: 'oauth2' }),
  fc.constant<SecurityScheme>({ type: 'openIdConnect', url: 'https://id.example/.well-known/openid-configuration' }),
  fc.constant<SecurityScheme>({ type: 'other', description: 'mutualTLS' }),
);

const authArb: fc.Arbitrary<AuthConfig> = fc
  .tuple(
    fc.oneof(
      fc.constant<AuthConfig>({ type: 'bearer', token: { env: 'E_BEARER' } }),
      fc.constant<AuthConfig>({ type: 'basic', username: 'u', password: { env: 'E_PASS' } }),
      fc
        .tuple(fc.constantFrom('header', 'query', 'cookie' as const), fc.constantFrom('X-Key', 'x-key', 'key', 'Authorization', 'sid'))
        .map(([where, name]): AuthConfig => ({ type: 'apiKey', in: where, name, value: { env: 'E_KEY' } })),
      fc.constant<AuthConfig>({ type: 'oauth2', tokenUrl: 'https://id.example/token', clientId: 'c', clientSecret: { env: 'E_CS' }, scopes: [] }),
    ),
    fc.option(fc.constantFrom(...NAMES, 'missing'), { nil: undefined }),
  )
  .map(([auth, scheme]) => (scheme === undefined ? auth : { ...auth, scheme }));

/** Any subset of the names, in any order (an AND). */
const requirementArb: fc.Arbitrary<SecurityRequirement> = fc
  .shuffledSubarray([...NAMES])
  .map((names) => Object.fromEntries(names.map((n) => [n, []])));

const schemesArb = fc
  .tuple(fc.option(schemeArb, { nil: undefined }), schemeArb, fc.option(schemeArb, { nil: undefined }), schemeArb)
  .map((list) => Object.fromEntries(list.flatMap((s, i) => (s === undefined ? [] : [[NAMES[i]!, s] as const]))) as Record<string, SecurityScheme>);

function endpointWith(security: readonly SecurityRequirement[] | undefined): Endpoint {
  return { security } as Endpoint;
}

/** The reference fit, written from the README's table of what each entry type serves. */
function expectedFit(auth: AuthConfig, scheme: SecurityScheme | undefined): 'exact' | 'inferred' | 'none' {
  if (scheme === undefined) return 'none';
  const http = scheme.type === 'http' ? scheme.scheme.toLowerCase() : undefined;
  const token = scheme.type === 'oauth2' || scheme.type === 'openIdConnect';
  switch (auth.type) {
    case 'bearer':
      if (http === 'bearer' || token) return 'exact';
      return scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization' ? 'inferred' : 'none';
    case 'basic':
      return http === 'basic' ? 'exact' : 'none';
    case 'apiKey': {
      if (scheme.type !== 'apiKey' || scheme.in !== auth.in) return 'none';
      const same = auth.in === 'header' ? scheme.name.toLowerCase() === auth.name.toLowerCase() : scheme.name === auth.name;
      return same ? 'exact' : 'none';
    }
    case 'oauth2':
      return token ? 'exact' : 'none';
  }
}

describe('what an auth entry fits', () => {
  test('schemeFit, authFits and authMatches follow the table of entry types and schemes', () => {
    fc.assert(
      fc.property(authArb, schemesArb, (auth, schemes) => {
        for (const name of [...NAMES, 'missing']) {
          const want = expectedFit(auth, schemes[name]);
          assert.equal(schemeFit(auth, schemes[name]), want, name);
          assert.equal(authFits(auth, schemes[name]), want === 'exact' ? 'direct' : want === 'inferred' ? 'mapped' : false, name);
        }
        const matches = authMatches(auth, schemes);
        if (auth.scheme !== undefined) {
          const s = schemes[auth.scheme];
          assert.deepEqual(matches, s === undefined ? [] : [{ scheme: auth.scheme, fit: expectedFit(auth, s) === 'inferred' ? 'inferred' : 'exact' }]);
        } else {
          const want = Object.keys(schemes)
            .map((name) => ({ scheme: name, fit: expectedFit(auth, schemes[name]) }))
            .filter((m) => m.fit !== 'none');
          assert.deepEqual(matches, want);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('matchAuth: a named scheme is named, mismatched or unknown (with the closest name); else the direct fits, else the one mapped, else none', () => {
    fc.assert(
      fc.property(authArb, schemesArb, fc.option(fc.constantFrom(...NAMES), { nil: undefined }), (auth, schemes, near) => {
        const asked: Array<[string, readonly string[]]> = [];
        const closest = (name: string, known: readonly string[]): string | undefined => {
          asked.push([name, known]);
          return near;
        };
        const got = matchAuth(auth, schemes, closest);
        const names = Object.keys(schemes);
        if (auth.scheme !== undefined) {
          const s = schemes[auth.scheme];
          if (s === undefined) {
            assert.deepEqual(got, near === undefined ? { kind: 'unknown-scheme', scheme: auth.scheme } : { kind: 'unknown-scheme', scheme: auth.scheme, closest: near });
            assert.deepEqual(asked, [[auth.scheme, names]]);
          } else {
            assert.deepEqual(got, { kind: expectedFit(auth, s) === 'none' ? 'named-mismatch' : 'named', scheme: auth.scheme });
            assert.deepEqual(asked, []);
          }
          return;
        }
        const direct = names.filter((n) => expectedFit(auth, schemes[n]) === 'exact');
        const mapped = names.find((n) => expectedFit(auth, schemes[n]) === 'inferred');
        if (direct.length > 0) assert.deepEqual(got, { kind: 'fits', schemes: direct });
        else if (mapped !== undefined) assert.deepEqual(got, { kind: 'mapped', scheme: mapped, header: (schemes[mapped] as { name: string }).name });
        else assert.deepEqual(got, { kind: 'none' });
      }),
      { numRuns: 300 },
    );
  });

  test('matchAuth without a closest-name helper names no closest scheme', () => {
    assert.deepEqual(matchAuth({ type: 'bearer', token: { env: 'T' }, scheme: 'nope' }, { s0: { type: 'oauth2' } }), { kind: 'unknown-scheme', scheme: 'nope' });
  });
});

describe("svc check's unmet schemes agree with invoke's choice", () => {
  test('unmet exactly when invoke can meet no alternative with distinct entries, and then the first alternative is named', () => {
    fc.assert(
      fc.property(
        schemesArb,
        fc.array(authArb, { maxLength: 5 }),
        fc.option(fc.array(requirementArb, { maxLength: 4 }), { nil: undefined }),
        (schemes, auths, security) => {
          const unmet = unmetSchemes(endpointWith(security), schemes, auths);
          const invoke = chooseAuth({ security }, { securitySchemes: schemes }, auths);
          assert.deepEqual(unmet, invoke.unmet);
          if (unmet.length > 0) assert.deepEqual(unmet, Object.keys(security![0]!));
        },
      ),
      { numRuns: 500 },
    );
  });

  test('one entry that fits two schemes of an AND does not starve the other: a second entry for one of them meets it', () => {
    const schemes: Record<string, SecurityScheme> = { a: { type: 'oauth2' }, b: { type: 'http', scheme: 'bearer' } };
    const bearerForBoth: AuthConfig = { type: 'bearer', token: { env: 'T1' } };
    const oauthOnly: AuthConfig = { type: 'oauth2', tokenUrl: 'https://id.example/t', clientId: 'c', clientSecret: { env: 'S' }, scopes: [] };
    const endpoint = endpointWith([{ a: [], b: [] }]);
    assert.deepEqual(unmetSchemes(endpoint, schemes, [bearerForBoth, oauthOnly]), []);
    assert.deepEqual(unmetSchemes(endpoint, schemes, [bearerForBoth]), ['a', 'b']);
  });

  test('a requirement no set of entries can meet is answered quickly, whatever its size (the search is bounded)', () => {
    // Twelve schemes in one AND, eleven entries that each fit every one of them: no distinct entry
    // for the twelfth, and an unbounded search would try every arrangement of the eleven.
    const names = Array.from({ length: 12 }, (_, i) => `b${i}`);
    const schemes = Object.fromEntries(names.map((n) => [n, { type: 'http', scheme: 'bearer' } as SecurityScheme]));
    const auths: AuthConfig[] = Array.from({ length: 11 }, (_, i) => ({ type: 'bearer', token: { env: `T${i}` } }));
    const security = [Object.fromEntries(names.map((n) => [n, []]))];
    const t0 = performance.now();
    assert.deepEqual(unmetSchemes(endpointWith(security), schemes, auths), names);
    assert.deepEqual(chooseAuth({ security }, { securitySchemes: schemes }, auths).unmet, names);
    assert.ok(performance.now() - t0 < 10_000);
  });

  test('mapped: a bearer entry serves an apiKey Authorization header when nothing fits directly', () => {
    const bearer: AuthConfig = { type: 'bearer', token: { env: 'T' } };
    const k8s: SecurityScheme = { type: 'apiKey', in: 'header', name: 'Authorization' };
    assert.deepEqual(matchAuth(bearer, { key: { type: 'apiKey', in: 'query', name: 'k' }, BearerToken: k8s }), { kind: 'mapped', scheme: 'BearerToken', header: 'Authorization' });
    assert.deepEqual(matchAuth(bearer, { BearerToken: k8s, jwt: { type: 'http', scheme: 'bearer' } }), { kind: 'fits', schemes: ['jwt'] });
    assert.deepEqual(matchAuth(bearer, { key: { type: 'apiKey', in: 'query', name: 'Authorization' } }), { kind: 'none' });
    assert.deepEqual(unmetSchemes(endpointWith([{ BearerToken: [] }]), { BearerToken: k8s }, [bearer]), []);
  });

  test('public endpoints, optional alternatives and silent specs need nothing', () => {
    const schemes: Record<string, SecurityScheme> = { k: { type: 'apiKey', in: 'header', name: 'X-Key' } };
    assert.deepEqual(unmetSchemes(endpointWith(undefined), schemes, []), []);
    assert.deepEqual(unmetSchemes(endpointWith([]), schemes, []), []);
    assert.deepEqual(unmetSchemes(endpointWith([{ k: [] }, {}]), schemes, []), []);
    assert.deepEqual(unmetSchemes(endpointWith([{ k: [] }]), schemes, []), ['k']);
    // An entry that names the scheme serves it whatever its type.
    assert.deepEqual(unmetSchemes(endpointWith([{ k: [] }]), schemes, [{ type: 'basic', username: 'u', password: { env: 'P' }, scheme: 'k' }]), []);
    assert.deepEqual(unmetSchemes(endpointWith([{ k: [] }]), schemes, [{ type: 'apiKey', in: 'header', name: 'x-key', value: { env: 'V' }, scheme: 'other' }]), ['k']);
  });
});

describe('describeScheme', () => {
  test('names the scheme and how it is sent, each part cut to 60 characters', () => {
    const long = 'n'.repeat(61);
    const cut = `${'n'.repeat(57)}...`;
    assert.equal(describeScheme('Auth', undefined), 'Auth');
    assert.equal(describeScheme('Auth', { type: 'http', scheme: 'Bearer' }), 'Auth (http bearer)');
    assert.equal(describeScheme('Key', { type: 'apiKey', in: 'query', name: 'api_key' }), 'Key (apiKey in query api_key)');
    assert.equal(describeScheme('O', { type: 'oauth2' }), 'O (oauth2)');
    assert.equal(describeScheme('I', { type: 'openIdConnect', url: 'https://x' }), 'I (openIdConnect)');
    assert.equal(describeScheme('M', { type: 'other', description: 'mutualTLS' }), 'M (mutualTLS)');
    assert.equal(describeScheme(long, undefined), cut);
    assert.equal(describeScheme('n'.repeat(60), undefined), 'n'.repeat(60));
    assert.equal(describeScheme('H', { type: 'http', scheme: long }), `H (http ${cut})`);
    assert.equal(describeScheme('K', { type: 'apiKey', in: 'header', name: long }), `K (apiKey in header ${cut})`);
    assert.equal(describeScheme('M', { type: 'other', description: long }), `M (${cut})`);
  });
});

describe('configured secrets', () => {
  test('a literal in svc.yaml is no secret, even when some variable is named like what it is not', () => {
    // A literal username is a string, not a { env } reference: nothing is read from the environment
    // for it (not even a variable literally named "undefined").
    process.env['undefined'] = 'not-a-credential-1234';
    try {
      const spec = { ...specDefaults('/x.yaml'), name: 's', collection: 'default', auth: [{ type: 'basic', username: 'alice', password: { env: 'SVC_AMC_PASS' } }] as AuthConfig[], headers: { 'User-Agent': 'literal' } };
      process.env.SVC_AMC_PASS = 'pass-word-5678';
      assert.deepEqual(configuredSecrets({ spec, key: 'specs[0]', where: '', unlisted: false }), ['pass-word-5678']);
    } finally {
      delete process.env['undefined'];
      delete process.env.SVC_AMC_PASS;
    }
  });
});
