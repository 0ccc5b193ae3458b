// What counts as a changed endpoint, on real imports of real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSpec } from '../../src/import/index.ts';
import { diffSpecs } from '../../src/daemon/diff.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

function doc(tagType: string, extraLine = ''): string {
  return `openapi: 3.0.3
info: { title: Pets, version: '1' }
paths:
${extraLine}  /pets:
    get:
      summary: List pets
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
  /pets/{id}:
    get:
      summary: Get a pet
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
  /owners:
    get:
      summary: List owners
      responses: { '200': { description: OK } }
components:
  schemas:
    Pet:
      type: object
      properties: { name: { type: string }, tag: { $ref: '#/components/schemas/Tag' }, parent: { $ref: '#/components/schemas/Pet' } }
    Tag:
      type: ${tagType}
`;
}

async function imported(dir: string, name: string, text: string): Promise<ImportedSpec> {
  const file = join(dir, name);
  writeFileSync(file, text);
  const o = await importSpec(file, { name: 'pets', collection: 'default' });
  assert.ok(o.ok, JSON.stringify(!o.ok && o.errors));
  return o.spec;
}

test('a change deep in a referenced schema marks every endpoint that reaches it, through nested and circular refs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-diff-'));
  try {
    const a = await imported(dir, 'a.yaml', doc('string'));
    const same = await imported(dir, 'b.yaml', doc('string'));
    const tagChanged = await imported(dir, 'c.yaml', doc('integer'));
    const moved = await imported(dir, 'd.yaml', doc('string', '  /zzz: {}\n'));
    assert.deepEqual(diffSpecs(a, same), { added: [], removed: [], changed: [] });
    assert.deepEqual(diffSpecs(a, tagChanged), { added: [], removed: [], changed: ['pets:GET:/pets', 'pets:GET:/pets/{id}'] });
    assert.deepEqual(diffSpecs(a, moved).changed, [], 'an endpoint that only moved in its file is unchanged');
    assert.deepEqual(diffSpecs(undefined, a).added, ['pets:GET:/pets', 'pets:GET:/pets/{id}', 'pets:GET:/owners']);
    assert.deepEqual(diffSpecs(a, undefined).removed.length, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
