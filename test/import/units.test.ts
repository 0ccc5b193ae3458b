// Small pieces of the importer: unique ids, format detection, the external-ref pre-scan,
// on-demand schema resolution limits, and importAll's order and progress.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { EndpointIds, importAll, importSpec, uniqueIds } from '../../src/import/index.ts';
import { detectFormat } from '../../src/import/detect.ts';
import { hasExternalRefs } from '../../src/import/read.ts';
import { DEFAULTS, type SpecConfig } from '../../src/config/types.ts';
import { FIXTURES } from './golden.ts';

test('colliding method+path ids get #2, #3 in document order', () => {
  const ids = new EndpointIds();
  assert.equal(ids.next('s', 'GET', '/a'), 's:GET:/a');
  assert.equal(ids.next('s', 'GET', '/a'), 's:GET:/a#2');
  assert.equal(ids.next('s', 'POST', '/a'), 's:POST:/a');
  assert.equal(ids.next('s', 'GET', '/a'), 's:GET:/a#3');
  assert.deepEqual(uniqueIds('s', [{ method: 'GET', path: '/x' }, { method: 'GET', path: '/x' }]), ['s:GET:/x', 's:GET:/x#2']);
});

test('a suffixed id never equals a literal path that ends in the same suffix', () => {
  const ids = new EndpointIds();
  const all = [ids.next('s', 'GET', '/a#2'), ids.next('s', 'GET', '/a'), ids.next('s', 'GET', '/a')];
  assert.equal(new Set(all).size, 3, all.join(' '));
});

test('formats are detected from content', () => {
  const cases: [unknown, string | undefined][] = [
    [{ openapi: '3.0.3' }, 'openapi-3.0'],
    [{ openapi: 3.0 }, 'openapi-3.0'],
    [{ openapi: 3.1 }, 'openapi-3.1'],
    [{ openapi: '3.1.0' }, 'openapi-3.1'],
    [{ openapi: '3.2.0' }, 'openapi-3.1'],
    [{ swagger: '2.0' }, 'swagger-2.0'],
    [{ swagger: 2 }, 'swagger-2.0'],
    [{ info: { schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' }, item: [] }, 'postman-2.0'],
    [{ info: { schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [] }, 'postman-2.1'],
    [{ item: [], info: { name: 'no schema' } }, 'postman-2.1'],
    [{ openapi: '2.0' }, undefined],
    [{ swagger: '1.2' }, undefined],
    [{ info: { title: 'x' } }, undefined],
    ['text', undefined],
  ];
  for (const [doc, format] of cases) {
    const d = detectFormat(doc);
    assert.equal(d.ok ? d.format : undefined, format, JSON.stringify(doc));
  }
  const numeric = detectFormat({ openapi: 3.1 });
  assert.ok(numeric.ok && numeric.formatVersion === '3.1');
  const newer = detectFormat({ openapi: '3.2.0' });
  assert.ok(newer.ok && newer.warning?.includes('3.2.0'));
});

test('the pre-scan finds external refs and ignores local ones and $ref-named properties', () => {
  assert.equal(hasExternalRefs('{"$ref": "#/components/schemas/A"}'), false);
  assert.equal(hasExternalRefs('{"$ref" : "other.json#/A"}'), true);
  assert.equal(hasExternalRefs("a:\n  $ref: '#/x'\n"), false);
  assert.equal(hasExternalRefs('a:\n  $ref: ./paths/a.yaml\n'), true);
  assert.equal(hasExternalRefs('a:\n  $ref: "paths/a.yaml#/get"\n'), true);
  assert.equal(hasExternalRefs('{"properties": {"$ref": {"type": "string"}}}'), false);
  assert.equal(hasExternalRefs('properties:\n  $ref:\n    type: string\n'), false);
  assert.equal(hasExternalRefs('description: use $ref to link'), false);
});

test('schema resolution marks cycles, truncates past maxDepth and reports missing targets', async () => {
  const outcome = await importSpec(path.join(FIXTURES, 'circular/openapi.json'), { name: 'c', collection: 'c' });
  assert.ok(outcome.ok);
  const schema = outcome.spec.endpoints[0]!.responses[0]!.schema!;
  const full = outcome.spec.schemas.resolve(schema) as { properties: { parent: unknown } };
  assert.deepEqual(full.properties.parent, { $circular: '#/components/schemas/Node' });
  assert.doesNotThrow(() => JSON.stringify(full));
  const shallow = outcome.spec.schemas.resolve(schema, { maxDepth: 2 }) as { properties: unknown };
  assert.deepEqual(shallow.properties, { $truncated: 'depth' });
  const top = outcome.spec.schemas.shallow(schema);
  assert.equal((top.node as { type: string }).type, 'object');
  const missing = outcome.spec.schemas.resolve({ file: schema.file, node: { $ref: '#/components/schemas/Nope' } }) as { $unresolved: string };
  assert.equal(missing.$unresolved, '#/components/schemas/Nope');
});

test('importAll imports in config order and reports progress for each spec', async () => {
  const spec = (name: string, rel: string): SpecConfig => ({
    path: path.join(FIXTURES, rel), name, collection: 'c', allowRemoteRefs: false, allowRefsFrom: [],
    serverVariables: {}, allowedOrigins: [], writes: 'deny', auth: [], headers: {}, timeoutMs: 1000, retries: 0,
  });
  const specs = [spec('b', 'trace-skipped/openapi.yaml'), spec('a', 'broken-yaml/openapi.yaml'), spec('c', 'bom-json/openapi.json')];
  const seen: string[] = [];
  const outcomes = await importAll(specs, { maxSpecBytes: DEFAULTS.maxSpecBytes }, (p) => seen.push(`${p.index + 1}/${p.total} ${p.spec.name} ${p.outcome.ok}`));
  assert.deepEqual(seen, ['1/3 b true', '2/3 a false', '3/3 c true']);
  assert.deepEqual(outcomes.map((o) => (o.ok ? o.spec.name : o.name)), ['b', 'a', 'c']);
});
