// diffSpecs' fingerprints from their contract, on real imports: fingerprintList gives one print per
// endpoint in endpoint order, equal for equal content; prints made elsewhere (presetFingerprints,
// as the import worker sends them) stand for the spec's own and keep standing on later diffs; an
// example that happens to hold a `node` key is content like any other; an endpoint too deep to
// print counts as changed on every diff rather than failing the update.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { diffSpecs, fingerprintList, NO_DIFF, presetFingerprints } from '../../src/daemon/diff.ts';
import { specImporter } from './support.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-diff-preset-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const imported = specImporter(dir);

const spec = (summary: string, example = '{ node: 1, name: a }'): string => `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /a:
    get:
      summary: ${summary}
      parameters: [{ name: q, in: query, schema: { type: object }, example: ${example} }]
      responses: { '200': { description: OK } }
  /b:
    post:
      summary: Post b
      responses: { '200': { description: OK } }
`;

const bytes = (prints: readonly string[]): Uint8Array => new TextEncoder().encode(JSON.stringify(prints));

test('fingerprintList: one print per endpoint, in order, equal exactly where the content is', async () => {
  const a = await imported(spec('Get a'));
  const same = await imported(spec('Get a'));
  const other = await imported(spec('Get another a'));
  const prints = fingerprintList(a);
  assert.equal(prints.length, 2);
  assert.ok(prints.every((p) => p.length > 0));
  assert.notEqual(prints[0], prints[1]);
  assert.deepEqual(fingerprintList(same), prints);
  const changed = fingerprintList(other);
  assert.notEqual(changed[0], prints[0]);
  assert.equal(changed[1], prints[1]);
});

test('preset prints stand for the spec: the same prints diff as unchanged, others as changed, also on the next diff', async () => {
  const a = await imported(spec('Get a'));
  const b = await imported(spec('Get a'));
  presetFingerprints(b, bytes(fingerprintList(a)));
  assert.deepEqual(diffSpecs(a, b), NO_DIFF);

  // Made-up prints: every endpoint differs from a, though the documents say the same.
  const c = await imported(spec('Get a'));
  presetFingerprints(c, bytes(['x', 'y']));
  assert.deepEqual(diffSpecs(a, c), { added: [], removed: [], changed: ['s:GET:/a', 's:POST:/b'] });
  assert.deepEqual(diffSpecs(c, a), { added: [], removed: [], changed: ['s:GET:/a', 's:POST:/b'] }, 'the preset prints are kept, not recomputed');

  // A list shorter than the endpoints: the missing prints are empty, so those endpoints differ.
  const d = await imported(spec('Get a'));
  presetFingerprints(d, bytes(fingerprintList(a).slice(0, 1)));
  assert.deepEqual(diffSpecs(a, d), { added: [], removed: [], changed: ['s:POST:/b'] });
});

test('an example with a node key is content: a change beside that key is a change', async () => {
  const a = await imported(spec('Get a', '{ node: 1, name: a }'));
  const b = await imported(spec('Get a', '{ node: 1, name: b }'));
  assert.deepEqual(diffSpecs(a, b), { added: [], removed: [], changed: ['s:GET:/a'] });
});

test('an endpoint too deep to print is changed on every diff, and the others are compared as usual', async () => {
  const a = await imported(spec('Get a'));
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 200_000; i++) deep = { d: deep };
  const deeper = (s: ImportedSpec): ImportedSpec => {
    const copy = Object.create(Object.getPrototypeOf(s) as object) as ImportedSpec;
    Object.assign(copy, s, { endpoints: s.endpoints.map((e, i) => (i === 0 ? { ...e, parameters: e.parameters.map((p) => ({ ...p, example: deep })) } : e)) });
    return copy;
  };
  const x = deeper(a);
  const y = deeper(a);
  assert.deepEqual(diffSpecs(x, y), { added: [], removed: [], changed: ['s:GET:/a'] });
  assert.deepEqual(diffSpecs(a, x), { added: [], removed: [], changed: ['s:GET:/a'] });
});
