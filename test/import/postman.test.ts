// The Postman importer against small fixtures (one folder per scenario, with an expected.json
// golden) and against the real collections of the shared corpus.
// Regenerate goldens after an intended change: UPDATE_GOLDEN=1 node --import tsx --test test/import/postman.test.ts
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPostman } from '../../src/import/postman/index.ts';
import type { FormatResult } from '../../src/import/format.ts';
import type { Endpoint } from '../../src/model/endpoint.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = join(ROOT, 'test/fixtures/import');
const CORPUS = resolve(ROOT, '../shared/specs');

interface Warning {
  code: string;
  message: string;
  pointer?: string;
  hint?: string;
}

function formatOf(doc: Record<string, unknown>): 'postman-2.0' | 'postman-2.1' {
  const info = doc['info'] as { schema?: string } | undefined;
  return info?.schema?.includes('v2.0') ? 'postman-2.0' : 'postman-2.1';
}

function readJson(file: string): Record<string, unknown> {
  let text = readFileSync(file, 'utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // the dispatcher's job later; ours until then
  return JSON.parse(text) as Record<string, unknown>;
}

function run(doc: Record<string, unknown>, file = '/virtual/collection.json'): { result: FormatResult; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const result = importPostman(doc, formatOf(doc), { file, spec: 'api', collection: 'main', warn: (d) => warnings.push(d) });
  return { result, warnings };
}

function runFixture(name: string): { result: FormatResult; warnings: Warning[]; file: string } {
  const file = join(FIXTURES, name, 'collection.json');
  return { ...run(readJson(file), file), file };
}

function byName(result: FormatResult, summary: string): Endpoint {
  const found = result.endpoints.find((e) => e.summary === summary);
  assert.ok(found, `no endpoint with summary ${JSON.stringify(summary)}`);
  return found;
}

const fixtureNames = readdirSync(FIXTURES).filter((n) => n.startsWith('postman-') && existsSync(join(FIXTURES, n, 'collection.json')));

describe('postman fixtures match their golden endpoint lists', () => {
  for (const name of fixtureNames) {
    test(name, () => {
      const { result, warnings, file } = runFixture(name);
      // Absolute paths differ between machines: the golden names the file by its base name.
      const actual = JSON.parse(
        JSON.stringify({ ...result, warnings }, (key, value) => (key === 'file' && value === file ? 'collection.json' : value)),
      ) as unknown;
      const goldenFile = join(FIXTURES, name, 'expected.json');
      if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(goldenFile, `${JSON.stringify(actual, null, 2)}\n`);
      assert.ok(existsSync(goldenFile), `${goldenFile} is missing: run with UPDATE_GOLDEN=1 and review it`);
      assert.deepEqual(actual, JSON.parse(readFileSync(goldenFile, 'utf8')));
    });
  }
});

describe('postman folders', () => {
  test('nested folders become one tag with the folder path joined by "/"; top-level requests have no tag', () => {
    const { result } = runFixture('postman-folders');
    assert.deepEqual(byName(result, 'Read audit log').tags, ['Users/Admin/Audit']);
    assert.deepEqual(byName(result, 'Promote user').tags, ['Users/Admin']);
    assert.deepEqual(byName(result, 'List users').tags, ['Users']);
    assert.deepEqual(byName(result, 'Health').tags, []);
  });

  test('an item that is neither request nor folder is reported with its pointer', () => {
    const { warnings } = runFixture('postman-folders');
    assert.deepEqual(warnings.map((w) => [w.code, w.pointer]), [['postman-item-invalid', '/item/2']]);
    assert.match(warnings[0]!.message, /A note, not a request/);
  });

  test('1,000 folders deep imports without overflowing the stack', () => {
    let items: unknown[] = [{ name: 'deep', request: { method: 'GET', url: 'https://api.example.com/deep' } }];
    for (let i = 999; i >= 0; i--) items = [{ name: `f${i}`, item: items }];
    const { result, warnings } = run({ info: { name: 'deep' }, item: items });
    assert.equal(result.endpoints.length, 1);
    assert.equal(warnings.length, 0);
    const endpoint = result.endpoints[0]!;
    assert.equal(endpoint.tags[0], Array.from({ length: 1000 }, (_, i) => `f${i}`).join('/'));
    assert.equal(endpoint.source.pointer, `${'/item/0'.repeat(1001)}`);
  });

  test('100,000 folders deep still imports (explicit stack, no recursion)', () => {
    let items: unknown[] = [{ name: 'deep', request: { method: 'GET', url: 'https://api.example.com/deep' } }];
    for (let i = 0; i < 100_000; i++) items = [{ name: 'f', item: items }];
    const { result } = run({ info: { name: 'deeper' }, item: items });
    assert.equal(result.endpoints.length, 1);
    assert.equal(result.endpoints[0]!.tags[0]!.length, 100_000 * 2 - 1);
  });
});

describe('postman URLs', () => {
  test(':name and {{name}} segments become {name} placeholders; the host is not part of the path', () => {
    const { result } = runFixture('postman-urls');
    const e = byName(result, 'Object URL with raw and structure');
    assert.equal(e.method, 'DELETE');
    assert.equal(e.path, '/users/{id}/keys/{version}');
    assert.deepEqual(e.servers, [{ url: 'https://api.example.com:8443' }]);
    assert.deepEqual(
      e.parameters.map((p) => [p.name, p.in, p.required, p.description, p.example]),
      [
        ['id', 'path', true, 'The user id', undefined],
        ['version', 'path', true, undefined, '2024-01'],
        ['force', 'query', true, undefined, 'true'],
      ],
    );
  });

  test('a URL object without raw (Stripe shape) uses host and path; url.variable descriptions reach the path parameters', () => {
    const { result } = runFixture('postman-urls');
    const e = byName(result, 'Object URL without raw');
    assert.equal(e.path, '/accounts/{accountId}/charges');
    assert.deepEqual(e.servers, [{ url: '{baseUrl}', variables: { baseUrl: { default: 'https://api.example.com/v1' } } }]);
    const [accountId, limit, expand] = e.parameters;
    assert.deepEqual(accountId, { name: 'accountId', in: 'path', required: true, type: 'string', description: '(Required) The account id', example: 'acct_123' });
    assert.deepEqual(limit, { name: 'limit', in: 'query', required: true, type: 'string', description: 'How many to return', example: '<integer>' });
    assert.deepEqual(expand, { name: 'expand', in: 'query', required: false, type: 'string', description: 'Fields to expand' });
  });

  test('a plain string URL (v2.0) is parsed: lowercase method, query parameters, no credentials', () => {
    const { result } = runFixture('postman-urls');
    const e = byName(result, 'String URL with query');
    assert.equal(e.method, 'GET');
    assert.equal(e.path, '/items');
    assert.deepEqual(e.parameters.map((p) => p.name), ['limit', 'sort', 'flag']);
    const secret = byName(result, 'Credentials in the URL are not kept');
    assert.deepEqual(secret.servers, [{ url: 'https://api.example.com' }]);
    assert.doesNotMatch(JSON.stringify(result), /secret@|user:secret/);
  });

  test('raw-only URL objects, path strings, segment objects and bare-string requests are understood', () => {
    const { result } = runFixture('postman-urls');
    const rawOnly = byName(result, 'Object URL with raw only');
    assert.equal(rawOnly.path, '/things/{thingId}');
    assert.deepEqual(rawOnly.parameters.map((p) => `${p.in}:${p.name}`), ['path:thingId', 'query:dry_run']);
    assert.equal(byName(result, 'Path as a string and segments as objects').path, '/v2/docs/{docId}');
    const bare = byName(result, 'Request given as a bare URL');
    assert.equal(bare.id, 'api:GET:/ping');
  });

  test('{{baseUrl}} becomes a server variable defaulting to the collection value, without a trailing slash', () => {
    const { result, warnings } = runFixture('postman-servers');
    assert.deepEqual(byName(result, 'Base URL variable').servers, [{ url: '{baseUrl}', variables: { baseUrl: { default: 'https://api.example.com' } } }]);
    assert.equal(byName(result, 'Same base URL again').servers[0], byName(result, 'Base URL variable').servers[0], 'equal servers are shared');
    assert.deepEqual(byName(result, 'Variable inside the host').servers, [{ url: 'https://{region}.example.com', variables: { region: { default: 'eu' } } }]);
    assert.deepEqual(byName(result, 'Host without a scheme').servers, [{ url: 'http://localhost:4041' }]);
    assert.deepEqual(byName(result, 'No host at all').servers, []);
    assert.equal(result.servers.length, 4);
    assert.deepEqual(warnings.map((w) => [w.code, w.pointer]), [['postman-variable-undefined', '/item/4/request/url']]);
    assert.match(warnings[0]!.message, /\{\{missingHost\}\}/);
  });

  test('non-ASCII, emoji and astral characters survive unchanged; literal braces are escaped', () => {
    const { result, warnings } = runFixture('postman-unicode');
    const astral = byName(result, 'Astral 𝌆 and emoji 🍪 in the path');
    assert.equal(astral.path, '/𝌆/й/你/ス/🍪');
    assert.equal(astral.parameters[0]!.example, '𝌆й你ス🍪');
    assert.deepEqual(astral.tags, ['Ünïcode folder 你好']);
    const object = byName(result, 'Object form keeps them too');
    assert.equal(object.path, '/カテゴリ/{ид}');
    assert.deepEqual(object.servers, [{ url: 'https://例え.テスト' }]);
    assert.deepEqual(object.parameters.map((p) => p.name), ['ид', '名前']);
    assert.equal(byName(result, 'Pre-encoded stays encoded, literal braces are escaped').path, '/foo/%F0%9F%8D%AA/%7B/%7D/{ok}');
    assert.equal(result.title, 'Unicode ünïcödé 🍪');
    assert.deepEqual(warnings.map((w) => [w.code, w.pointer]), [
      ['postman-variable-nested', '/item/0/item/3/request/url'],
      ['postman-variable-undefined', '/item/0/item/3/request/url'],
    ]);
  });
});

describe('postman auth', () => {
  test('auth inherits from collection to folder to request; noauth stops it; inherit defers', () => {
    const { result } = runFixture('postman-auth-v21');
    assert.deepEqual(byName(result, 'Inherits the collection bearer').security, [{ bearer: [] }]);
    assert.deepEqual(byName(result, 'Inherits the folder api key').security, [{ apikey: [] }]);
    assert.deepEqual(byName(result, 'Says inherit explicitly').security, [{ apikey: [] }]);
    assert.deepEqual(byName(result, 'Overrides with basic').security, [{ basic: [] }]);
    assert.deepEqual(byName(result, 'Public').security, []);
    assert.deepEqual(byName(result, 'Inherits noauth').security, []);
    assert.deepEqual(byName(result, 'OAuth2 inside an open folder').security, [{ oauth2: ['read', 'write'] }]);
  });

  test('v2.1 array auth becomes security schemes without any credential value', () => {
    const { result } = runFixture('postman-auth-v21');
    assert.deepEqual(result.securitySchemes, {
      bearer: { type: 'http', scheme: 'bearer' },
      apikey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      basic: { type: 'http', scheme: 'basic' },
      oauth2: { type: 'oauth2', tokenUrl: 'https://auth.example.com/token', scopes: ['read', 'write'] },
      apikey_2: { type: 'apiKey', in: 'query', name: 'api_key' },
      apikey_3: { type: 'apiKey', in: 'header', name: 'X-Other-Key' },
      awsv4: { type: 'other', description: 'Postman awsv4 auth' },
    });
    assert.doesNotMatch(JSON.stringify(result), /never-copied|s3cr3t|Bearer abc|xyz/);
  });

  test('auth-made headers and Content-Type are no parameters; other headers are, disabled ones optional', () => {
    const { result } = runFixture('postman-auth-v21');
    assert.deepEqual(
      byName(result, 'Inherits the collection bearer').parameters.map((p) => [p.name, p.in, p.required, p.example]),
      [
        ['Accept', 'header', true, 'application/json'],
        ['X-Trace', 'header', false, '1'],
        ['X-Session-Token', 'header', true, undefined],
      ],
    );
    assert.deepEqual(byName(result, 'Inherits the folder api key').parameters.map((p) => p.name), ['X-Request-Id']);
    assert.deepEqual(byName(result, 'Query api key').parameters.map((p) => p.name), ['page']);
  });

  test('credential-like parameters keep their name but never their example value', () => {
    const { result } = run({
      info: { name: 'secrets' },
      variable: [{ key: 'sessionToken', value: 'tok-from-collection' }],
      item: [
        {
          name: 'Leaky',
          request: {
            method: 'GET',
            header: [{ key: 'X-Api-Key', value: 'k-123' }, { key: 'Accept', value: 'text/plain' }],
            url: 'https://api.example.com/s/{{sessionToken}}?api_key=abc&page=2',
          },
        },
      ],
    });
    const e = result.endpoints[0]!;
    assert.deepEqual(e.parameters.map((p) => [p.in, p.name, p.example]), [
      ['path', 'sessionToken', undefined],
      ['query', 'api_key', undefined],
      ['query', 'page', '2'],
      ['header', 'X-Api-Key', undefined],
      ['header', 'Accept', 'text/plain'],
    ]);
    assert.doesNotMatch(JSON.stringify(result), /k-123|abc|tok-from-collection/);
  });

  test('an auth block without a type is reported at its pointer and the parent auth applies', () => {
    const { result, warnings } = runFixture('postman-auth-v21');
    assert.deepEqual(byName(result, 'Broken auth').security, []);
    assert.deepEqual(warnings.map((w) => [w.code, w.pointer]), [['postman-auth-invalid', '/item/2/item/5/request/auth']]);
  });

  test('v2.0 object-map auth is read like the v2.1 array shape', () => {
    const { result, warnings } = runFixture('postman-auth-v20');
    assert.equal(warnings.length, 0);
    assert.deepEqual(result.securitySchemes, {
      apikey: { type: 'apiKey', in: 'query', name: 'token' },
      oauth2: { type: 'oauth2', tokenUrl: 'https://auth.example.com/oauth/token' },
      bearer: { type: 'http', scheme: 'bearer' },
      digest: { type: 'other', description: 'Postman digest auth' },
      basic: { type: 'http', scheme: 'basic' },
    });
    assert.deepEqual(byName(result, 'Object-map api key in query').parameters.map((p) => p.name), ['q']);
    assert.deepEqual(byName(result, 'Object-map oauth2').security, [{ oauth2: [] }]);
    const handWritten = byName(result, 'No auth block, hand-written basic header');
    assert.deepEqual(handWritten.security, [{ basic: [] }]);
    assert.deepEqual(handWritten.parameters, []);
    const none = byName(result, 'No auth at all, header string form');
    assert.equal(none.security, undefined);
    assert.deepEqual(none.parameters.map((p) => [p.name, p.example]), [['Accept', 'text/csv'], ['X-Flag', 'on']]);
    assert.equal(result.formatVersion, 'v2.0.0');
  });
});

describe('postman bodies', () => {
  test('each body mode gets its media type; forms list their fields', () => {
    const { result } = runFixture('postman-bodies');
    const media = (summary: string) => byName(result, summary).requestBody?.contents.map((c) => c.mediaType);
    assert.deepEqual(media('Raw JSON by language'), ['application/json']);
    assert.deepEqual(media('Raw JSON by content'), ['application/json']);
    assert.deepEqual(media('Raw text'), ['text/plain']);
    assert.deepEqual(media('Raw with a Content-Type header'), ['application/xml']);
    assert.deepEqual(media('Urlencoded'), ['application/x-www-form-urlencoded']);
    assert.deepEqual(media('Formdata with a file'), ['multipart/form-data']);
    assert.deepEqual(media('GraphQL'), ['application/json']);
    assert.deepEqual(media('File'), ['application/octet-stream']);
    assert.equal(byName(result, 'Empty raw').requestBody?.required, false);
    assert.equal(byName(result, 'Disabled body').requestBody, undefined);
    const form = byName(result, 'Urlencoded').requestBody!.contents[0]!.schema!.node as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(form.properties), ['amount', 'metadata[order]', '__proto__']);
    assert.deepEqual(form.properties['amount'], { type: 'string', description: '(Required) Amount in cents' });
    const multipart = byName(result, 'Formdata with a file').requestBody!.contents[0]!.schema!.node as { properties: Record<string, unknown> };
    assert.deepEqual(multipart.properties['upload'], { type: 'string', format: 'binary' });
  });

  test('an unknown body mode is a warning with a pointer; the endpoint stays, without a body', () => {
    const { result, warnings } = runFixture('postman-bodies');
    assert.equal(byName(result, 'Unknown mode').requestBody, undefined);
    assert.deepEqual(warnings.map((w) => [w.code, w.pointer]), [['postman-body-mode-unknown', '/item/9/request/body']]);
    assert.match(warnings[0]!.message, /"Unknown mode".*"telepathy"/);
  });
});

describe('postman methods and broken requests', () => {
  test('methods outside the seven are skipped with a warning naming the request and its folder', () => {
    const { result, warnings } = runFixture('postman-methods');
    assert.deepEqual(result.skipped.map((s) => [s.method, s.path, s.pointer]), [
      ['POSTMAN', '/custom', '/item/0/request'],
      ['COPY', '/files/{name}', '/item/1/item/0/request'],
      ['TRACE', '/trace', '/item/1/item/1/request'],
      ['GET', '', '/item/2/request'],
      ['GET', '', '/item/3/request'],
      ['GET', '', '/item/4/request'],
    ]);
    const copy = warnings.find((w) => w.pointer === '/item/1/item/0/request');
    assert.equal(copy?.code, 'method-skipped');
    assert.match(copy!.message, /"Copy a file" in folder "WebDAV" uses method COPY/);
    assert.equal(warnings.find((w) => w.pointer === '/item/2/request')?.code, 'postman-url-missing');
    assert.deepEqual(result.endpoints.map((e) => e.id), ['api:HEAD:/files', 'api:OPTIONS:/files', 'api:GET:/default']);
    assert.ok(warnings.some((w) => w.code === 'postman-item-invalid' && w.pointer === '/item/6'));
  });

  test('a collection without an item list is a warning, not a crash', () => {
    const { result, warnings } = run({ info: { name: 'empty' } });
    assert.equal(result.endpoints.length, 0);
    assert.deepEqual(warnings.map((w) => [w.code, w.pointer]), [['postman-items-missing', '/item']]);
  });
});

describe('postman text and identity', () => {
  test('summary is the request name and description the text of a string or {content,type}, both unchanged', () => {
    const { result } = runFixture('postman-descriptions');
    assert.equal(byName(result, 'Described by a string').description, '  Lists things.\n\n**Markdown** is kept as written.  ');
    assert.equal(byName(result, 'Described by an object').description, '<p>HTML from an SDK export</p>');
    assert.equal(byName(result, 'Empty description').description, undefined);
    assert.equal(byName(result, '  Name kept as written  ').description, 'Described on the item, not the request');
    assert.equal(result.title, 'Descriptions (info last)');
    assert.equal(result.version, '1.4.2-beta');
    assert.equal(result.formatVersion, 'v2.1.0');
  });

  test('duplicate method+path get #2, #3 in document order; saved examples become responses', () => {
    const { result } = runFixture('postman-responses');
    assert.deepEqual(result.endpoints.map((e) => e.id), ['api:GET:/users/{id}', 'api:GET:/users/{id}#2', 'api:GET:/users/{id}#3']);
    assert.deepEqual(result.endpoints[0]!.responses, [
      { status: '200', label: 'Found', contentTypes: ['application/json'] },
      { status: '404', label: 'Not Found', contentTypes: ['application/json'] },
    ]);
  });

  test('every warning of every fixture has a JSON pointer', () => {
    for (const name of fixtureNames) {
      for (const w of runFixture(name).warnings) assert.match(w.pointer ?? '', /^\//, `${name}: ${w.message}`);
    }
  });
});

// ---------------------------------------------------------------- the shared corpus
interface Row {
  path: string;
  format: string;
  operations: number;
}

function corpusRows(): Row[] {
  const lines = readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1);
  return lines
    .map((l) => l.split('\t'))
    .filter((c) => c.length >= 6 && (c[3] ?? '').startsWith('postman'))
    .map((c) => ({ path: c[0]!, format: c[3]!, operations: Number(c[5]) }));
}

const corpusPresent = existsSync(join(CORPUS, 'MANIFEST.tsv'));
const skipCorpus = corpusPresent ? false : `corpus not found at ${CORPUS} (../shared/specs beside the repo); corpus tests skipped`;

describe('postman corpus', { skip: skipCorpus }, () => {
  const rows = corpusPresent ? corpusRows() : [];
  test('MANIFEST lists Postman rows', () => assert.ok(rows.length >= 18, `only ${rows.length} Postman rows`));
  for (const row of rows) {
    test(`${row.path}: endpoints + skipped = ${row.operations} operations`, () => {
      const file = join(CORPUS, row.path);
      const doc = readJson(file);
      const warnings: Warning[] = [];
      const result = importPostman(doc, row.format as 'postman-2.0' | 'postman-2.1', {
        file,
        spec: 'corpus',
        collection: 'c',
        warn: (d) => warnings.push(d),
      });
      assert.equal(result.endpoints.length + result.skipped.length, row.operations);
      assert.equal(new Set(result.endpoints.map((e) => e.id)).size, result.endpoints.length, 'ids are unique');
      for (const w of warnings) assert.match(w.pointer ?? '', /^\//, w.message);
      for (const e of result.endpoints) {
        for (const name of e.path.matchAll(/\{([^}]*)\}/g)) {
          assert.ok(e.parameters.some((p) => p.in === 'path' && p.name === name[1]), `${e.id}: {${name[1]}} has a path parameter`);
        }
      }
    });
  }

  test('Twitter: auth at three levels, :id variables, duplicate requests', { skip: !corpusPresent }, () => {
    const file = join(CORPUS, 'postman/twitter/Twitter API v2.postman_collection.json');
    const { result } = run(readJson(file), file);
    const follow = result.endpoints.find((e) => e.summary === 'Follow a user ID')!;
    assert.equal(follow.path, '/2/users/{id}/following');
    assert.deepEqual(follow.security, [{ oauth1: [] }]);
    assert.match(follow.parameters[0]!.description ?? '', /^The ID of the user who wishes to follow/);
    assert.deepEqual(result.endpoints.find((e) => e.summary === 'Single Tweet')!.security, [{ bearer: [] }]);
    assert.deepEqual(result.endpoints.find((e) => e.summary === 'Create a list')!.security, [{ oauth1: [] }]);
    assert.deepEqual(result.endpoints.find((e) => e.summary === 'Spaces lookup by single ID')!.tags, ['Spaces/Spaces lookup']);
    assert.ok(result.endpoints.some((e) => e.id === 'api:PUT:/2/tweets/{id}/hidden#2'));
    assert.deepEqual(result.servers, [{ url: 'https://api.twitter.com' }]);
  });

  test('Stripe: {{baseUrl}} server, description objects, urlencoded bodies, info last', { skip: !corpusPresent }, () => {
    const file = join(CORPUS, 'postman/stripe/StripeAPICollection.json');
    const { result } = run(readJson(file), file);
    assert.equal(result.title, 'Stripe API');
    assert.deepEqual(result.servers[0], { url: '{baseUrl}', variables: { baseUrl: { default: 'https://api.stripe.com' } } });
    const first = result.endpoints[0]!;
    assert.equal(first.path, '/v1/account_sessions');
    assert.match(first.description ?? '', /^<p>Creates a AccountSession object/);
    assert.equal(first.requestBody?.contents[0]?.mediaType, 'application/x-www-form-urlencoded');
    assert.deepEqual(first.security, [{ bearer: [] }]);
  });
});

// ---------------------------------------------------------------- through importSpec (file on disk)
describe('postman through importSpec', () => {
  test('a collection file with a UTF-8 BOM imports, and warnings carry file and pointer', async () => {
    const { importSpec } = await import('../../src/import/index.ts');
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'svc-postman-'));
    try {
      const file = join(dir, 'with bom.postman_collection.json');
      const source = readFileSync(join(FIXTURES, 'postman-methods', 'collection.json'), 'utf8');
      await writeFile(file, `\uFEFF${source}`);
      const outcome = await importSpec(file, { name: 'bom', collection: 'main' });
      assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
      assert.equal(outcome.spec.format, 'postman-2.1');
      assert.equal(outcome.spec.endpoints.length, 3);
      assert.equal(outcome.spec.skipped.length, 6);
      const copy = outcome.spec.warnings.find((w) => w.code === 'method-skipped' && w.pointer === '/item/1/item/0/request');
      assert.equal(copy?.file, file);
      assert.equal(copy?.severity, 'warning');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('corpus Postman rows import through importSpec with endpoints + skipped = MANIFEST count', { skip: skipCorpus }, async () => {
    const { importSpec } = await import('../../src/import/index.ts');
    for (const row of corpusRows()) {
      const outcome = await importSpec(join(CORPUS, row.path), { name: 'corpus', collection: 'c' });
      assert.ok(outcome.ok, `${row.path}: ${JSON.stringify(!outcome.ok && outcome.errors)}`);
      assert.equal(outcome.spec.format, row.format, row.path);
      assert.equal(outcome.spec.endpoints.length + outcome.spec.skipped.length, row.operations, row.path);
    }
  });
});

// ---------------------------------------------------------------- any shape in any field
describe('postman importer on arbitrary field values', () => {
  test('never throws; every request item ends as an endpoint or a skip; every warning has a pointer', async () => {
    const { default: fc } = await import('fast-check');
    const value = fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.string(),
      fc.constantFrom('GET', 'post', 'POSTMAN', '', '{{baseUrl}}/a/:id?x=1', 'https://ü.example/🍪/{/}', '{{a{{b}}}}', ':', '?', '#'),
    );
    const request = fc.record(
      {
        method: value,
        url: fc.oneof(value, fc.record({ raw: value, host: value, path: value, query: value, variable: value, port: value, protocol: value }, { requiredKeys: [] })),
        header: value,
        body: fc.oneof(value, fc.record({ mode: value, raw: value, urlencoded: value, formdata: value, graphql: value, options: value, disabled: value }, { requiredKeys: [] })),
        auth: fc.oneof(value, fc.record({ type: value, bearer: value, apikey: value, oauth2: value, basic: value }, { requiredKeys: [] })),
        description: value,
      },
      { requiredKeys: [] },
    );
    const item = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.record({ name: value, request: fc.oneof(request, value), response: value }, { requiredKeys: ['request'] }),
        fc.record({ name: value, auth: value, item: fc.array(tie('node'), { maxLength: 4 }) }, { requiredKeys: ['item'] }),
        value,
      ),
    })).node;
    const countRequests = (items: unknown): number => {
      if (!Array.isArray(items)) return 0;
      let n = 0;
      for (const it of items) {
        if (typeof it !== 'object' || it === null || Array.isArray(it)) continue;
        if ((it as Record<string, unknown>)['request'] !== undefined) n++;
        n += countRequests((it as Record<string, unknown>)['item']);
      }
      return n;
    };
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), value, value, (items, auth, variable) => {
        const doc = { info: { name: 'fuzz' }, item: items, auth, variable };
        const { result, warnings } = run(doc);
        assert.equal(result.endpoints.length + result.skipped.length, countRequests(items));
        for (const w of warnings) assert.match(w.pointer ?? '', /^\//);
        assert.equal(new Set(result.endpoints.map((e) => e.id)).size, result.endpoints.length);
        JSON.stringify(result);
      }),
      { numRuns: 400 },
    );
  });
});
