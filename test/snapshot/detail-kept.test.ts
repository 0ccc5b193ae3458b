// Only a few specs keep their documents parsed and their snapshot file open (src/snapshot/detail.ts):
// a daemon serving hundreds of specs from snapshot files must not hold a descriptor and a parsed
// document per spec whose schemas were once read. A spec dropped from the few reads its documents
// again when next asked, and gives the same schemas.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec, SchemaLink } from '../../src/model/index.ts';
import { decodeCore, readSnapshot, specFromCore, writeSnapshot } from '../../src/snapshot/index.ts';
import { encodedCore, encodedLate, temp } from './support.ts';

/** Descriptors this process holds open on snapshot files. */
function openSnapshots(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).endsWith('.snap')) n++;
    } catch {
      // Closed meanwhile (the listing's own descriptor).
    }
  }
  return n;
}

function description(i: number): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: `Spec ${i}`, version: '1' },
    paths: { [`/things${i}`]: { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } } },
    components: { schemas: { Thing: { type: 'object', description: `The thing of spec ${i}`, properties: { id: { type: 'string' } } } } },
  });
}

async function fromSnapshot(dir: string, i: number): Promise<ImportedSpec> {
  const file = path.join(dir, `spec${i}.json`);
  writeFileSync(file, description(i));
  const outcome = await importSpec(file, { name: `s${i}`, collection: 'default' });
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  const key = String(i).padStart(40, '0');
  const cache = path.join(dir, 'cache');
  await writeSnapshot(cache, key, encodedCore(spec), encodedLate(spec));
  const read = await readSnapshot(cache, key);
  assert.ok(read.ok);
  return specFromCore(await decodeCore(read.core), { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts });
}

const schemaOf = (spec: ImportedSpec): unknown => {
  const link = spec.endpoints[0]!.responses[0]!.schema as SchemaLink;
  return spec.schemas.resolve(link, { maxDepth: 8 });
};

it('at most three specs hold their snapshot file open; one dropped reads its schemas again, the same', { skip: existsSync('/proc/self/fd') ? false : 'needs /proc/self/fd' }, async () => {
  const tmp = temp();
  try {
    const specs: ImportedSpec[] = [];
    for (let i = 0; i < 7; i++) specs.push(await fromSnapshot(tmp.dir, i));
    const before = openSnapshots();
    const first = specs.map(schemaOf);
    first.forEach((s, i) => assert.match(JSON.stringify(s), new RegExp(`The thing of spec ${i}`)));
    assert.equal(openSnapshots() - before, 3, 'the three most recently read');
    // Read again in another order: the same schemas, still three files open.
    for (const i of [0, 6, 3, 1, 5, 2, 4, 0]) assert.deepEqual(schemaOf(specs[i]!), first[i]);
    assert.equal(openSnapshots() - before, 3);
  } finally {
    tmp.cleanup();
  }
});
