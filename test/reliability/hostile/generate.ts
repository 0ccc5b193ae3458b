// The hostile corpus: code that writes every attack case into a temp folder at test time.
// Nothing big is committed: the 200 MB file is sparse (ftruncate), the 10 MB descriptions and the
// 100,000-level nesting are built in memory and written here.
//
// Each case says what a correct importer may do with it:
//   'error'     -> `{ ok: false }` with structured diagnostics,
//   'endpoints' -> `{ ok: true }` with at least `minEndpoints` endpoints,
//   'any'       -> either, as long as it is one of the two (no throw, no hang, bounded memory).
// `forbid` lists strings that must never appear in the outcome or in any resolved schema
// (contents of files the importer must not read).
import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, writeSync, ftruncateSync, writeFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify as toYaml } from 'yaml';

export type Expectation = 'error' | 'endpoints' | 'any';

export interface HostileCase {
  readonly name: string;
  /** What the case attacks, for the report. */
  readonly attack: string;
  /** Absolute path of the root file. */
  readonly file: string;
  readonly expect: Expectation;
  readonly minEndpoints?: number;
  /** Extra import options (e.g. a smaller maxSpecBytes). */
  readonly options?: { maxSpecBytes?: number; allowRemoteRefs?: boolean };
  readonly forbid?: readonly string[];
  /** Per-case time limit (ms); default 15 s. */
  readonly timeoutMs?: number;
  /** Endpoint description lengths that must be carried over unchanged (`METHOD path` -> length). */
  readonly descriptionLengths?: Readonly<Record<string, number>>;
}

export interface HostileOptions {
  /** A URL on a loopback server that counts requests: remote `$ref`s must never reach it. */
  readonly canaryUrl: string;
}

/** A marker written into files outside the spec folder: it must never show up in any output. */
export const OUTSIDE_SECRET = 'SVC-OUTSIDE-SECRET-7f3a';
/** Part of root's line, which /etc/passwd holds on Linux (root:x:0:0:) and macOS (root:*:0:0:). */
export const PASSWD_MARKER = ':0:0:';

const INFO = { title: 'Hostile', version: '1.0.0' };

function openapi(paths: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { openapi: '3.0.3', info: INFO, paths, ...extra };
}

function okOperation(summary = 'ok'): Record<string, unknown> {
  return { summary, responses: { '200': { description: 'OK' } } };
}

/** A valid document with `n` operations, for truncation cases. */
function biggishDoc(n: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    paths[`/items${i}/{id}`] = {
      get: {
        operationId: `get${i}`,
        summary: `Get item ${i}`,
        description: `Returns item number ${i} with "quotes", émoji 🚀 and a colon: here`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
      },
    };
  }
  return openapi(paths, { components: { schemas: { Item: { type: 'object', properties: { id: { type: 'string' } } } } } });
}

/** A schema param pointing at `ref`, on one otherwise valid operation. */
function refDoc(ref: string): Record<string, unknown> {
  return openapi({
    '/refd': {
      get: {
        summary: 'ref target',
        parameters: [{ name: 'q', in: 'query', schema: { $ref: ref } }],
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: ref } } } } },
      },
    },
    '/plain': { get: okOperation() },
  });
}

/** Deterministic pseudo-random bytes (xorshift), so every run attacks with the same garbage. */
export function garbage(bytes: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(bytes);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

function write(file: string, content: string | Buffer): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** Writes every hostile case under `dir` (each in its own sub-folder) and lists them. */
export function writeHostileCorpus(dir: string, opts: HostileOptions): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (c: HostileCase): void => void cases.push(c);
  const at = (name: string, file: string): string => join(dir, 'cases', name, file);

  // --- Truncated and malformed text -------------------------------------------------------------
  const big = biggishDoc(40);
  const bigJson = JSON.stringify(big, null, 2);
  const bigYaml = toYaml(big);
  add({ name: 'json-truncated', attack: 'JSON cut in the middle', file: write(at('json-truncated', 'spec.json'), bigJson.slice(0, Math.floor(bigJson.length / 2))), expect: 'error' });
  add({ name: 'json-truncated-1-byte', attack: 'JSON missing its last byte', file: write(at('json-truncated-1-byte', 'spec.json'), bigJson.slice(0, -1)), expect: 'error' });
  add({ name: 'yaml-truncated', attack: 'YAML cut in the middle of a line', file: write(at('yaml-truncated', 'spec.yaml'), bigYaml.slice(0, Math.floor(bigYaml.length / 2) + 7)), expect: 'any' });
  add({ name: 'yaml-truncated-in-quote', attack: 'YAML cut inside a quoted string', file: write(at('yaml-truncated-in-quote', 'spec.yaml'), 'openapi: 3.0.3\ninfo:\n  title: "Unclosed\n  version: 1\npaths: {}\n'), expect: 'error' });
  add({ name: 'json-trailing-comma', attack: 'malformed JSON (trailing comma)', file: write(at('json-trailing-comma', 'spec.json'), '{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{},}'), expect: 'error' });
  add({ name: 'yaml-bad-indent', attack: 'malformed YAML (bad indentation, tab)', file: write(at('yaml-bad-indent', 'spec.yaml'), 'openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\npaths:\n\t/a: {}\n'), expect: 'error' });
  add({ name: 'yaml-duplicate-keys', attack: 'YAML mapping with duplicate path keys', file: write(at('yaml-duplicate-keys', 'spec.yaml'), 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get: {responses: {"200": {description: a}}}\n  /a:\n    get: {responses: {"200": {description: b}}}\n'), expect: 'any' });
  add({ name: 'empty-file', attack: 'zero bytes', file: write(at('empty-file', 'spec.yaml'), ''), expect: 'error' });
  add({ name: 'yaml-null', attack: 'a document that is null', file: write(at('yaml-null', 'spec.yaml'), '~\n'), expect: 'error' });
  add({ name: 'json-array', attack: 'a document that is an array', file: write(at('json-array', 'spec.json'), '[1,2,3]'), expect: 'error' });
  add({ name: 'json-string', attack: 'a document that is a string', file: write(at('json-string', 'spec.json'), '"openapi"'), expect: 'error' });
  add({ name: 'unknown-format', attack: 'openapi: 9.9.9', file: write(at('unknown-format', 'spec.json'), JSON.stringify(openapi({ '/a': { get: okOperation() } }, { openapi: '9.9.9' }))), expect: 'error' });
  add({ name: 'no-format-marker', attack: 'an object that is no API description', file: write(at('no-format-marker', 'spec.json'), JSON.stringify({ hello: 'world', paths: 3 })), expect: 'error' });
  add({ name: 'utf16-file', attack: 'UTF-16LE with BOM', file: write(at('utf16-file', 'spec.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(openapi({ '/a': { get: okOperation() } })), 'utf16le')])), expect: 'any' });
  add({ name: 'bom-json', attack: 'UTF-8 BOM before JSON', file: write(at('bom-json', 'spec.json'), '\uFEFF' + JSON.stringify(openapi({ '/a': { get: okOperation() } }))), expect: 'endpoints', minEndpoints: 1 });

  // --- Resource exhaustion ------------------------------------------------------------------------
  // Billion laughs: 10 levels of 10 aliases each = 10^10 nodes if expanded naively.
  const bomb = ['openapi: 3.0.3', 'info: {title: bomb, version: "1"}', 'x-bomb:', '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const letters = 'abcdefghij';
  for (let i = 1; i < letters.length; i++) {
    const prev = letters[i - 1];
    bomb.push(`  ${letters[i]}: &${letters[i]} [${Array(10).fill(`*${prev}`).join(',')}]`);
  }
  bomb.push('components:', '  schemas:', '    Bomb:', '      type: object', '      x-laughs: *j', '      properties:', '        lol: {type: string, enum: *j}');
  bomb.push('paths:', '  /bomb:', '    get:', '      summary: bomb', '      x-laughs: *j', '      parameters:', '        - {name: q, in: query, schema: {$ref: "#/components/schemas/Bomb"}}', '      responses:', '        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Bomb"}}}}');
  add({ name: 'yaml-alias-bomb', attack: 'YAML alias bomb (10^10 nodes if expanded)', file: write(at('yaml-alias-bomb', 'spec.yaml'), bomb.join('\n') + '\n'), expect: 'any', timeoutMs: 20_000 });

  const DEPTH = 100_000;
  const deepSchema = '{"items":'.repeat(DEPTH) + '{}' + '}'.repeat(DEPTH);
  const deepJson = `{"openapi":"3.0.3","info":{"title":"deep","version":"1"},"paths":{"/deep":{"get":{"summary":"deep","responses":{"200":{"description":"OK","content":{"application/json":{"schema":${deepSchema}}}}}}}}}`;
  add({ name: 'json-nesting-100k', attack: 'JSON nested 100,000 levels deep (inside a schema)', file: write(at('json-nesting-100k', 'spec.json'), deepJson), expect: 'any', timeoutMs: 20_000 });
  const deepYaml = 'openapi: 3.0.3\ninfo: {title: deep, version: "1"}\npaths: {}\nx-deep: ' + '['.repeat(DEPTH) + ']'.repeat(DEPTH) + '\n';
  add({ name: 'yaml-nesting-100k', attack: 'YAML flow sequence nested 100,000 levels deep', file: write(at('yaml-nesting-100k', 'spec.yaml'), deepYaml), expect: 'any', timeoutMs: 20_000 });
  const deepBlock = ['openapi: 3.0.3', 'info: {title: deep, version: "1"}', 'paths: {}', 'x-deep:'];
  for (let i = 1; i <= 5_000; i++) deepBlock.push(' '.repeat(i * 2) + 'k:');
  add({ name: 'yaml-block-nesting-5k', attack: 'YAML block mapping nested 5,000 levels (10 MB of indentation)', file: write(at('yaml-block-nesting-5k', 'spec.yaml'), deepBlock.join('\n') + ' 1\n'), expect: 'any', timeoutMs: 20_000 });
  const deepPaths = openapi({ '/deep-param': { get: { summary: 'x', parameters: [{ name: 'p', in: 'query', schema: JSON.parse('{"type":"object","properties":{"a":'.repeat(2000) + '{}' + '}}'.repeat(2000)) }], responses: { '200': { description: 'OK' } } } } });
  add({ name: 'json-nesting-2k-param', attack: 'parameter schema nested 2,000 levels (resolved by inspect)', file: write(at('json-nesting-2k-param', 'spec.json'), JSON.stringify(deepPaths)), expect: 'endpoints', minEndpoints: 1 });

  // 200 MB, sparse: refused by size before being read (reading it would take 200 MB of heap at least).
  const hugeFile = at('file-200mb', 'spec.json');
  mkdirSync(dirname(hugeFile), { recursive: true });
  const fd = openSync(hugeFile, 'w');
  writeSync(fd, '{"openapi":"3.0.3","info":{"title":"huge","version":"1"},"paths":{},"x-pad":"');
  ftruncateSync(fd, 200 * 1024 * 1024);
  closeSync(fd);
  add({ name: 'file-200mb', attack: '200 MB file (sparse) over the default size limit', file: hugeFile, expect: 'error', timeoutMs: 5_000 });
  const limitFile = write(at('file-over-configured-limit', 'spec.json'), JSON.stringify(openapi({ '/a': { get: { ...okOperation(), description: 'x'.repeat(2 * 1024 * 1024) } } })));
  add({ name: 'file-over-configured-limit', attack: '2 MB file with maxSpecBytes set to 1 MB', file: limitFile, expect: 'error', options: { maxSpecBytes: 1024 * 1024 }, timeoutMs: 5_000 });

  add({ name: 'binary-garbage-json', attack: '1 MB of random bytes named .json', file: write(at('binary-garbage-json', 'spec.json'), garbage(1024 * 1024, 1)), expect: 'error' });
  add({ name: 'binary-garbage-yaml', attack: '1 MB of random bytes named .yaml', file: write(at('binary-garbage-yaml', 'spec.yaml'), garbage(1024 * 1024, 2)), expect: 'error' });
  add({ name: 'binary-after-header', attack: 'valid header then NUL bytes and garbage', file: write(at('binary-after-header', 'spec.yaml'), Buffer.concat([Buffer.from('openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a: '), Buffer.alloc(64), garbage(4096, 3)])), expect: 'error' });

  const tenMb = 'Long description. '.repeat(Math.ceil((10 * 1024 * 1024) / 18)).slice(0, 10 * 1024 * 1024);
  add({
    name: 'description-10mb',
    attack: '10 MB operation and info descriptions',
    file: write(at('description-10mb', 'spec.json'), JSON.stringify(openapi({ '/long': { get: { ...okOperation(), description: tenMb } } }, { info: { ...INFO, description: tenMb } }))),
    expect: 'endpoints',
    minEndpoints: 1,
    descriptionLengths: { 'GET /long': tenMb.length },
    timeoutMs: 20_000,
  });

  // --- $ref abuse -----------------------------------------------------------------------------------
  write(join(dir, 'outside.yaml'), `Secret:\n  type: string\n  description: ${OUTSIDE_SECRET}\n`);
  const refCases: [string, string, string][] = [
    ['ref-etc-passwd', '/etc/passwd', '$ref to /etc/passwd (absolute path)'],
    ['ref-file-url-passwd', 'file:///etc/passwd', '$ref to file:///etc/passwd'],
    ['ref-outside-folder', '../../../outside.yaml#/Secret', '$ref to ../../ outside the spec folder'],
    ['ref-metadata-ip', 'http://169.254.169.254/latest/meta-data/iam#/x', '$ref to the cloud metadata address'],
    ['ref-canary-http', `${opts.canaryUrl}/remote.yaml#/Secret`, '$ref to an http URL (loopback canary must see no request)'],
    ['ref-missing-file', './does-not-exist.yaml#/Nope', '$ref to a missing file'],
    ['ref-missing-pointer', '#/components/schemas/Nope', '$ref to a missing local pointer'],
    ['ref-self-file', './spec.yaml', '$ref to the file itself (whole document)'],
    ['ref-self-root', '#', '$ref to the document root'],
    ['ref-proc-self', '/proc/self/environ', '$ref to /proc/self/environ'],
    ['ref-dev-zero', '/dev/zero', '$ref to /dev/zero (endless)'],
  ];
  for (const [name, ref, attack] of refCases) {
    add({ name, attack, file: write(at(name, 'spec.yaml'), toYaml(refDoc(ref))), expect: 'any', forbid: [PASSWD_MARKER, OUTSIDE_SECRET, 'PATH='], minEndpoints: 1 });
  }
  add({
    name: 'ref-cycle-local',
    attack: 'schema $ref cycle A -> B -> A and A -> A',
    file: write(at('ref-cycle-local', 'spec.yaml'), toYaml(openapi({ '/cycle': { get: { summary: 'c', parameters: [{ name: 'a', in: 'query', schema: { $ref: '#/components/schemas/A' } }], responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Self' } } } } } } } }, { components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' }, Self: { $ref: '#/components/schemas/Self' } } } }))),
    expect: 'any',
  });
  add({
    name: 'ref-path-item-self',
    attack: 'path item that $refs itself',
    file: write(at('ref-path-item-self', 'spec.yaml'), toYaml(openapi({ '/loop': { $ref: '#/paths/~1loop' }, '/ok': { get: okOperation() } }))),
    expect: 'any',
  });
  write(at('ref-cycle-files', 'b.yaml'), toYaml({ B: { $ref: './spec.yaml#/components/schemas/A' } }));
  add({
    name: 'ref-cycle-files',
    attack: 'two files whose $refs point at each other',
    file: write(at('ref-cycle-files', 'spec.yaml'), toYaml(openapi({ '/x': { get: { summary: 'x', responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } } } }, { components: { schemas: { A: { $ref: './b.yaml#/B' } } } }))),
    expect: 'any',
  });
  const symlinkDir = at('ref-symlink-out', '');
  mkdirSync(symlinkDir, { recursive: true });
  try {
    symlinkSync(join(dir, 'outside.yaml'), join(symlinkDir, 'link.yaml'));
    add({ name: 'ref-symlink-out', attack: '$ref to a symlink inside the folder that points outside it', file: write(join(symlinkDir, 'spec.yaml'), toYaml(refDoc('./link.yaml#/Secret'))), expect: 'any', forbid: [OUTSIDE_SECRET] });
  } catch {
    // No symlinks on this file system: the case is left out.
  }

  // --- Structurally wrong documents ---------------------------------------------------------------
  const wrong: [string, unknown, string, Expectation][] = [
    ['paths-string', 'not a map', 'paths is a string', 'any'],
    ['paths-array', [1, 2, 3], 'paths is an array', 'any'],
    ['paths-number', 42, 'paths is a number', 'any'],
    ['path-item-null', { '/a': null, '/b': 'str', '/c': [1], '/ok': { get: okOperation() } }, 'path items that are null, a string, an array', 'endpoints'],
    ['operations-strings', { '/a': { get: 'hello', post: 42, put: null, delete: [], patch: true }, '/ok': { get: okOperation() } }, 'operations that are strings, numbers, null, arrays', 'endpoints'],
    [
      'params-without-in',
      { '/p/{id}': { get: { summary: 'p', parameters: [{ name: 'x' }, { in: 'query' }, null, 'str', 7, { name: 'y', in: 'body-ish' }, { name: 'ok', in: 'query' }], responses: { '200': { description: 'OK' } } } }, '/q': { parameters: 'nope', get: { parameters: { not: 'an array' }, responses: null } } },
      'parameters without in, without name, of the wrong type',
      'endpoints',
    ],
    [
      'duplicate-ids',
      { '/a': { get: { ...okOperation(), operationId: 'same' }, post: { ...okOperation(), operationId: 'same' } }, '/a/': { get: { ...okOperation(), operationId: 'same' } }, '/b/{x}': { get: okOperation() }, '/b/{y}': { get: okOperation() } },
      'duplicate operationIds and paths that differ only by a trailing slash or a variable name',
      'endpoints',
    ],
    [
      'control-characters',
      { '/a\u0000b': { get: okOperation('nul\u0000in summary') }, '/esc\u001b[31mred': { get: { ...okOperation(), operationId: 'id\u2028sep', tags: ['t\r\nag', '\u0007bell'], parameters: [{ name: 'n\u0000ame', in: 'query', schema: { type: 'string' } }, { name: 'h\r\nX-Injected: 1', in: 'header' }] } }, '/ok': { get: okOperation() } },
      'names, paths and tags with control characters',
      'any',
    ],
    ['responses-wrong', { '/r': { get: { summary: 'r', responses: { '200': 'str', '404': null, '500': { description: 42 }, default: [] } } } }, 'responses of the wrong types', 'endpoints'],
    ['servers-wrong', { '/s': { servers: 'x', get: { ...okOperation(), servers: [null, 1, { url: 5 }, { url: 'http://{unclosed' }] } } }, 'servers of the wrong types', 'endpoints'],
    ['many-methods', { '/m': { get: okOperation(), trace: okOperation(), connect: okOperation(), FOO: okOperation(), 'x-ext': okOperation() } }, 'unknown methods beside a good one', 'endpoints'],
  ];
  for (const [name, paths, attack, expect] of wrong) {
    add({ name, attack, file: write(at(name, 'spec.json'), JSON.stringify(openapi(paths))), expect, minEndpoints: 1 });
  }
  add({ name: 'components-wrong', attack: 'components and info of the wrong types', file: write(at('components-wrong', 'spec.json'), JSON.stringify({ openapi: '3.1.0', info: 'x', components: [1], webhooks: 'w', paths: { '/a': { get: okOperation() } } })), expect: 'any' });
  add({ name: 'swagger-wrong', attack: 'Swagger 2.0 with wrong basePath, host and parameters', file: write(at('swagger-wrong', 'spec.json'), JSON.stringify({ swagger: '2.0', info: INFO, host: 7, basePath: { a: 1 }, consumes: 'x', paths: { '/a': { get: { parameters: [{ in: 'body' }, { name: 'f', in: 'formData', type: 'file' }, { $ref: '#/parameters/missing' }], responses: {} } }, '/b': 'x' }, 'x-ms-paths': { '/a': { get: {} } } })), expect: 'any' });
  const manyParams = Array.from({ length: 10_000 }, (_, i) => ({ name: `p${i}`, in: 'query', schema: { type: 'string' } }));
  add({ name: 'params-10k', attack: 'one operation with 10,000 parameters', file: write(at('params-10k', 'spec.json'), JSON.stringify(openapi({ '/many': { get: { ...okOperation(), parameters: manyParams } } }))), expect: 'endpoints', minEndpoints: 1 });

  // --- Postman ------------------------------------------------------------------------------------
  const postmanInfo = { name: 'hostile', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' };
  let nested: Record<string, unknown> = { name: 'leaf', request: { method: 'GET', url: 'https://example.test/leaf' } };
  for (let i = 0; i < 1000; i++) nested = { name: `folder ${i}`, item: [nested] };
  add({ name: 'postman-nested-1000', attack: 'Postman items nested 1,000 folders deep', file: write(at('postman-nested-1000', 'collection.json'), JSON.stringify({ info: postmanInfo, item: [nested] })), expect: 'endpoints', minEndpoints: 1 });
  let nested100k = '{"name":"leaf","request":{"method":"GET","url":"https://example.test/deep"}}';
  for (let i = 0; i < 20_000; i++) nested100k = `{"name":"f","item":[${nested100k}]}`;
  add({ name: 'postman-nested-20k', attack: 'Postman items nested 20,000 folders deep', file: write(at('postman-nested-20k', 'collection.json'), `{"info":${JSON.stringify(postmanInfo)},"item":[${nested100k}]}`), expect: 'any', timeoutMs: 20_000 });
  add({
    name: 'postman-no-url',
    attack: 'Postman requests with no URL, a null URL, an empty URL object, no method, a string request',
    file: write(
      at('postman-no-url', 'collection.json'),
      JSON.stringify({
        info: postmanInfo,
        item: [
          { name: 'no url', request: { method: 'GET' } },
          { name: 'null url', request: { method: 'GET', url: null } },
          { name: 'empty url', request: { method: 'POST', url: {} } },
          { name: 'empty raw', request: { method: 'GET', url: { raw: '' } } },
          { name: 'url number', request: { method: 'GET', url: 42 } },
          { name: 'no method', request: { url: 'https://example.test/no-method' } },
          { name: 'weird method', request: { method: 'BREW', url: 'https://example.test/coffee' } },
          { name: 'string request', request: 'https://example.test/string' },
          { name: 'null request', request: null },
          { name: 'item not array', item: 'x' },
          null,
          7,
          { name: 'fine', request: { method: 'GET', url: 'https://example.test/fine/:id' } },
        ],
      }),
    ),
    expect: 'endpoints',
    minEndpoints: 1,
  });
  add({ name: 'postman-item-wrong', attack: 'Postman collection whose item is an object', file: write(at('postman-item-wrong', 'collection.json'), JSON.stringify({ info: postmanInfo, item: { name: 'x' } })), expect: 'any' });

  // --- Not a regular file ----------------------------------------------------------------------------
  const dirAsFile = at('directory-as-file', 'spec.yaml');
  mkdirSync(dirAsFile, { recursive: true });
  add({ name: 'directory-as-file', attack: 'the spec path is a folder', file: dirAsFile, expect: 'error', timeoutMs: 5_000 });
  add({ name: 'missing-file', attack: 'the spec file does not exist', file: at('missing-file', 'spec.yaml'), expect: 'error', timeoutMs: 5_000 });
  try {
    const fifo = at('fifo', 'spec.yaml');
    mkdirSync(dirname(fifo), { recursive: true });
    execFileSync('mkfifo', [fifo]);
    add({ name: 'fifo', attack: 'the spec path is a named pipe nobody writes to (reading it blocks forever)', file: fifo, expect: 'error', timeoutMs: 5_000 });
  } catch {
    // No mkfifo here: the case is left out.
  }

  return cases;
}
