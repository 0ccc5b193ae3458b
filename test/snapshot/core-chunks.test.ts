// A core too large for one chunk (src/snapshot/codec.ts): the endpoints and the values they share
// are written as JSON arrays of about 128 KB each and decoded a chunk at a time, the decoder letting
// the thread go before each. A spec of thousands of endpoints (a generated description, imported for
// real) reads back as the import serves it, whichever way its chunks fall.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { decodeCore, specFromCore } from '../../src/snapshot/index.ts';
import { encodedCore, served, temp } from './support.ts';

const tmp = temp();
after(() => tmp.cleanup());

/** Paths enough that the endpoints' JSON and their (all different) parameters pass several chunks. */
function large(count: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    paths[`/area${i % 37}/item${i}/{id}`] = {
      get: {
        operationId: `getItem${i}`,
        summary: `Read item ${i} of area ${i % 37}`,
        description: `Item ${i}: ${'words that describe it at some length, '.repeat(3)}`,
        tags: [`area${i % 37}`],
        parameters: [
          { name: 'id', in: 'path', required: true, description: `The id of item ${i}, as the listing gave it`, schema: { type: 'string' } },
          { name: `filter${i}`, in: 'query', description: `Filter ${i} narrows what comes back by a field of item ${i}`, schema: { type: 'integer', maximum: i } },
        ],
        responses: { '200': { description: `Item ${i} found` }, '404': { description: 'No such item' } },
      },
    };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Large', version: '1' }, paths });
}

let spec: ImportedSpec;
let core: Buffer;

before(async () => {
  const file = path.join(tmp.dir, 'large.json');
  writeFileSync(file, large(1500));
  const outcome = await importSpec(file, { name: 'large', collection: 'default' });
  assert.ok(outcome.ok);
  spec = outcome.spec;
  core = encodedCore(spec);
});

/** The head's chunk counts and each part's length, as framed. */
function framing(bytes: Buffer): { shared: number; endpoints: number; lengths: number[] } {
  const count = bytes.readUInt32LE(0);
  const lengths = Array.from({ length: count }, (_, i) => bytes.readUInt32LE(4 * (i + 1)));
  const at = 4 * (count + 1);
  const head = JSON.parse(bytes.toString('utf8', at, at + lengths[0]!)) as { sharedChunks: number; endpointChunks: number };
  return { shared: head.sharedChunks, endpoints: head.endpointChunks, lengths };
}

describe('a core of many chunks', () => {
  it('cuts its endpoints and shared values into chunks of about 128 KB', () => {
    const { shared, endpoints, lengths } = framing(core);
    assert.ok(shared >= 2, `${shared} chunks of shared values`);
    assert.ok(endpoints >= 2, `${endpoints} endpoint chunks`);
    // Every chunk but the last of each kind passes 128 KB of JSON (characters), none by more than one item.
    for (const [from, n] of [[3, shared], [3 + shared, endpoints]] as const) {
      for (let i = from; i < from + n - 1; i++) assert.ok(lengths[i]! >= 128 * 1024 && lengths[i]! < 160 * 1024, `part ${i}: ${lengths[i]} bytes`);
      assert.ok(lengths[from + n - 1]! > 0 && lengths[from + n - 1]! < 160 * 1024);
    }
  });

  it('reads back as the import serves it, pausing before each chunk', async () => {
    const { shared, endpoints } = framing(core);
    let pauses = 0;
    const decoded = await decodeCore(new Uint8Array(core), async () => {
      pauses++;
    });
    assert.equal(pauses, shared + endpoints);
    assert.equal(decoded.endpoints.length, 1500);
    const back = specFromCore(decoded, undefined);
    assert.deepEqual(back.endpoints.map((e) => [e.id, e.description, e.parameters.map((p) => p.description)]), spec.endpoints.map((e) => [e.id, e.description, e.parameters.map((p) => p.description)]));
    assert.deepEqual(served(back), served(spec));
  });
});
