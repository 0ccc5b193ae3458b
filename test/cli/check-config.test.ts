// `svc check` compares svc.yaml with each spec: credentials that serve no security scheme, a
// `scheme:` the spec lacks, endpoints that need credentials nothing configured serves, a baseUrl
// none of the spec's servers matches, and the bearer -> apiKey(Authorization) reading it applies.
// Runs the real command in-process (runCli) on temp files and reads its --json report.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { configFindings } from '../../src/cli/check-config.ts';
import { runCli } from '../../src/cli/program.ts';
import type { SpecConfig } from '../../src/config/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

interface Finding {
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly line?: number;
}
interface Report {
  readonly name: string;
  readonly warnings: readonly Finding[];
  readonly notes: readonly Finding[];
  readonly errors: readonly Finding[];
}

// A Kubernetes-like API: an apiKey scheme in the Authorization header, a basic scheme, servers with a variable.
const CLUSTER = `openapi: 3.0.3
info: { title: Cluster, version: unversioned }
servers:
  - url: https://{region}.cluster.example/api/v1
    variables:
      region: { default: eu, enum: [eu, us] }
  - url: /internal/v1
security:
  - BearerToken: []
components:
  securitySchemes:
    BearerToken: { type: apiKey, in: header, name: authorization }
    operatorLogin: { type: http, scheme: basic }
paths:
  /pods:
    get:
      responses: { '200': { description: ok } }
  /nodes:
    get:
      security: [{ operatorLogin: [] }]
      responses: { '200': { description: ok } }
  /healthz:
    get:
      security: []
      responses: { '200': { description: ok } }
`;

describe('svc check: config against spec', () => {
  let dir: string;
  before(async () => {
    // check warns about unset credential variables (from its own process environment): set them.
    process.env['CLUSTER_TOKEN'] = 'cluster-token-value';
    process.env['CLUSTER_PASSWORD'] = 'cluster-password-value';
    dir = await mkdtemp(join(tmpdir(), 'svc-check-config-'));
    await writeFile(join(dir, 'cluster.yaml'), CLUSTER);
  });
  after(async () => {
    delete process.env['CLUSTER_TOKEN'];
    delete process.env['CLUSTER_PASSWORD'];
    await rm(dir, { recursive: true, force: true });
  });

  let n = 0;
  /** `svc check --json` over one spec entry with these extra keys; the report of that spec. */
  async function check(entry: string): Promise<Report> {
    const config = join(dir, `svc-${n++}.yaml`);
    await writeFile(config, `specs:\n  - path: cluster.yaml\n    name: cluster\n${entry.split('\n').map((l) => `    ${l}`).join('\n')}\n`);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    stderr.resume();
    const code = await runCli(['node', 'svc', 'check', '--json', '--config', config], { stdout, stderr, env: process.env });
    assert.equal(code, 0, out);
    const report = (JSON.parse(out) as { specs: Report[] }).specs[0]!;
    assert.deepEqual(report.errors, []);
    return report;
  }
  const codes = (findings: readonly Finding[]): string[] => findings.map((f) => f.code);

  it('says that a bearer entry is applied to an apiKey scheme in the Authorization header', async () => {
    const report = await check('auth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }\n  - { type: basic, username: ops, password: "${CLUSTER_PASSWORD}" }');
    assert.deepEqual(codes(report.notes), ['auth-mapped']);
    assert.match(report.notes[0]!.message, /specs\[0\]\.auth\[0\] \(bearer\) is applied to scheme BearerToken \(apiKey in header authorization\) of spec cluster as "authorization: Bearer <token>"/);
    assert.deepEqual(codes(report.warnings), ['credentials-to-spec-server'], 'every scheme is served; only where the credentials go is for the user to confirm');
  });

  it('warns when credentials would go to the spec\'s own first server because svc.yaml sets no baseUrl', async () => {
    const report = await check('auth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }\n  - { type: basic, username: ops, password: "${CLUSTER_PASSWORD}" }');
    const finding = report.warnings.find((w) => w.code === 'credentials-to-spec-server');
    assert.ok(finding, JSON.stringify(report.warnings));
    assert.match(finding.message, /^specs\[0\] \(cluster\) sets no baseUrl: its credentials go to https:\/\/[^ ]*cluster\.example\/api\/v1, the first server the spec names$/);
    assert.match(finding.hint ?? '', /specs\[0\]\.baseUrl: https:\/\//);
    // With a baseUrl, or with no credentials at all, there is nothing to confirm.
    const pinned = await check('baseUrl: https://eu.cluster.example/api/v1\nauth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }');
    assert.ok(!codes(pinned.warnings).includes('credentials-to-spec-server'));
    const bare = await check('writes: deny');
    assert.ok(!codes(bare.warnings).includes('credentials-to-spec-server'));
  });

  it('warns about an auth entry that serves none of the schemes, naming the schemes it could mean', async () => {
    const report = await check('auth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}", scheme: BearerToken }\n  - { type: apiKey, in: header, name: X-Key, value: "${CLUSTER_TOKEN}" }\n  - { type: oauth2, tokenUrl: https://auth.example/token, clientId: svc, clientSecret: "${CLUSTER_PASSWORD}" }');
    const finding = report.warnings.find((w) => w.code === 'auth-matches-no-scheme' && /auth\[2\]/.test(w.message));
    assert.ok(finding, JSON.stringify(report.warnings));
    assert.match(finding.message, /specs\[0\]\.auth\[2\] \(oauth2\) serves none of the security schemes of spec cluster/);
    assert.match(finding.hint ?? '', /BearerToken \(apiKey in header authorization\), operatorLogin \(http basic\)/);
    assert.equal(typeof finding.line, 'number');
    // An apiKey entry serves only a scheme with its own place and name (as invoke sends it): X-Key is not Authorization.
    assert.deepEqual(report.warnings.filter((w) => w.code === 'auth-matches-no-scheme').map((w) => /auth\[(\d)\]/.exec(w.message)?.[1]), ['1', '2']);
  });

  it('warns about a scheme: the spec does not have, with the closest name', async () => {
    const report = await check('auth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}", scheme: BearerTokn }');
    const finding = report.warnings.find((w) => w.code === 'auth-unknown-scheme');
    assert.ok(finding, JSON.stringify(report.warnings));
    assert.match(finding.message, /specs\[0\]\.auth\.scheme "BearerTokn" is not a security scheme of spec cluster/);
    assert.match(finding.hint ?? '', /did you mean "BearerToken"\?/);
  });

  it('warns about a scheme: whose kind the credential does not fit', async () => {
    const report = await check('auth:\n  - { type: basic, username: ops, password: "${CLUSTER_PASSWORD}", scheme: BearerToken }');
    const finding = report.warnings.find((w) => w.code === 'auth-scheme-mismatch');
    assert.ok(finding, JSON.stringify(report.warnings));
    assert.match(finding.hint ?? '', /\{ type: apiKey, in: header, name: authorization, value: \$\{CLUSTER_KEY\}, scheme: BearerToken \}/);
  });

  it('warns, per scheme, when endpoints need credentials that nothing configured serves', async () => {
    const report = await check('auth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }');
    const missing = report.warnings.filter((w) => w.code === 'credentials-missing');
    assert.equal(missing.length, 1, JSON.stringify(report.warnings));
    assert.match(missing[0]!.message, /^1 of 3 endpoints of spec cluster need credentials for operatorLogin \(http basic\)/);
    assert.match(missing[0]!.hint ?? '', /add to specs\[0\]\.auth: \{ type: basic, /);
    const none = await check('writes: deny');
    assert.deepEqual(codes(none.warnings).sort(), ['credentials-missing', 'credentials-missing'], 'public /healthz needs nothing; the other two each need a scheme');
  });

  it('warns about a baseUrl that no server matches, and says when only the path is off', async () => {
    const report = await check('baseUrl: https://eu.cluster.example/v1\nauth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }\n  - { type: basic, username: ops, password: "${CLUSTER_PASSWORD}" }');
    const finding = report.warnings.find((w) => w.code === 'base-url-unmatched');
    assert.ok(finding, JSON.stringify(report.warnings));
    assert.match(finding.message, /specs\[0\]\.baseUrl https:\/\/eu\.cluster\.example\/v1 matches none of the servers of spec cluster: https:\/\/\{region\}\.cluster\.example\/api\/v1, \/internal\/v1/);
    assert.match(finding.hint ?? '', /its path is \/v1, the servers' \/api\/v1, \/internal\/v1/);
    const proxy = await check('baseUrl: http://127.0.0.1:9999/other\nauth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }\n  - { type: basic, username: ops, password: "${CLUSTER_PASSWORD}" }');
    assert.deepEqual(codes(proxy.warnings), ['base-url-unmatched']);
    const otherHost = await check('baseUrl: http://127.0.0.1:9999/api/v1\nauth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }\n  - { type: basic, username: ops, password: "${CLUSTER_PASSWORD}" }');
    assert.match(otherHost.warnings[0]?.hint ?? '', /fine for a proxy or a local copy of the API/);
  });

  it('accepts every baseUrl a server template produces, and none with another base path', async () => {
    const auth = 'auth:\n  - { type: bearer, token: "${CLUSTER_TOKEN}" }\n  - { type: basic, username: ops, password: "${CLUSTER_PASSWORD}" }';
    const hosts = fc.constantFrom('https://eu.cluster.example', 'https://us.cluster.example', 'HTTPS://US.cluster.example', 'http://127.0.0.1:8443', 'http://localhost');
    await fc.assert(
      fc.asyncProperty(hosts, fc.boolean(), fc.constantFrom('', '/x', '/api/v2'), async (host, slash, other) => {
        const server = host.toLowerCase().includes('cluster.example') ? '/api/v1' : '/internal/v1';
        const good = await check(`baseUrl: ${host}${server}${slash ? '/' : ''}\n${auth}`);
        assert.deepEqual(codes(good.warnings), [], `${host}${server}`);
        const bad = await check(`baseUrl: ${host}${other}\n${auth}`);
        assert.deepEqual(codes(bad.warnings), ['base-url-unmatched'], `${host}${other}`);
      }),
      { numRuns: 12 },
    );
  });
});

describe('svc check on the example config', () => {
  it('finds nothing to say about svc.yaml.example once its token is set', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const stderr = new PassThrough().resume();
    const code = await runCli(['node', 'svc', 'check', '--json', '--config', join(import.meta.dirname, '..', '..', 'svc.yaml.example')], { stdout, stderr, env: { ...process.env, BOOKSHELF_TOKEN: 'x' } });
    assert.equal(code, 0);
    const [report] = (JSON.parse(out) as { specs: Report[] }).specs;
    assert.deepEqual(report!.warnings.filter((w) => w.code !== 'env-unset'), []);
    assert.deepEqual(report!.notes, []);
  });
});

describe('baseUrl matching on hostile server templates', () => {
  const spec = (urls: readonly string[]): ImportedSpec =>
    ({ name: 'h', servers: urls.map((url) => ({ url })), endpoints: [], securitySchemes: {} }) as unknown as ImportedSpec;
  const entry = (baseUrl: string): SpecConfig =>
    ({ name: 'h', path: '/h.yaml', collection: 'default', baseUrl, auth: [], headers: {}, serverVariables: {}, allowedOrigins: [], allowRefsFrom: [], allowRemoteRefs: false, writes: 'deny', timeoutMs: 1000, retries: 0 }) as SpecConfig;

  it('answers at once whatever the template holds (no backtracking on the spec\'s text)', () => {
    const base = `https://api.example/${'a'.repeat(300)}/${'b-'.repeat(400)}`;
    const hostile = [
      `{{x}}${'{a}'.repeat(150)}z`,
      `https://api.example/${'{a}-'.repeat(180)}z`,
      `${'{{v}}/'.repeat(150)}q`,
      `https://api.example${'/'.repeat(1500)}x`,
    ];
    const started = performance.now();
    const findings = configFindings(entry(base), 0, spec(hostile), '/svc.yaml');
    assert.ok(performance.now() - started < 2000, `took ${Math.round(performance.now() - started)} ms`);
    assert.ok(findings.warnings.length <= 1);
  });

  it('matches what a reference regular expression matches, on small generated templates', () => {
    const piece = fc.oneof(fc.constantFrom('a', 'b', '/', '-', '.'), fc.constant('{v}'), fc.constant('{{p}}'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.stringMatching(/^[ab/.-]{0,10}$/), (pieces, path) => {
        const template = `https://h.example/${pieces.join('')}`;
        const base = `https://h.example/${path}`;
        const reference = new RegExp(`^${template.replace(/\/+$/, '').replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\{p\}\}/g, '.+').replace(/\{v\}/g, '[^/]+')}$`, 'i');
        const target = new URL(base);
        const expected = reference.test(`${target.origin}${target.pathname}`.replace(/\/+$/, ''));
        const found = configFindings(entry(base), 0, spec([template]), '/svc.yaml').warnings.some((w) => w.code === 'base-url-unmatched');
        assert.equal(!found, expected, `${template} vs ${base}`);
      }),
      { numRuns: 300 },
    );
  });
});
