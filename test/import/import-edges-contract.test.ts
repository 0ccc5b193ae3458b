// Edges of importing one file, from the contract of importSpec and the document set: what cannot
// be read fails with a code, message and hint naming the file; parse and format warnings carry the
// file; a broken or ill-typed operation, parameter or referenced file is one warning at its
// pointer while the rest imports; what comes from one source node is built once and shared; and a
// long walk hands the thread back so the daemon keeps answering while it imports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import { walkOperations } from '../../src/import/common.ts';
import { DocumentSet } from '../../src/import/documents.ts';
import type { ImportedSpec, ImportOutcome } from '../../src/model/index.ts';

let dir: string;
let serial = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-import-edges-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function outcome(text: string, ext = 'json'): Promise<ImportOutcome> {
  return importSpec(write(`e${serial++}.${ext}`, text), { name: 's', collection: 'c' });
}

async function load(doc: object | string, ext = 'json'): Promise<ImportedSpec> {
  const o = await outcome(typeof doc === 'string' ? doc : JSON.stringify(doc), ext);
  assert.ok(o.ok, JSON.stringify(!o.ok && o.errors));
  return o.spec;
}

const oas = (paths: object, extra: object = {}): object => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, ...extra });
const ok = { '200': { description: 'OK' } };
const brief = (spec: ImportedSpec) => spec.warnings.map((w) => ({ code: w.code, message: w.message, pointer: w.pointer, file: w.file }));

describe('files that cannot be imported', () => {
  test('a folder given as the spec fails as not a regular file, naming it, with what to do', async () => {
    const folder = join(dir, 'a-folder.json');
    mkdirSync(folder);
    const o = await importSpec(folder, { name: 's', collection: 'c' });
    assert.equal(o.ok, false);
    assert.ok(!o.ok);
    assert.deepEqual(o.errors, [{ severity: 'error', file: folder, code: 'file-not-regular', message: 'not a regular file', hint: 'Point the spec path at a file.' }]);
    assert.equal('format' in o, false);
    assert.deepEqual(o.files, []);
  });
});

describe('warnings about the whole document', () => {
  test('a newer OpenAPI version is read as 3.1 with a format-version warning naming the file', async () => {
    const spec = await load({ openapi: '3.2.0', info: { title: 't', version: '1' }, paths: {} });
    assert.equal(spec.format, 'openapi-3.1');
    assert.equal(spec.formatVersion, '3.2.0');
    assert.deepEqual(spec.warnings.map((w) => ({ severity: w.severity, code: w.code, message: w.message, file: w.file })), [
      { severity: 'warning', code: 'format-version', message: 'OpenAPI 3.2.0 is read as OpenAPI 3.1; newer features are ignored', file: spec.file },
    ]);
  });

  test('YAML warnings come through as warnings of the file, with their line', async () => {
    const spec = await load('openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\nx-tagged: !custom 1\n', 'yaml');
    const yaml = spec.warnings.filter((w) => w.code === 'yaml-warning');
    assert.ok(yaml.length >= 1, JSON.stringify(spec.warnings));
    for (const w of yaml) {
      assert.equal(w.severity, 'warning');
      assert.equal(w.file, spec.file);
      assert.equal(w.line, 4);
      assert.ok(w.message.length > 0);
    }
  });
});

describe('operations and parameters that cannot be used', () => {
  test('an operation whose $ref is broken is warned with the method, path and pointer, under the lookup\'s own code', async () => {
    const spec = await load(oas({ '/x': { get: { $ref: '#/components/x-ops/missing' }, put: { responses: ok } } }));
    assert.deepEqual(spec.endpoints.map((e) => e.method), ['PUT']);
    const [w] = brief(spec);
    assert.equal(spec.warnings.length, 1);
    assert.equal(w!.code, 'ref-missing');
    assert.match(w!.message, /^GET \/x: \$ref "#\/components\/x-ops\/missing": nothing at/);
    assert.equal(w!.pointer, '/paths/~1x/get');
    assert.equal(w!.file, spec.file);
  });

  test('an operation or path item that is an array is not an object: warned and skipped', async () => {
    const spec = await load(oas({ '/a': { get: [], post: { responses: ok } }, '/b': [] }));
    assert.deepEqual(spec.endpoints.map((e) => `${e.method} ${e.path}`), ['POST /a']);
    assert.deepEqual(brief(spec).map((w) => [w.code, w.message, w.pointer]), [
      ['operation-invalid', 'GET /a: operation is not an object (an array); skipped', '/paths/~1a/get'],
      ['path-item-invalid', 'path item /b is not an object (an array); skipped', '/paths/~1b'],
    ]);
  });

  test('a parameter with $ref is its target: name and in written beside the $ref do not count', async () => {
    const spec = await load(
      oas(
        { '/x': { get: { parameters: [{ $ref: '#/components/parameters/Limit', name: 'other', in: 'header' }], responses: ok } } },
        { components: { parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } } } },
      ),
    );
    assert.deepEqual(spec.endpoints[0]!.parameters.map((p) => [p.name, p.in, p.type]), [['limit', 'query', 'integer']]);
    assert.deepEqual(spec.warnings, []);
  });

  test('a null, a number or an array in a parameter list is warned at its place and dropped', async () => {
    const spec = await load(oas({ '/x': { get: { parameters: [null, 3, [], { name: 'q', in: 'query' }], responses: ok } } }));
    assert.deepEqual(spec.endpoints[0]!.parameters.map((p) => p.name), ['q']);
    assert.deepEqual(brief(spec).map((w) => [w.code, w.message, w.pointer]), [
      ['parameter-invalid', 'parameter is not an object (null); ignored', '/paths/~1x/get/parameters/0'],
      ['parameter-invalid', 'parameter is not an object (a number); ignored', '/paths/~1x/get/parameters/1'],
      ['parameter-invalid', 'parameter is not an object (an array); ignored', '/paths/~1x/get/parameters/2'],
    ]);
  });

  test('a referenced parameter in a location OpenAPI 3 does not have is warned where it is defined', async () => {
    const spec = await load(
      oas(
        { '/x': { get: { parameters: [{ $ref: '#/components/parameters/Body' }], responses: ok } } },
        { components: { parameters: { Body: { name: 'b', in: 'body' } } } },
      ),
    );
    assert.deepEqual(spec.endpoints[0]!.parameters, []);
    assert.deepEqual(brief(spec).map((w) => [w.code, w.pointer]), [['parameter-invalid', '/components/parameters/Body']]);
  });
});

describe('one source node, one object', () => {
  test('a referenced parameter and a referenced response are one shared object across endpoints, in both formats', async () => {
    const oa = await load(
      oas(
        {
          '/a': { get: { parameters: [{ $ref: '#/components/parameters/P' }], responses: { '200': { $ref: '#/components/responses/R' } } } },
          '/b': { get: { parameters: [{ $ref: '#/components/parameters/P' }], responses: { '200': { $ref: '#/components/responses/R' } } } },
        },
        { components: { parameters: { P: { name: 'p', in: 'query' } }, responses: { R: { description: 'r' } } } },
      ),
    );
    const [a, b] = oa.endpoints;
    assert.equal(a!.parameters[0], b!.parameters[0]);
    assert.equal(a!.responses[0], b!.responses[0]);
    const sw = await load({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      parameters: { P: { name: 'p', in: 'query', type: 'string' } },
      paths: { '/a': { get: { parameters: [{ $ref: '#/parameters/P' }], responses: ok } }, '/b': { get: { parameters: [{ $ref: '#/parameters/P' }], responses: ok } } },
    });
    assert.equal(sw.endpoints[0]!.parameters[0], sw.endpoints[1]!.parameters[0]);
  });
});

describe('a long walk', () => {
  test('hands the thread back while it walks tens of thousands of operations, so timers run between them', async () => {
    const paths: Record<string, object> = {};
    for (let i = 0; i < 20_000; i++) paths[`/r${i}/{id}`] = { get: { parameters: [{ name: 'id', in: 'path' }], responses: ok } };
    const docs = new DocumentSet('/virtual/root.json', oas(paths), Buffer.alloc(0));
    const ctx = { file: '/virtual/root.json', spec: 's', collection: 'c', warn: () => {} };
    let ticks = 0;
    let first: { at: number; ticks: number } | undefined;
    let last = { at: 0, ticks: 0 };
    let visits = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await walkOperations(docs, ['paths'], ctx, () => {
        visits++;
        last = { at: performance.now(), ticks };
        first ??= last;
      });
    } finally {
      clearInterval(timer);
    }
    assert.equal(visits, 20_000);
    // Visits run synchronously between hand-backs: only a hand-back lets the interval tick.
    const took = last.at - first!.at;
    if (took > 120) assert.ok(last.ticks - first!.ticks >= 1, `no timer ran during a ${Math.round(took)} ms walk`);
  });
});

describe('the document set', () => {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  test('digest is the sha256 of the bytes read for a file, and nothing for a file not read', () => {
    const bytes = Buffer.from('{"openapi":"3.0.3"}');
    const set = new DocumentSet('/r/root.json', {}, bytes);
    assert.equal(set.digest('/r/root.json'), sha(bytes));
    assert.equal(set.digest('/r/other.json'), undefined);
  });

  test('a set made from documents parsed earlier looks refs up across them; files whose bytes were not read do not change the hash', () => {
    const docs = new Map<string, unknown>([
      ['/r/root.json', { a: { $ref: 'other.json#/b' } }],
      ['/r/other.json', { b: { type: 'string' } }],
    ]);
    const set = DocumentSet.fromDocs(docs);
    assert.equal(set.root, '/r/root.json');
    assert.deepEqual(set.files, ['/r/root.json', '/r/other.json']);
    assert.deepEqual(set.doc('/r/other.json'), { b: { type: 'string' } });
    const t = set.deref({ $ref: 'other.json#/b' }, '/r/root.json', '/a');
    assert.deepEqual(t, { ok: true, file: '/r/other.json', pointer: '/b', node: { type: 'string' } });
    assert.equal(set.hash, DocumentSet.fromDocs(new Map([['/r/root.json', {}]])).hash);
    assert.equal(set.hash, createHash('sha256').update(sha(Buffer.alloc(0))).digest('hex'));
  });

  test('a $ref to a string, number or null names the kind of value only', async () => {
    const spec = await load(
      oas({ '/x': { get: { parameters: [{ $ref: '#/components/x-v/s' }, { $ref: '#/components/x-v/n' }, { $ref: '#/components/x-v/z' }], responses: ok } } }, {
        components: { 'x-v': { s: 'secret-looking text', n: 4, z: null } },
      }),
    );
    const messages = spec.warnings.map((w) => w.message.replace(/ in \S+ is /, ' in F is '));
    assert.deepEqual(messages, [
      'parameter: $ref "#/components/x-v/s": the value at #/components/x-v/s in F is a string, not an object (a schema or an object is expected here)',
      'parameter: $ref "#/components/x-v/n": the value at #/components/x-v/n in F is a number, not an object (a schema or an object is expected here)',
      'parameter: $ref "#/components/x-v/z": the value at #/components/x-v/z in F is null, not an object (a schema or an object is expected here)',
    ]);
    assert.doesNotMatch(JSON.stringify(spec.warnings), /secret-looking/);
  });
});

describe('referenced files', () => {
  test('an external JSON file with a syntax error is a warning naming the file, line and column', async () => {
    const sub = mkdtempSync(join(dir, 'ext-'));
    const broken = join(sub, 'broken.json');
    writeFileSync(broken, '{\n  "a": 1,\n  "b": oops\n}\n');
    const root = join(sub, 'root.json');
    writeFileSync(root, JSON.stringify(oas({ '/x': { get: { responses: { '200': { description: 'd', content: { 'application/json': { schema: { $ref: 'broken.json#/a' } } } } } } } })));
    const o = await importSpec(root, { name: 's', collection: 'c' });
    assert.ok(o.ok);
    const w = o.spec.warnings.find((x) => x.code === 'ref-file-invalid');
    assert.ok(w, JSON.stringify(o.spec.warnings));
    assert.ok(w.message.includes(`${broken} at line 3, column 8: JSON syntax error`), w.message);
    assert.equal(w.file, root); // placed at the $ref that asked for the file
  });

  test('a $ref with a stray percent sign is read by its name as written', async () => {
    const sub = mkdtempSync(join(dir, 'pct-'));
    writeFileSync(join(sub, '100%zz.json'), JSON.stringify({ S: { type: 'boolean' } }));
    const root = join(sub, 'root.json');
    writeFileSync(root, JSON.stringify(oas({ '/x': { get: { parameters: [{ name: 'q', in: 'query', schema: { $ref: '100%zz.json#/S' } }], responses: ok } } })));
    const o = await importSpec(root, { name: 's', collection: 'c' });
    assert.ok(o.ok);
    assert.deepEqual(o.spec.warnings, []);
    assert.equal(o.spec.endpoints[0]!.parameters[0]!.type, 'boolean');
    assert.deepEqual(o.spec.files, [root, join(sub, '100%zz.json')]);
  });

  test('a folder under allowRefsFrom that does not exist allows nothing and breaks nothing', async () => {
    const sub = mkdtempSync(join(dir, 'allow-'));
    writeFileSync(join(sub, 'other.json'), JSON.stringify({ S: { type: 'string' } }));
    const root = join(sub, 'root.json');
    writeFileSync(root, JSON.stringify(oas({ '/x': { get: { parameters: [{ name: 'q', in: 'query', schema: { $ref: 'other.json#/S' } }], responses: ok } } })));
    const o = await importSpec(root, { name: 's', collection: 'c', allowRefsFrom: [join(dir, 'no-such-folder')] });
    assert.ok(o.ok);
    assert.deepEqual(o.spec.warnings, []);
    assert.equal(o.spec.endpoints[0]!.parameters[0]!.type, 'string');
  });
});

describe('Postman', () => {
  test('an apikey auth without a key name is kept as an unusable scheme, not dropped', async () => {
    const spec = await load({
      info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: 'One', request: { method: 'GET', url: 'https://api.example.com/one', auth: { type: 'apikey', apikey: [{ key: 'value', value: 'k' }] } } }],
    });
    assert.deepEqual(spec.securitySchemes, { apikey: { type: 'other', description: 'Postman apikey auth without a key name' } });
    assert.deepEqual(spec.endpoints[0]!.security, [{ apikey: [] }]);
  });
});
