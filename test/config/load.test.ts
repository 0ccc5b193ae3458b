import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configFromFiles, loadConfig, parseConfig } from '../../src/config/index.ts';
import { ConfigError, type ConfigProblem } from '../../src/model/errors.ts';
import { DEFAULTS } from '../../src/config/types.ts';
import { problemsOf, SPEC, tempProject } from './helpers.ts';

/** Loads `yaml` as svc.yaml beside the given spec files and returns the problems it raises. */
async function problems(yaml: string, files: Record<string, string> = { 'specs/pets.yaml': SPEC }): Promise<readonly ConfigProblem[]> {
  const project = await tempProject({ ...files, 'svc.yaml': yaml });
  try {
    await loadConfig(project.config);
  } catch (error) {
    return problemsOf(error);
  } finally {
    await project.cleanup();
  }
  assert.fail('expected a ConfigError');
}

/** Loads `yaml` as svc.yaml beside the spec file; it must be valid. */
async function load(yaml: string): Promise<Awaited<ReturnType<typeof loadConfig>>> {
  const project = await tempProject({ 'specs/pets.yaml': SPEC, 'svc.yaml': yaml });
  try {
    return await loadConfig(project.config);
  } finally {
    await project.cleanup();
  }
}

function only(list: readonly ConfigProblem[]): ConfigProblem {
  assert.equal(list.length, 1, `expected one problem, got: ${JSON.stringify(list, null, 1)}`);
  return list[0]!;
}

describe('loadConfig defaults', () => {
  it('fills every default for a one-line spec entry', async () => {
    const project = await tempProject({ 'specs/pets.yaml': SPEC, 'svc.yaml': 'specs:\n  - specs/pets.yaml\n' });
    try {
      const config = await loadConfig(project.config);
      assert.equal(config.file, project.config);
      assert.equal(config.dir, project.dir);
      assert.equal(config.specsDir, join(project.dir, 'specs'));
      assert.equal(config.socket, undefined);
      assert.deepEqual(config.serve, {
        transport: 'stdio',
        host: DEFAULTS.host,
        port: DEFAULTS.port,
        allowedOrigins: [],
        maxBodyBytes: DEFAULTS.maxBodyBytes,
        maxSessions: DEFAULTS.maxSessions,
        sessionIdleMs: DEFAULTS.sessionIdleMs,
        auth: 'token',
      });
      assert.deepEqual(config.limits, {
        maxSpecBytes: DEFAULTS.maxSpecBytes,
        maxResponseBytes: DEFAULTS.maxResponseBytes,
        maxImageBytes: DEFAULTS.maxImageBytes,
      });
      assert.deepEqual(config.specs, [
        {
          path: join(project.dir, 'specs/pets.yaml'),
          name: 'pets',
          collection: 'default',
          allowRemoteRefs: false,
          allowRefsFrom: [],
          serverVariables: {},
          allowedOrigins: [],
          writes: 'deny',
          auth: [],
          headers: {},
          parameters: {},
          timeoutMs: DEFAULTS.timeoutMs,
          retries: DEFAULTS.retries,
          line: 2,
        },
      ]);
    } finally {
      await project.cleanup();
    }
  });

  it('reads every key of a full entry and resolves paths against the config folder', async () => {
    const project = await tempProject({
      'conf/apis/payments/Stripe API.v2.json': '{}',
      'conf/shared/common.yaml': 'x: 1\n',
      'conf/svc.yaml': `
specsDir: apis
socket: run/svc.sock
serve: { transport: sse, host: 0.0.0.0, port: 0, tokenEnv: SVC_TOKEN, allowedOrigins: [https://app.example.com/], maxBodyBytes: 1mb, maxSessions: 10, sessionIdleMs: 60000 }
limits: { maxSpecBytes: 10MB, maxResponseBytes: 512kb, maxImageBytes: 2048 }
specs:
  - path: apis/payments/Stripe API.v2.json
    refs: { remote: true, allowFrom: [shared] }
    baseUrl: https://api.example.com/v2/
    serverVariables: { region: eu, version: 2 }
    allowedOrigins: [https://files.example.com]
    writes: confirm
    auth:
      - { type: bearer, token: "\${PAY_TOKEN}", scheme: bearer }
      - { type: basic, username: me, password: "\${PAY_PASS}" }
      - { type: apiKey, in: query, name: key, value: "\${PAY_KEY}" }
      - { type: oauth2, tokenUrl: https://auth.example.com/token, clientId: "\${PAY_ID}", clientSecret: "\${PAY_SECRET}", scopes: [read, write] }
    headers: { User-Agent: svc-test, X-Api-Key: "\${PAY_KEY}" }
    timeoutMs: 5000
    retries: 0
  - path: apis/payments/Stripe API.v2.json
    name: stripe-eu
    collection: europe
`,
    });
    try {
      const config = await loadConfig(join(project.dir, 'conf/svc.yaml'));
      const conf = join(project.dir, 'conf');
      assert.equal(config.specsDir, join(conf, 'apis'));
      assert.equal(config.socket, join(conf, 'run/svc.sock'));
      assert.deepEqual(config.serve, {
        transport: 'http',
        host: '0.0.0.0',
        port: 0,
        auth: 'token',
        tokenEnv: 'SVC_TOKEN',
        allowedOrigins: ['https://app.example.com'],
        maxBodyBytes: 1024 * 1024,
        maxSessions: 10,
        sessionIdleMs: 60_000,
      });
      assert.deepEqual(config.limits, { maxSpecBytes: 10 * 1024 * 1024, maxResponseBytes: 512 * 1024, maxImageBytes: 2048 });
      const [first, second] = config.specs;
      assert.equal(first!.name, 'stripe-api-v2');
      assert.equal(first!.collection, 'payments');
      assert.equal(first!.allowRemoteRefs, true);
      assert.deepEqual(first!.allowRefsFrom, [join(conf, 'shared')]);
      assert.equal(first!.baseUrl, 'https://api.example.com/v2');
      assert.deepEqual(first!.serverVariables, { region: 'eu', version: '2' });
      assert.deepEqual(first!.allowedOrigins, ['https://files.example.com']);
      assert.equal(first!.writes, 'confirm');
      assert.deepEqual(first!.auth, [
        { type: 'bearer', token: { env: 'PAY_TOKEN' }, scheme: 'bearer' },
        { type: 'basic', username: 'me', password: { env: 'PAY_PASS' } },
        { type: 'apiKey', in: 'query', name: 'key', value: { env: 'PAY_KEY' } },
        {
          type: 'oauth2',
          tokenUrl: 'https://auth.example.com/token',
          clientId: { env: 'PAY_ID' },
          clientSecret: { env: 'PAY_SECRET' },
          scopes: ['read', 'write'],
        },
      ]);
      assert.deepEqual(first!.headers, { 'User-Agent': 'svc-test', 'X-Api-Key': { env: 'PAY_KEY' } });
      assert.equal(first!.timeoutMs, 5000);
      assert.equal(first!.retries, 0);
      assert.equal(second!.name, 'stripe-eu');
      assert.equal(second!.collection, 'europe');
    } finally {
      await project.cleanup();
    }
  });

  it('accepts a single auth mapping as a list of one and apiKey in header by default', async () => {
    const project = await tempProject({
      'pets.yaml': SPEC,
      'svc.yaml': 'specs:\n  - path: pets.yaml\n    auth: { type: apiKey, name: X-Key, value: "${K}" }\n',
    });
    try {
      const config = await loadConfig(project.config);
      assert.deepEqual(config.specs[0]!.auth, [{ type: 'apiKey', in: 'header', name: 'X-Key', value: { env: 'K' } }]);
      assert.equal(config.specs[0]!.collection, 'default', 'a file outside specsDir falls in `default`');
    } finally {
      await project.cleanup();
    }
  });
});

describe('loadConfig problems', () => {
  it('names an unknown key with its line and the closest known key', async () => {
    const p = only(await problems('specs:\n  - path: specs/pets.yaml\n    timeout: 5\n'));
    assert.equal(p.key, 'specs[0].timeout');
    assert.equal(p.line, 3);
    assert.match(p.message, /unknown key `timeout`; did you mean `timeoutMs`\?/);
  });

  it('suggests close spellings at the top level and inside serve', async () => {
    const list = await problems('spec:\n  - specs/pets.yaml\nserve:\n  prot: 1\n');
    const top = list.find((p) => p.key === 'spec');
    assert.match(top?.message ?? '', /did you mean `specs`\?/);
    assert.equal(top?.line, 1);
    const serve = list.find((p) => p.key === 'serve.prot');
    assert.match(serve?.message ?? '', /did you mean `port`\?/);
    assert.equal(serve?.line, 4);
  });

  it('lists the known keys when nothing is close', async () => {
    const p = only(await problems('specs: [specs/pets.yaml]\nlimits: { zzzzzzzz: 1 }\n'));
    assert.match(p.message, /known keys: maxSpecBytes, maxResponseBytes, maxImageBytes/);
  });

  it('refuses a literal secret without echoing it', async () => {
    const list = await problems(
      'specs:\n  - path: specs/pets.yaml\n    auth: { type: bearer, token: sk_live_12345 }\n    headers: { Authorization: Basic dXNlcjpwYXNz }\n',
    );
    assert.equal(list.length, 2);
    for (const p of list) {
      assert.match(p.message, /secrets are never written in svc\.yaml: write an environment variable reference like \$\{/);
      assert.doesNotMatch(p.message, /sk_live_12345|dXNlcjpwYXNz/);
      assert.equal(p.line, p.key.endsWith('token') ? 3 : 4);
    }
    assert.deepEqual(list.map((p) => p.key).sort(), ['specs[0].auth.token', 'specs[0].headers.Authorization']);
  });

  it('refuses literal passwords, api key values and client secrets', async () => {
    const list = await problems(`specs:
  - path: specs/pets.yaml
    auth:
      - { type: basic, username: u, password: hunter2 }
      - { type: apiKey, name: k, value: abc }
      - { type: oauth2, tokenUrl: https://a.example/t, clientId: c, clientSecret: shh }
`);
    assert.deepEqual(
      list.map((p) => p.key),
      ['specs[0].auth[0].password', 'specs[0].auth[1].value', 'specs[0].auth[2].clientSecret'],
    );
    assert.ok(list.every((p) => /\$\{/.test(p.message)));
  });

  it('refuses a reference that is only part of a value', async () => {
    const p = only(await problems('specs:\n  - path: specs/pets.yaml\n    headers: { X-Trace: "id-${TRACE}" }\n'));
    assert.match(p.message, /must be the whole value/);
  });

  it('refuses keys that would change endpoints, at spec level and top level, citing the rule', async () => {
    const list = await problems(`specs:
  - path: specs/pets.yaml
    exclude: [DELETE /pets]
    rename: { getPet: fetchPet }
    summary: Pets
overrides: {}
endpoints: []
`);
    assert.deepEqual(
      list.map((p) => [p.key, p.line]),
      [
        ['specs[0].exclude', 3],
        ['specs[0].rename', 4],
        ['specs[0].summary', 5],
        ['overrides', 6],
        ['endpoints', 7],
      ],
    );
    for (const p of list) assert.match(p.message, /^svc\.yaml cannot change endpoints: /);
  });

  it('refuses duplicate spec names, naming the first entry', async () => {
    const list = await problems('specs:\n  - specs/pets.yaml\n  - path: specs/other/pets.yaml\n', {
      'specs/pets.yaml': SPEC,
      'specs/other/pets.yaml': SPEC,
    });
    const p = only(list);
    assert.equal(p.key, 'specs[1]');
    assert.equal(p.line, 3);
    assert.match(p.message, /spec name `pets` is already used by specs\/pets\.yaml \(line 2\).*different `name:`/);
  });

  it('refuses names that cannot stand in an endpoint id', async () => {
    const list = await problems('specs:\n  - path: specs/pets.yaml\n    name: "pets:v2"\n    collection: "a b"\n');
    assert.deepEqual(list.map((p) => p.key), ['specs[0].name', 'specs[0].collection']);
    assert.match(list[0]!.message, /`pets:v2` cannot be a spec name.*e\.g\. `pets-v2`/);
  });

  it('reports wrong types with what was expected', async () => {
    const list = await problems(`serve:
  transport: websocket
  port: "80"
  maxBodyBytes: lots
specs:
  - path: specs/pets.yaml
    writes: yes
    timeoutMs: -1
    retries: 2.5
    refs: { remote: "no" }
    baseUrl: ftp://files.example.com
    allowedOrigins: [https://a.example.com/path]
`);
    const byKey = Object.fromEntries(list.map((p) => [p.key, p]));
    assert.match(byKey['serve.transport']!.message, /must be one of stdio, http, sse, not `websocket`/);
    assert.equal(byKey['serve.transport']!.line, 2);
    assert.match(byKey['serve.port']!.message, /whole number from 0 to 65535, not `80`/);
    assert.match(byKey['serve.maxBodyBytes']!.message, /size in bytes/);
    assert.match(byKey['specs[0].writes']!.message, /one of deny, allow, confirm, not `yes`/);
    assert.match(byKey['specs[0].timeoutMs']!.message, /whole number from 1/);
    assert.match(byKey['specs[0].retries']!.message, /whole number from 0 to 10, not the number 2\.5/);
    assert.match(byKey['specs[0].refs.remote']!.message, /true or false/);
    assert.match(byKey['specs[0].baseUrl']!.message, /not an http\(s\) URL/);
    assert.match(byKey['specs[0].allowedOrigins[0]']!.message, /has a path; an origin is only scheme, host and port: https:\/\/a\.example\.com/);
    assert.equal(list.length, 9);
  });

  it('reports a missing spec file with the line of its path', async () => {
    const p = only(await problems('specs:\n  - path: specs/pets.yaml\n  - path: specs/missing.yaml\n'));
    assert.equal(p.key, 'specs[1].path');
    assert.equal(p.line, 3);
    assert.match(p.message, /missing\.yaml does not exist; fix the path/);
  });

  it('reports a folder given as a spec file and a missing allowFrom folder', async () => {
    const list = await problems('specs:\n  - path: specs\n    refs: { allowFrom: [nowhere] }\n');
    assert.match(list.find((p) => p.key === 'specs[0].path')?.message ?? '', /is not a file/);
    assert.match(list.find((p) => p.key === 'specs[0].refs.allowFrom')?.message ?? '', /nowhere is not a folder/);
  });

  it('reports an entry without a path, an auth without type and missing auth fields', async () => {
    const list = await problems('specs:\n  - name: x\n  - path: specs/pets.yaml\n    auth: [{ token: "${T}" }, { type: bearer }]\n');
    assert.deepEqual(list.map((p) => p.key), ['specs[0].path', 'specs[1].auth[0].type', 'specs[1].auth[1].token']);
    assert.match(list[2]!.message, /missing \(required for bearer auth\)/);
  });

  it('reports bad YAML with its line', async () => {
    const p = only(await problems('specs:\n  - path: specs/pets.yaml\n    name: a: b\n    collection: c\n'));
    assert.equal(p.line, 3);
    assert.match(p.message, /Nested mappings .* \(not valid YAML; check indentation, quotes and colons\)/);
  });

  it('reports duplicate keys as bad YAML', async () => {
    const list = await problems('specs: [specs/pets.yaml]\nspecs: []\n');
    assert.match(list[0]!.message, /unique/);
    assert.equal(list[0]!.line, 2);
  });

  it('reports an empty file, a file that is not a mapping, and no specs', async () => {
    assert.match(only(await problems('')).message, /the file is empty/);
    assert.match(only(await problems('- a\n- b\n')).message, /must be a mapping/);
    assert.match(only(await problems('serve: { port: 1 }\n')).message, /missing: list your API descriptions/);
    assert.match(only(await problems('specs: []\n')).message, /lists no specs/);
  });

  it('refuses auth: none for a host reachable from other machines', async () => {
    const p = only(await problems('serve: { transport: http, host: 0.0.0.0, auth: none }\nspecs: [specs/pets.yaml]\n'));
    assert.equal(p.key, 'serve.auth');
    assert.match(p.message, /reachable from other machines/);
  });

  it('takes a host reachable from other machines with the default token, and sse as the older name of http', async () => {
    const config = await load('serve: { transport: sse, host: 0.0.0.0 }\nspecs: [specs/pets.yaml]\n');
    assert.equal(config.serve.transport, 'http');
    assert.equal(config.serve.auth, 'token');
  });

  it('refuses auth: none beside tokenEnv, and an auth value other than token or none', async () => {
    assert.equal(only(await problems('serve: { auth: none, tokenEnv: SVC_TOKEN }\nspecs: [specs/pets.yaml]\n')).key, 'serve.tokenEnv');
    assert.match(only(await problems('serve: { auth: basic }\nspecs: [specs/pets.yaml]\n')).message, /one of token, none/);
  });

  it('takes tokenEnv as a variable name and refuses a token value there', async () => {
    const p = only(await problems('serve: { tokenEnv: "abc-123.secret" }\nspecs: [specs/pets.yaml]\n'));
    assert.match(p.message, /NAME of an environment variable/);
    assert.doesNotMatch(p.message, /abc-123/);
  });

  it('collects every problem before failing, sorted by line', async () => {
    const list = await problems('serve: { port: x }\nspecs:\n  - path: specs/none.yaml\n    writes: maybe\nextra: 1\n');
    assert.deepEqual(list.map((p) => p.line), [1, 3, 4, 5]);
  });

  it('says what to do when svc.yaml itself is missing', async () => {
    await assert.rejects(loadConfig(join('/nonexistent-svc-dir', 'svc.yaml')), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /file not found; create it .*--config <file>.*SVC_CONFIG/);
      return true;
    });
  });

  it('puts the line of every problem into the error message', async () => {
    await assert.rejects(parseConfig('specs:\n  - path: /nonexistent/x.yaml\n', '/tmp/svc.yaml'), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /^\/tmp\/svc\.yaml: 1 problem in the config:\n  line 2, specs\[0\]\.path: /);
      return true;
    });
  });
});

describe('configFromFiles', () => {
  it('builds a defaulted config with unique names from file stems', async () => {
    const project = await tempProject({ 'a/pets.yaml': SPEC, 'b/pets.json': '{}', 'specs/shop/store.yaml': SPEC });
    try {
      const config = await configFromFiles(['a/pets.yaml', 'b/pets.json', 'specs/shop/store.yaml'], project.dir);
      assert.deepEqual(config.specs.map((s) => [s.name, s.collection]), [['pets', 'default'], ['pets-2', 'default'], ['store', 'shop']]);
      assert.equal(config.specs[0]!.path, join(project.dir, 'a/pets.yaml'));
      assert.equal(config.serve.transport, 'stdio');
      assert.equal(config.limits.maxSpecBytes, DEFAULTS.maxSpecBytes);
    } finally {
      await project.cleanup();
    }
  });

  it('fails on a missing file', async () => {
    await assert.rejects(configFromFiles(['nope.yaml'], '/nonexistent-svc-dir'), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems.map((p) => p.key), ['argument 1 (nope.yaml)']);
      assert.match(error.message, /^command line: 1 problem in the config:\n.*nope\.yaml does not exist; fix the path \(relative paths start at the working folder\)/);
      return true;
    });
  });
});
