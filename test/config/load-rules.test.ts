// svc.yaml's rules key by key, each from both sides (what is taken, what is refused and the exact
// words of the refusal), on real files in one temp folder.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { collectionFromFolder, configFromFiles, loadConfig, parseConfig } from '../../src/config/index.ts';
import { safeName, NAME_PATTERN } from '../../src/config/names.ts';
import { closestKey } from '../../src/config/suggest.ts';
import { DEFAULTS, type Config, type SpecConfig } from '../../src/config/types.ts';
import type { ConfigProblem } from '../../src/model/errors.ts';
import { problemsOf, SPEC, tempProject, type TempProject } from './helpers.ts';

let project: TempProject;
let file: string;

before(async () => {
  project = await tempProject({
    'specs/pets.yaml': SPEC,
    'specs/store.yaml': SPEC,
    'specs/payments/stripe.yaml': SPEC,
    'specs/a/b/deep.yaml': SPEC,
    'other/pets.yaml': SPEC,
    'shared/common.yaml': SPEC,
  });
  file = join(project.dir, 'svc.yaml');
});
after(() => project.cleanup());

const config = (text: string): Promise<Config> => parseConfig(text, file);

async function problems(text: string): Promise<readonly ConfigProblem[]> {
  try {
    await config(text);
  } catch (error) {
    return problemsOf(error);
  }
  assert.fail(`expected problems for:\n${text}`);
}

async function onlyProblem(text: string): Promise<ConfigProblem> {
  const list = await problems(text);
  assert.equal(list.length, 1, JSON.stringify(list, null, 1));
  return list[0]!;
}

/** The one spec of `specs: [ { path: specs/pets.yaml, <extra> } ]`. */
async function spec(extra: string): Promise<SpecConfig> {
  const c = await config(`specs:\n  - path: specs/pets.yaml\n${extra}`);
  return c.specs[0]!;
}

describe('reading the file', () => {
  it('names a folder given as svc.yaml and any other read failure by its code', async () => {
    await assert.rejects(loadConfig(project.dir), (e: Error) => {
      assert.deepEqual(problemsOf(e), [{ key: '', message: 'is a folder, not a file; point --config at the svc.yaml inside it' }]);
      return true;
    });
    await assert.rejects(loadConfig(join(project.dir, 'specs/pets.yaml/svc.yaml')), (e: Error) => {
      assert.deepEqual(problemsOf(e), [{ key: '', message: 'cannot be read (ENOTDIR)' }]);
      return true;
    });
  });

  it('reports bad YAML with its line and the first line of the parser message, without its position', async () => {
    const p = await onlyProblem('specs:\n  - a\n  b: c\n');
    assert.equal(p.line, 3);
    assert.equal(p.key, '');
    assert.doesNotMatch(p.message, /at line \d+, column \d+/);
    assert.doesNotMatch(p.message, /\n/);
    assert.match(p.message, / \(not valid YAML; check indentation, quotes and colons\)$/);
    // Past line 9 and column 9 too (the position is cut whatever its digits).
    const deep = await onlyProblem(`${'# pad\n'.repeat(11)}specs:\n  - path: specs/pets.yaml\n    name: aaaaaaaaaaaa: b\n`);
    assert.deepEqual([deep.line, deep.message], [14, 'Nested mappings are not allowed in compact mappings (not valid YAML; check indentation, quotes and colons)']);
    const dup = await onlyProblem('specs: []\nspecs: []\n');
    assert.equal(dup.message, 'Map keys must be unique (not valid YAML; check indentation, quotes and colons)');
    assert.equal(dup.line, 2);
  });

  it('refuses an empty file, a missing or empty specs list, and a top level that is not a mapping', async () => {
    assert.deepEqual(await problems(''), [{ key: '', message: 'the file is empty; list your API descriptions under `specs:` (see svc.yaml.example)' }]);
    assert.deepEqual(await problems('socket: x.sock\n'), [
      { key: 'specs', line: 1, message: 'missing: list your API descriptions, e.g. `specs: [{ path: specs/petstore.yaml }]`' },
    ]);
    assert.deepEqual(await problems('specs: []\n'), [{ key: 'specs', line: 1, message: 'lists no specs; add at least one `- path: specs/<file>.yaml`' }]);
    assert.deepEqual(await problems('specs:\n'), [{ key: 'specs', line: 1, message: 'must be a list (lines starting with `- `), not empty' }]);
    assert.deepEqual(await problems('- specs/pets.yaml\n'), [{ key: '', line: 1, message: 'must be a mapping (key: value lines), not a list' }]);
    // An empty list after another problem adds no second complaint.
    const two = await problems('specsDir: 3\nspecs: []\n');
    assert.deepEqual(two.map((p) => p.key), ['specsDir']);
  });

  it('refuses endpoint-changing keys at the top level citing every spec', async () => {
    const p = await onlyProblem('paths: {}\nspecs: [specs/pets.yaml]\n');
    assert.match(p.message, /would add, remove, rename or modify the endpoints of every spec/);
    const s = await onlyProblem('specs:\n  - path: specs/pets.yaml\n    operations: []\n');
    assert.match(s.message, /would add, remove, rename or modify this spec's endpoints/);
    assert.equal(s.key, 'specs[0].operations');
  });

  it('sorts problems by line, those without a line first', async () => {
    const list = await problems('specs:\n  - path: specs/nope.yaml\n  - path: specs/pets.yaml\n    writes: maybe\n  - path: specs/pets.yaml\n');
    const lines = list.map((p) => p.line ?? 0);
    assert.deepEqual(lines, [...lines].sort((a, b) => a - b));
    assert.equal(list.length, 3);
  });
});

describe('top-level keys', () => {
  it('specsDir and socket resolve against the config folder; the default specsDir is specs', async () => {
    const c = await config('specsDir: apis\nsocket: run/ctl.sock\nspecs: [specs/pets.yaml]\n');
    assert.equal(c.specsDir, join(project.dir, 'apis'));
    assert.equal(c.socket, join(project.dir, 'run/ctl.sock'));
    assert.equal(c.specs[0]!.collection, 'default', 'outside specsDir: default collection');
    const d = await config('specs: [specs/pets.yaml]\n');
    assert.equal(d.specsDir, join(project.dir, 'specs'));
    assert.equal(Object.hasOwn(d, 'socket'), false);
    assert.equal((await onlyProblem('specsDir: [x]\nspecs: [specs/pets.yaml]\n')).message, 'must be a folder path, not a list');
    assert.equal((await onlyProblem('socket: 4\nspecs: [specs/pets.yaml]\n')).message, 'must be a file path, not the number 4');
  });

  it('an empty or broken serve or limits section leaves every default', async () => {
    for (const section of ['serve', 'limits']) {
      const c = await config(`${section}:\nspecs: [specs/pets.yaml]\n`);
      const d = await config('specs: [specs/pets.yaml]\n');
      assert.deepEqual(c.serve, d.serve);
      assert.deepEqual(c.limits, d.limits);
      const p = await onlyProblem(`${section}: 5\nspecs: [specs/pets.yaml]\n`);
      assert.equal(p.key, section);
    }
  });

  it('serve keys are read with their bounds', async () => {
    const c = await config('serve:\n  transport: sse\n  host: localhost\n  port: 0\n  maxBodyBytes: 2mb\n  maxSessions: 1\n  allowedOrigins: https://app.example\nspecs: [specs/pets.yaml]\n');
    // `sse` is the older name of the HTTP transport.
    assert.deepEqual(c.serve, { transport: 'http', host: 'localhost', port: 0, auth: 'token', allowedOrigins: ['https://app.example'], maxBodyBytes: 2 * 1024 ** 2, maxSessions: 1, sessionIdleMs: 1_800_000 });
    assert.equal((await onlyProblem('serve:\n  port: 65536\nspecs: [specs/pets.yaml]\n')).message, 'must be a whole number from 0 to 65535, not the number 65536');
    assert.equal((await onlyProblem('serve:\n  maxSessions: 0\nspecs: [specs/pets.yaml]\n')).message, 'must be a whole number from 1 to 100000, not the number 0');
    assert.equal((await onlyProblem('serve:\n  host: ""\nspecs: [specs/pets.yaml]\n')).message, 'must be a host name or IP address, not empty text');
    assert.equal((await onlyProblem('serve:\n  transport: https\nspecs: [specs/pets.yaml]\n')).message.startsWith('must be one of stdio, http'), true);
  });

  it('limits take sizes and fall back per key', async () => {
    const c = await config('limits:\n  maxSpecBytes: 1kb\n  maxImageBytes: 10\nspecs: [specs/pets.yaml]\n');
    assert.deepEqual(c.limits, { maxSpecBytes: 1024, maxResponseBytes: DEFAULTS.maxResponseBytes, maxImageBytes: 10 });
    const p = await onlyProblem('limits:\n  maxResponseBytes: lots\nspecs: [specs/pets.yaml]\n');
    assert.equal(p.key, 'limits.maxResponseBytes');
  });
});

describe('token rule for hosts other machines can reach', () => {
  const serve = (lines: string): Promise<Config> => config(`serve:\n${lines}specs: [specs/pets.yaml]\n`);

  it('loopback hosts need no token on any transport', async () => {
    for (const host of ['localhost', '::1', '"[::1]"', '127.0.0.1', '127.9.8.7']) {
      const c = await serve(`  transport: sse\n  host: ${host}\n`);
      assert.equal(c.serve.tokenEnv, undefined, host);
    }
  });

  it('any other host over HTTP refuses serve.auth: none, naming the host', async () => {
    for (const host of ['0.0.0.0', '10.0.0.1', '127.0.0.1.nip.io', 'localhost.example', '127.0.0', '127.0.0.1x', 'example.com', '"::"']) {
      const p = await onlyProblem(`serve:\n  transport: http\n  host: ${host}\n  auth: none\nspecs: [specs/pets.yaml]\n`);
      const bare = host.replaceAll('"', '');
      assert.equal(p.key, 'serve.auth');
      assert.match(p.message, new RegExp(`^serve\\.auth: none on ${bare.replaceAll('.', '\\.')}, which is reachable from other machines`));
      // stdio listens on nothing; with a token (the default) any host is fine.
      await serve(`  transport: stdio\n  host: ${host}\n`);
      assert.equal((await serve(`  transport: http\n  host: ${host}\n`)).serve.auth, 'token');
      assert.equal((await serve(`  transport: http\n  host: ${host}\n  tokenEnv: SVC_TOKEN\n`)).serve.tokenEnv, 'SVC_TOKEN');
    }
  });

  it('tokenEnv is a variable name, bare or as ${NAME}; anything else is refused once', async () => {
    assert.equal((await serve('  tokenEnv: " ${MY_TOKEN} "\n')).serve.tokenEnv, 'MY_TOKEN');
    for (const bad of ['"abc def"', '3', '"${}"', '"x${Y}"', '[A]']) {
      const list = await problems(`serve:\n  transport: sse\n  host: 10.0.0.1\n  tokenEnv: ${bad}\nspecs: [specs/pets.yaml]\n`);
      assert.equal(list.length, 1, `${bad}: ${JSON.stringify(list)}`);
      assert.equal(list[0]!.key, 'serve.tokenEnv');
      assert.equal(list[0]!.message, 'must be the NAME of an environment variable (letters, digits, `_`), e.g. SVC_TOKEN; the value itself never goes in svc.yaml');
    }
  });
});

describe('spec entries', () => {
  it('a shorthand entry is a path with every default and its line', async () => {
    const c = await config('\nspecs:\n  - specs/pets.yaml\n');
    assert.equal(c.specs[0]!.line, 3);
    assert.equal(c.specs[0]!.path, join(project.dir, 'specs/pets.yaml'));
    assert.deepEqual((await onlyProblem('specs:\n  - ""\n')).message, 'must be a file path, not empty text');
  });

  it('an entry without a path says so, and its other keys are still checked', async () => {
    const list = await problems('specs:\n  - name: x\n    writes: sometimes\n');
    assert.deepEqual(list.map((p) => [p.key, p.line, p.message]), [
      ['specs[0].path', 2, 'missing: the API description file of this spec'],
      ['specs[0].writes', 3, 'must be one of deny, allow, confirm, not `sometimes`'],
    ]);
    assert.equal((await onlyProblem('specs:\n  - path: 3\n')).message, 'must be a file path, not the number 3');
    assert.equal((await onlyProblem('specs:\n  - 3\n')).message, 'must be a mapping (key: value lines), not the number 3');
  });

  it('names and collections must fit endpoint ids; the refusal suggests a safe one', async () => {
    assert.equal((await spec('    name: Pets.v2_x-y\n    collection: zoo\n')).name, 'Pets.v2_x-y');
    const p = await onlyProblem('specs:\n  - path: specs/pets.yaml\n    name: "pet store:v2"\n');
    assert.equal(
      p.message,
      '`pet store:v2` cannot be a spec name: use 1-64 letters, digits, `.`, `_` or `-`, starting with a letter or digit ' +
        '(it becomes part of endpoint ids like `name:GET:/path`, so `:`, `/` and spaces are out); e.g. `pet-store-v2`',
    );
    assert.match((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    collection: "-x"\n')).message, /^`-x` cannot be a collection: /);
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    collection: 7\n')).message, 'must be a collection, not the number 7');
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    name: []\n')).message, 'must be a spec name, not a list');
  });

  it('refs: remote and allowFrom, resolved against the config folder; an empty refs keeps the defaults', async () => {
    const s = await spec('    refs:\n      remote: true\n      allowFrom: [shared, other]\n');
    assert.equal(s.allowRemoteRefs, true);
    assert.deepEqual(s.allowRefsFrom, [join(project.dir, 'shared'), join(project.dir, 'other')]);
    const one = await spec('    refs:\n      allowFrom: shared\n');
    assert.deepEqual([one.allowRemoteRefs, one.allowRefsFrom], [false, [join(project.dir, 'shared')]]);
    const empty = await spec('    refs:\n');
    assert.deepEqual([empty.allowRemoteRefs, empty.allowRefsFrom], [false, []]);
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    refs: yes please\n')).message, 'must be a mapping (key: value lines), not `yes please`');
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    refs: { remote: 1 }\n')).message, 'must be true or false, not the number 1');
    const missing = await onlyProblem('specs:\n  - path: specs/pets.yaml\n    refs: { allowFrom: [nowhere, specs/pets.yaml] }\n'.replace(', specs/pets.yaml', ''));
    assert.deepEqual([missing.key, missing.line, missing.message], ['specs[0].refs.allowFrom', 2, `${join(project.dir, 'nowhere')} is not a folder`]);
    const notFolder = await onlyProblem('specs:\n  - path: specs/pets.yaml\n    refs: { allowFrom: [specs/pets.yaml] }\n');
    assert.equal(notFolder.message, `${join(project.dir, 'specs/pets.yaml')} is not a folder`);
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    refs: { allowFrom: [""] }\n')).message, 'must be a folder path, not empty text');
  });

  it('baseUrl: http(s) only, no credentials, trailing slashes dropped', async () => {
    assert.equal((await spec('    baseUrl: https://api.example.com/v1///\n')).baseUrl, 'https://api.example.com/v1');
    assert.equal((await spec('    baseUrl: http://127.0.0.1:9\n')).baseUrl, 'http://127.0.0.1:9');
    assert.equal(Object.hasOwn(await spec(''), 'baseUrl'), false);
    for (const bad of ['ftp://x.example', 'not a url', 'file:///etc/passwd', 'javascript:alert(1)']) {
      assert.equal((await onlyProblem(`specs:\n  - path: specs/pets.yaml\n    baseUrl: "${bad}"\n`)).message, `\`${bad}\` is not an http(s) URL; write it like https://api.example.com/v1`);
    }
    for (const bad of ['https://user@x.example', 'https://:pw@x.example', 'https://u:p@x.example']) {
      assert.equal((await onlyProblem(`specs:\n  - path: specs/pets.yaml\n    baseUrl: "${bad}"\n`)).message, 'must not carry a user name or password; use `auth` with ${ENV_VAR} references');
    }
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    baseUrl: 80\n')).message, 'must be an http(s) URL, not the number 80');
  });

  it('serverVariables: text, numbers and booleans as text; anything else is refused', async () => {
    assert.deepEqual((await spec('    serverVariables: { region: eu, port: 8443, tls: true }\n')).serverVariables, { region: 'eu', port: '8443', tls: 'true' });
    assert.deepEqual((await spec('    serverVariables:\n')).serverVariables, {});
    const p = await onlyProblem('specs:\n  - path: specs/pets.yaml\n    serverVariables: { region: [eu] }\n');
    assert.deepEqual([p.key, p.message], ['specs[0].serverVariables.region', 'must be text']);
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    serverVariables: eu\n')).message, 'must be a mapping (key: value lines), not `eu`');
  });

  it('allowedOrigins: scheme, host and port only, normalized', async () => {
    assert.deepEqual((await spec('    allowedOrigins: [https://A.example:443, "http://b.example:8080/"]\n')).allowedOrigins, ['https://a.example', 'http://b.example:8080']);
    const list = await problems('specs:\n  - path: specs/pets.yaml\n    allowedOrigins: [ftp://x.example, https://x.example/v1, "https://x.example?q=1", "https://x.example#f", nope]\n');
    assert.deepEqual(list.map((p) => [p.key, p.message]), [
      ['specs[0].allowedOrigins[0]', '`ftp://x.example` is not an origin; write scheme, host and optional port, like https://api.example.com:8443'],
      ['specs[0].allowedOrigins[1]', '`https://x.example/v1` has a path; an origin is only scheme, host and port: https://x.example'],
      ['specs[0].allowedOrigins[2]', '`https://x.example?q=1` has a path; an origin is only scheme, host and port: https://x.example'],
      ['specs[0].allowedOrigins[3]', '`https://x.example#f` has a path; an origin is only scheme, host and port: https://x.example'],
      ['specs[0].allowedOrigins[4]', '`nope` is not an origin; write scheme, host and optional port, like https://api.example.com:8443'],
    ]);
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    allowedOrigins: {a: 1}\n')).key, 'specs[0].allowedOrigins');
  });

  it('writes, timeoutMs and retries take their values within bounds', async () => {
    const s = await spec('    writes: confirm\n    timeoutMs: 600000\n    retries: 10\n');
    assert.deepEqual([s.writes, s.timeoutMs, s.retries], ['confirm', 600_000, 10]);
    const z = await spec('    timeoutMs: 1\n    retries: 0\n');
    assert.deepEqual([z.timeoutMs, z.retries], [1, 0]);
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    timeoutMs: 600001\n')).message, 'must be a whole number from 1 to 600000, not the number 600001');
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    retries: 11\n')).message, 'must be a whole number from 0 to 10, not the number 11');
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    timeoutMs: 0\n')).message, 'must be a whole number from 1 to 600000, not the number 0');
  });
});

describe('headers', () => {
  it('plain headers take text or a reference; header names are checked', async () => {
    const s = await spec('    headers: { X-Team: core, X-Trace: "${TRACE}", X-Count: 3 }\n');
    assert.deepEqual(s.headers, { 'X-Team': 'core', 'X-Trace': { env: 'TRACE' }, 'X-Count': '3' });
    const p = await onlyProblem('specs:\n  - path: specs/pets.yaml\n    headers: { "X Bad": v }\n');
    assert.deepEqual([p.key, p.message], ['specs[0].headers.X Bad', '`X Bad` is not a valid HTTP header name']);
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    headers: { "Ok:": v }\n')).message, '`Ok:` is not a valid HTTP header name');
    assert.equal((await onlyProblem('specs:\n  - path: specs/pets.yaml\n    headers: [X]\n')).message, 'must be a mapping (key: value lines), not a list');
    assert.deepEqual((await spec('    headers:\n')).headers, {});
  });

  it('a header whose name says credential takes only a reference, and the literal is never shown', async () => {
    const names = ['Authorization', 'Cookie', 'X-Auth-Token', 'X-Secret', 'X-Api-Key', 'api_key', 'ApiKey', 'X-Password', 'Proxy-Credentials'];
    for (const name of names) {
      assert.deepEqual((await spec(`    headers: { ${name}: "\${V}" }\n`)).headers, { [name]: { env: 'V' } });
      const p = await onlyProblem(`specs:\n  - path: specs/pets.yaml\n    headers: { ${name}: hunter2value }\n`);
      assert.match(p.message, /^secrets are never written in svc\.yaml/, name);
      assert.equal(p.message.includes('hunter2value'), false);
    }
  });
});

describe('auth', () => {
  const auth = (lines: string): Promise<SpecConfig> => spec(`    auth:\n${lines}`);
  const authProblems = (lines: string): Promise<readonly ConfigProblem[]> => problems(`specs:\n  - path: specs/pets.yaml\n    auth:\n${lines}`);

  it('reads each type, with an optional scheme, as a mapping or a list', async () => {
    const s = await auth(
      '      - { type: bearer, token: "${T}", scheme: bearerAuth }\n' +
        '      - { type: basic, username: me, password: "${P}" }\n' +
        '      - { type: apiKey, name: X-Key, value: "${K}" }\n' +
        '      - { type: apiKey, in: query, name: key, value: "${K}" }\n' +
        '      - { type: oauth2, tokenUrl: "https://auth.example/token", clientId: "${ID}", clientSecret: "${S}" }\n' +
        '      - { type: oauth2, tokenUrl: "https://auth.example/token", clientId: app, clientSecret: "${S}", scopes: [read, write] }\n',
    );
    assert.deepEqual(s.auth, [
      { type: 'bearer', token: { env: 'T' }, scheme: 'bearerAuth' },
      { type: 'basic', username: 'me', password: { env: 'P' } },
      { type: 'apiKey', in: 'header', name: 'X-Key', value: { env: 'K' } },
      { type: 'apiKey', in: 'query', name: 'key', value: { env: 'K' } },
      { type: 'oauth2', tokenUrl: 'https://auth.example/token', clientId: { env: 'ID' }, clientSecret: { env: 'S' }, scopes: [] },
      { type: 'oauth2', tokenUrl: 'https://auth.example/token', clientId: 'app', clientSecret: { env: 'S' }, scopes: ['read', 'write'] },
    ]);
    assert.deepEqual((await auth('      type: bearer\n      token: "${T}"\n')).auth, [{ type: 'bearer', token: { env: 'T' } }]);
    assert.deepEqual((await auth('')).auth, []);
  });

  it('names what is missing or wrong, per type, and drops an incomplete credential', async () => {
    assert.deepEqual((await authProblems('      - { token: "${T}" }\n')).map((p) => [p.key, p.message]), [['specs[0].auth[0].type', 'missing: one of bearer, basic, apiKey, oauth2']]);
    assert.deepEqual((await authProblems('      - { type: digest }\n')).map((p) => p.message), ['must be one of bearer, basic, apiKey, oauth2, not `digest`']);
    assert.deepEqual((await authProblems('      - { type: bearer }\n')).map((p) => [p.key, p.message]), [['specs[0].auth[0].token', 'missing (required for bearer auth)']]);
    assert.deepEqual((await authProblems('      - { type: basic, username: me }\n')).map((p) => [p.key, p.message]), [['specs[0].auth[0].password', 'missing (required for basic auth)']]);
    assert.deepEqual((await authProblems('      - { type: basic, password: "${P}" }\n')).map((p) => p.key), ['specs[0].auth[0].username']);
    assert.deepEqual((await authProblems('      - { type: apiKey, value: "${K}" }\n')).map((p) => p.key), ['specs[0].auth[0].name']);
    assert.deepEqual((await authProblems('      - { type: apiKey, name: k }\n')).map((p) => p.key), ['specs[0].auth[0].value']);
    assert.deepEqual((await authProblems('      - { type: apiKey, in: body, name: k, value: "${K}" }\n')).map((p) => p.message), ['must be one of header, query, cookie, not `body`']);
    assert.deepEqual((await authProblems('      - { type: apiKey, name: "", value: "${K}" }\n')).map((p) => p.message), ['must be the header, query or cookie name, not empty text']);
    assert.deepEqual(
      (await authProblems('      - { type: oauth2 }\n')).map((p) => p.key),
      ['specs[0].auth[0].tokenUrl', 'specs[0].auth[0].clientId', 'specs[0].auth[0].clientSecret'],
    );
    assert.deepEqual((await authProblems('      - { type: oauth2, tokenUrl: "ftp://x", clientId: a, clientSecret: "${S}" }\n')).map((p) => p.key), ['specs[0].auth[0].tokenUrl']);
    assert.deepEqual((await authProblems('      - { type: oauth2, tokenUrl: "https://x.example", clientId: [a], clientSecret: "${S}" }\n')).map((p) => p.key), ['specs[0].auth[0].clientId']);
    assert.deepEqual((await authProblems('      - { type: oauth2, tokenUrl: "https://x.example", clientId: a, clientSecret: "${S}", scopes: [""] }\n')).map((p) => p.message), ['must be a scope, not empty text']);
    assert.deepEqual((await authProblems('      - { type: bearer, token: "${T}", scheme: "" }\n')).map((p) => p.message), ['must be the name of a security scheme in the spec, not empty text']);
    assert.deepEqual((await authProblems('      - { type: bearer, token: "${T}", name: x }\n')).map((p) => p.key), ['specs[0].auth[0].name']);
    assert.deepEqual((await authProblems('      - 5\n')).map((p) => p.message), ['must be a mapping (key: value lines), not the number 5']);
    assert.deepEqual((await authProblems('      bearer\n')).map((p) => p.message), ['must be a list (lines starting with `- `), not `bearer`']);
  });
});

describe('names, collections and duplicates', () => {
  it('the collection is the first sub-folder of specsDir, else default', async () => {
    const c = await config('specs:\n  - specs/pets.yaml\n  - specs/payments/stripe.yaml\n  - specs/a/b/deep.yaml\n  - { path: other/pets.yaml, name: other }\n');
    assert.deepEqual(c.specs.map((s) => s.collection), ['default', 'payments', 'a', 'default']);
    assert.equal(collectionFromFolder(join(project.dir, 'specs'), join(project.dir, 'specs')), 'default');
    assert.equal(collectionFromFolder('/elsewhere/x.yaml', join(project.dir, 'specs')), 'default');
    assert.equal(collectionFromFolder(join(project.dir, 'specs/My Team/x.yaml'), join(project.dir, 'specs')), 'my-team');
    assert.equal(collectionFromFolder(join(project.dir, 'specs/..x/y.yaml'), join(project.dir, 'specs')), 'default');
  });

  it('a duplicate name names the first entry by path and line', async () => {
    const p = await onlyProblem('specs:\n  - specs/pets.yaml\n  - other/pets.yaml\n');
    assert.deepEqual([p.key, p.line], ['specs[1]', 3]);
    assert.equal(p.message, 'spec name `pets` is already used by specs/pets.yaml (line 2); names must be unique: give one of them a different `name:`');
  });

  it('a duplicate whose first entry is outside the config folder names it by its absolute path', async () => {
    const outside = await tempProject({ 'pets.yaml': SPEC });
    try {
      const first = join(outside.dir, 'pets.yaml');
      const p = await onlyProblem(`specs:\n  - ${first}\n  - specs/pets.yaml\n`);
      assert.equal(p.message, `spec name \`pets\` is already used by ${first} (line 2); names must be unique: give one of them a different \`name:\``);
      const c = await configFromFiles([first, 'specs/pets.yaml'], project.dir);
      assert.deepEqual(c.specs.map((s) => s.name), ['pets', 'pets-2']);
    } finally {
      await outside.cleanup();
    }
  });

  it('a missing file and a folder are named with the line of their path', async () => {
    const list = await problems('specs:\n  - path: specs/none.yaml\n  - path: specs/payments\n    name: pay\n');
    assert.deepEqual(list.map((p) => [p.key, p.line, p.message]), [
      ['specs[0].path', 2, `${join(project.dir, 'specs/none.yaml')} does not exist; fix the path (relative paths start at svc.yaml's folder)`],
      ['specs[1].path', 3, `${join(project.dir, 'specs/payments')} is not a file; list each API description file on its own`],
    ]);
  });

  it('configFromFiles numbers clashing stems -2, -3 and resolves against the working folder', async () => {
    const c = await configFromFiles(['specs/pets.yaml', 'other/pets.yaml', 'specs/pets.yaml'], project.dir);
    assert.deepEqual(c.specs.map((s) => s.name), ['pets', 'pets-2', 'pets-3']);
    assert.equal(c.file, join(project.dir, 'svc.yaml'));
    assert.equal(c.specsDir, join(project.dir, 'specs'));
    assert.deepEqual(c.specs.map((s) => s.collection), ['default', 'default', 'default']);
    await assert.rejects(configFromFiles(['nope.yaml'], project.dir), (e: Error) => {
      assert.deepEqual(problemsOf(e), [{ key: 'argument 1 (nope.yaml)', message: `${join(project.dir, 'nope.yaml')} does not exist; fix the path (relative paths start at the working folder)` }]);
      assert.match(e.message, /^command line: 1 problem in the config/);
      return true;
    });
  });
});

describe('names and suggestions', () => {
  it('safeName makes any text a valid name, and leaves a valid lower-case name alone', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        const name = safeName(text);
        assert.match(name, /^[a-z0-9]([a-z0-9_-]{0,62}[a-z0-9])?$/);
        assert.ok(NAME_PATTERN.test(name));
        assert.equal(safeName(name), name);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]([a-z0-9]|[_-][a-z0-9]){0,30}$/), (name) => {
        assert.equal(safeName(name), name);
      }),
    );
    assert.equal(safeName('Pet Store!!v2'), 'pet-store-v2');
    assert.equal(safeName('__x__'), 'x');
    assert.equal(safeName('%%%'), 'spec');
    assert.equal(safeName(`${'a'.repeat(63)}_b`), 'a'.repeat(63));
  });

  it('closestKey: the same key in another case or with separators, a close typo, a prefix, or nothing', () => {
    const known = ['maxSpecBytes', 'maxResponseBytes', 'timeoutMs', 'tokenEnv'];
    assert.equal(closestKey('MAX_SPEC_BYTES', known), 'maxSpecBytes');
    assert.equal(closestKey('max-response-bytes', known), 'maxResponseBytes');
    assert.equal(closestKey('timeout', known), 'timeoutMs');
    assert.equal(closestKey('tokenEnvironment', ['tokenEnv', 'tokenEnvironmentX']), 'tokenEnvironmentX');
    assert.equal(closestKey('tokenenv', known), 'tokenEnv');
    assert.equal(closestKey('zzz', known), undefined);
    // Among equally close keys the first wins; a prefix relation beats an equal distance.
    assert.equal(closestKey('ab', ['ax', 'ay']), 'ax');
    assert.equal(closestKey('abcd', ['abxy', 'abcdxy']), 'abcdxy');
    assert.equal(closestKey('abcdxy', ['xycdxy', 'abcd']), 'abcd');
    // The allowance grows with the key's length: a third of it, at least 2.
    assert.equal(closestKey('abcdefghi', ['abcxyzghi']), 'abcxyzghi');
    assert.equal(closestKey('abcdefghi', ['abwxyzghi']), undefined);
    assert.equal(closestKey('ab', ['xy']), 'xy');
    assert.equal(closestKey('abc', ['xyz']), undefined);
  });
});
