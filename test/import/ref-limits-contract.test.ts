// The limits a spec's own settings put on what its $refs read, from the contract of importSpec and
// importAll: the size limit applies to every referenced file as to the root, a link's target must
// itself be a description file, a drive-letter-like name is a file name and not a URL scheme, and
// every import says how long it took.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULTS, type SpecConfig } from '../../src/config/types.ts';
import { DocumentSet } from '../../src/import/documents.ts';
import { importAll, importSpec } from '../../src/import/index.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-import-limits-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const ok = { '200': { description: 'OK' } };
/** A root document whose one parameter's schema is `$ref: <ref>`. */
const rootRefs = (ref: string): string =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/x': { get: { parameters: [{ name: 'q', in: 'query', schema: { $ref: ref } }], responses: ok } } } });

describe('size limits', () => {
  test('maxSpecBytes bounds each referenced file too: one over it is a warning, one within it loads', async () => {
    const sub = mkdtempSync(join(dir, 'size-'));
    const root = join(sub, 'root.json');
    writeFileSync(root, rootRefs('big.json#/S'));
    const big = JSON.stringify({ S: { type: 'string', description: 'x'.repeat(2_000) } });
    writeFileSync(join(sub, 'big.json'), big);
    const limit = statSync(root).size + 100;
    assert.ok(Buffer.byteLength(big) > limit);

    const refused = await importSpec(root, { name: 's', collection: 'c', maxSpecBytes: limit });
    assert.ok(refused.ok);
    const w = refused.spec.warnings.find((x) => x.code === 'ref-file-too-large');
    assert.ok(w, JSON.stringify(refused.spec.warnings));
    assert.match(w.message, new RegExp(`above the limit of ${limit} bytes`));
    assert.equal(refused.spec.endpoints[0]!.parameters[0]!.type, 'any');

    const loaded = await importSpec(root, { name: 's', collection: 'c', maxSpecBytes: Buffer.byteLength(big) });
    assert.ok(loaded.ok);
    assert.deepEqual(loaded.spec.warnings, []);
    assert.equal(loaded.spec.endpoints[0]!.parameters[0]!.type, 'string');
  });

  test('importAll passes the configured size limit to each import', async () => {
    const file = join(dir, 'all.json');
    writeFileSync(file, rootRefs('#/nothing'));
    const spec: SpecConfig = {
      path: file, name: 'a', collection: 'c', allowRemoteRefs: false, allowRefsFrom: [],
      serverVariables: {}, allowedOrigins: [], writes: 'deny', auth: [], headers: {}, timeoutMs: 1000, retries: 0,
    };
    const [small] = await importAll([spec], { maxSpecBytes: 10 });
    assert.ok(small && !small.ok);
    assert.equal(small.errors[0]!.code, 'file-too-large');
    const [fits] = await importAll([spec], { maxSpecBytes: DEFAULTS.maxSpecBytes });
    assert.ok(fits?.ok);
  });

  test('every import records how long it took', async () => {
    const file = join(dir, 'timed.json');
    writeFileSync(file, rootRefs('#/nothing'));
    const o = await importSpec(file, { name: 's', collection: 'c' });
    assert.ok(o.ok);
    assert.ok(o.spec.importMs > 0, String(o.spec.importMs));
    assert.ok(o.spec.importMs < 60_000);
  });
});

describe('what a $ref may name', () => {
  test('a link named like a description file whose target is a dotfile is refused', async () => {
    const sub = mkdtempSync(join(dir, 'link-'));
    writeFileSync(join(sub, '.secrets'), JSON.stringify({ S: { type: 'string' } }));
    symlinkSync(join(sub, '.secrets'), join(sub, 'schemas.json'));
    const root = join(sub, 'root.json');
    writeFileSync(root, rootRefs('schemas.json#/S'));
    const o = await importSpec(root, { name: 's', collection: 'c' });
    assert.ok(o.ok);
    assert.deepEqual(o.spec.warnings.map((w) => w.code), ['ref-not-description-file']);
    assert.equal(o.spec.endpoints[0]!.parameters[0]!.type, 'any');
    assert.deepEqual(o.spec.files, [root]);
  });

  test('one letter before a colon is part of a file name (as a drive letter is), not a URL scheme; two or more are a scheme', () => {
    const docs = DocumentSet.fromDocs(new Map<string, unknown>([['/r/root.json', {}], ['/r/c:x.json', { a: { type: 'string' } }]]));
    assert.deepEqual(docs.lookup('c:x.json#/a', '/r/root.json'), { ok: true, file: '/r/c:x.json', pointer: '/a', node: { type: 'string' } });
    const scheme = docs.lookup('cx:x.json#/a', '/r/root.json');
    assert.equal(scheme.ok, false);
    assert.equal(!scheme.ok && scheme.code, 'ref-unsupported');
  });
});
