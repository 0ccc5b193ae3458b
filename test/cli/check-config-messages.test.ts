// `svc check`'s config-against-spec findings word for word (src/cli/check-config.ts configFindings):
// a spec with six kinds of security scheme and six servers, read by the real importer, against
// svc.yaml entries read by the real config loader. The hint of each finding is the svc.yaml entry
// that would serve the scheme (basic, apiKey, oauth2 with a token URL, a bearer token for the rest),
// named after the spec (`my--api.v2` -> `${MY_API_V2_...}`); lists stop at five names ("and 1 more").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configFindings } from '../../src/cli/check-config.ts';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

const schemes = `components:
  securitySchemes:
    basicAuth: { type: http, scheme: Basic }
    key: { type: apiKey, in: query, name: api_key }
    oauth: { type: oauth2, flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: {} } } }
    implicit: { type: oauth2, flows: { implicit: { authorizationUrl: 'https://auth.example/auth', scopes: {} } } }
    oidc: { type: openIdConnect, openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration' }
    bearer: { type: http, scheme: bearer }
paths:
  /a: { get: { security: [{ basicAuth: [] }], responses: { '200': { description: ok } } } }
  /b: { get: { security: [{ key: [] }], responses: { '200': { description: ok } } } }
  /c: { get: { security: [{ oauth: [] }], responses: { '200': { description: ok } } } }
  /d: { get: { security: [{ implicit: [] }], responses: { '200': { description: ok } } } }
  /e: { get: { security: [{ oidc: [] }], responses: { '200': { description: ok } } } }
  /f: { get: { security: [{ bearer: [] }], responses: { '200': { description: ok } } } }
  /g: { get: { security: [{ bearer: [] }], responses: { '200': { description: ok } } } }
`;
const servers = (n: number) => `servers:\n${'abcdef'.slice(0, n).split('').map((c) => `  - url: https://${c}.example/v1\n`).join('')}`;
const NAME = 'my--api.v2';

const MISSING = (count: number, of: string, hint: string) => ({
  code: 'credentials-missing',
  message: `${count} of 7 endpoints of spec ${NAME} need credentials for ${of}, and svc.yaml configures none that serves it; invoke calls them without credentials`,
  hint: `add to specs[0].auth: ${hint}`,
});
const BASIC = '{ type: basic, username: ${MY_API_V2_USER}, password: ${MY_API_V2_PASSWORD}, scheme: basicAuth }';
const KEY = '{ type: apiKey, in: query, name: api_key, value: ${MY_API_V2_KEY}, scheme: key }';
const OAUTH = '{ type: oauth2, tokenUrl: https://auth.example/token, clientId: ${MY_API_V2_CLIENT_ID}, clientSecret: ${MY_API_V2_CLIENT_SECRET}, scheme: oauth }';
const bearer = (scheme: string) => `{ type: bearer, token: \${MY_API_V2_TOKEN}, scheme: ${scheme} }`;
const ALL_MISSING = [
  MISSING(1, 'basicAuth (http basic)', BASIC),
  MISSING(1, 'key (apiKey in query api_key)', KEY),
  MISSING(1, 'oauth (oauth2)', OAUTH),
  MISSING(1, 'implicit (oauth2)', bearer('implicit')),
  MISSING(1, 'oidc (openIdConnect)', bearer('oidc')),
  MISSING(2, 'bearer (http bearer)', bearer('bearer')),
];
const SCHEMES_LISTED = "basicAuth (http basic), key (apiKey in query api_key), oauth (oauth2), implicit (oauth2), oidc (openIdConnect) and 1 more";
const TO_SERVER = {
  code: 'credentials-to-spec-server',
  message: `specs[0] (${NAME}) sets no baseUrl: its credentials go to https://a.example/v1, the first server the spec names`,
  hint: 'if that is the API you trust with them, say so: specs[0].baseUrl: https://a.example/v1',
};

describe('svc check findings, word for word', () => {
  let dir: string;
  const specs: Record<string, ImportedSpec> = {};
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-check-words-'));
    process.env['SVC_TEST_WORDS_TOKEN'] = 'a-long-token-value';
    const texts: Record<string, string> = {
      six: `openapi: 3.0.3\ninfo: { title: Many, version: '1' }\n${servers(6)}${schemes}`,
      five: `openapi: 3.0.3\ninfo: { title: Many, version: '1' }\n${servers(5)}${schemes}`,
      open: `openapi: 3.0.3\ninfo: { title: Open, version: '1' }\n${servers(1)}paths:\n  /a: { get: { responses: { '200': { description: ok } } } }\n  /b: { get: { security: [], responses: { '200': { description: ok } } } }\n`,
      mapped: `openapi: 3.0.3\ninfo: { title: Mapped, version: '1' }\n${servers(1)}components:\n  securitySchemes:\n    tok: { type: apiKey, in: header, name: Authorization }\nsecurity: [{ tok: [] }]\npaths:\n  /a: { get: { responses: { '200': { description: ok } } } }\n`,
      ghost: `openapi: 3.0.3\ninfo: { title: Ghost, version: '1' }\n${servers(1)}security: [{ ghost: [] }]\npaths:\n  /a: { get: { responses: { '200': { description: ok } } } }\n`,
    };
    for (const [name, text] of Object.entries(texts)) {
      writeFileSync(join(dir, `${name}.yaml`), text);
      const outcome = await importSpec(join(dir, `${name}.yaml`), { name: NAME, collection: 'default' });
      assert.ok(outcome.ok);
      specs[name] = outcome.spec;
    }
  });
  after(() => {
    delete process.env['SVC_TEST_WORDS_TOKEN'];
    rmSync(dir, { recursive: true, force: true });
  });

  /** The findings for svc.yaml entry lines (indented under the spec) against one of the specs. */
  async function findings(spec: string, entry: string) {
    const file = join(dir, 'svc.yaml');
    const config = await parseConfig(`specs:\n  - path: ${spec}.yaml\n    name: ${NAME}\n${entry.split('\n').filter(Boolean).map((l) => `    ${l}`).join('\n')}\n`, file);
    const found = configFindings(config.specs[0]!, 0, specs[spec]!, file);
    for (const w of found.warnings) assert.deepEqual([w.severity, w.file, w.line], ['warning', file, 2]);
    return { warnings: found.warnings.map(({ code, message, hint }) => ({ code, message, hint })), notes: found.notes };
  }

  it('with no credentials: each scheme endpoints need, five at most, with the entry that serves it', async () => {
    assert.deepEqual(await findings('six', ''), { warnings: ALL_MISSING.slice(0, 5), notes: [] });
  });

  it('a scheme: the spec lacks, with the closest name or without; the schemes listed five at most', async () => {
    const close = await findings('six', 'auth: { type: bearer, token: "${SVC_TEST_WORDS_TOKEN}", scheme: basicAut }');
    const unknown = (scheme: string, hint: string) => ({ code: 'auth-unknown-scheme', message: `specs[0].auth.scheme "${scheme}" is not a security scheme of spec ${NAME}, so this credential is never sent`, hint });
    assert.deepEqual(close.warnings, [unknown('basicAut', `did you mean "basicAuth"? the spec's schemes: ${SCHEMES_LISTED}`), ...ALL_MISSING.slice(0, 5), TO_SERVER]);
    const far = await findings('six', 'auth: { type: bearer, token: "${SVC_TEST_WORDS_TOKEN}", scheme: zzzzzzzzzzzz }');
    assert.deepEqual(far.warnings[0], unknown('zzzzzzzzzzzz', `the spec's schemes: ${SCHEMES_LISTED}`));
    const none = await findings('open', 'auth: { type: bearer, token: "${SVC_TEST_WORDS_TOKEN}", scheme: api }');
    assert.deepEqual(none.warnings[0], unknown('api', 'the spec declares no security schemes: remove specs[0].auth.scheme and the credential is sent with every request'));
  });

  it('a credential of another kind than its scheme, and one that serves no scheme, each with the entry to write', async () => {
    const found = await findings('six', 'auth:\n  - { type: bearer, token: "${SVC_TEST_WORDS_TOKEN}", scheme: key }\n  - { type: apiKey, in: header, name: X-Other, value: "${SVC_TEST_WORDS_TOKEN}" }');
    assert.deepEqual(found.warnings, [
      { code: 'auth-scheme-mismatch', message: `specs[0].auth[0] is a bearer credential, but scheme key (apiKey in query api_key) of spec ${NAME} takes another kind`, hint: `write it as ${KEY}` },
      {
        code: 'auth-matches-no-scheme',
        message: `specs[0].auth[1] (apiKey) serves none of the security schemes of spec ${NAME}, so invoke never sends it to the endpoints that declare their security`,
        hint: `the spec's schemes: ${SCHEMES_LISTED}; for basicAuth write ${BASIC}`,
      },
      ...ALL_MISSING.filter((m) => !m.message.includes('for key ')).slice(0, 5),
      TO_SERVER,
    ]);
    // A spec whose endpoints declare no security: a credential that serves no scheme is no finding.
    assert.deepEqual((await findings('open', 'auth: { type: apiKey, in: header, name: X-Other, value: "${SVC_TEST_WORDS_TOKEN}" }')).warnings.map((w) => w.code), ['credentials-to-spec-server']);
  });

  it('a bearer token applied to an apiKey scheme in the Authorization header, said as a note with the key to add', async () => {
    const found = await findings('mapped', 'baseUrl: https://a.example/v1\nauth: { type: bearer, token: "${SVC_TEST_WORDS_TOKEN}" }');
    assert.deepEqual(found.warnings, []);
    assert.deepEqual(found.notes.map(({ code, message, hint }) => ({ code, message, hint })), [
      { code: 'auth-mapped', message: `specs[0].auth (bearer) is applied to scheme tok (apiKey in header Authorization) of spec ${NAME} as "Authorization: Bearer <token>"`, hint: 'to say so in svc.yaml, add scheme: tok' },
    ]);
  });

  it('credentials in parameters: alone go to the first server too; a scheme the endpoints name but the spec lacks has no entry to suggest', async () => {
    assert.deepEqual((await findings('open', 'parameters: { token: "${SVC_TEST_WORDS_TOKEN}" }')).warnings, [TO_SERVER]);
    const ghost = await findings('ghost', 'baseUrl: https://a.example/v1\nauth: { type: apiKey, in: header, name: X-Key, value: "${SVC_TEST_WORDS_TOKEN}" }');
    assert.deepEqual(ghost.warnings.find((w) => w.code === 'auth-matches-no-scheme')?.hint, "the spec's schemes: ; the spec declares no schemes");
  });

  it('a baseUrl no server matches, the servers listed five at most, and the base paths in the hint', async () => {
    const hint = "invoke appends each endpoint's path to the baseUrl; its path is /v2, the servers' /v1: use the servers' base path if the API serves it there";
    const six = await findings('six', 'baseUrl: https://z.example/v2\nauth: { type: basic, username: u, password: "${SVC_TEST_WORDS_TOKEN}" }');
    assert.deepEqual(six.warnings.at(-1), {
      code: 'base-url-unmatched',
      message: `specs[0].baseUrl https://z.example/v2 matches none of the servers of spec ${NAME}: https://a.example/v1, https://b.example/v1, https://c.example/v1, https://d.example/v1, https://e.example/v1 and 1 more`,
      hint,
    });
    assert.deepEqual(six.warnings.slice(0, -1), ALL_MISSING.slice(1, 6));
    const five = await findings('five', 'baseUrl: https://z.example/v2/\nauth: { type: basic, username: u, password: "${SVC_TEST_WORDS_TOKEN}" }');
    assert.deepEqual(five.warnings.at(-1), {
      code: 'base-url-unmatched',
      message: `specs[0].baseUrl https://z.example/v2 matches none of the servers of spec ${NAME}: https://a.example/v1, https://b.example/v1, https://c.example/v1, https://d.example/v1, https://e.example/v1`,
      hint,
    });
    const root = await findings('open', 'baseUrl: https://z.example/\nauth: { type: basic, username: u, password: "${SVC_TEST_WORDS_TOKEN}" }');
    assert.equal(root.warnings.at(-1)?.hint, "invoke appends each endpoint's path to the baseUrl; its path is /, the servers' /v1: use the servers' base path if the API serves it there");
  });
});
