// A core's endpoints refer by number to the strings and shared values its head and shared chunks
// hold (src/snapshot/endpoint-image.ts, Expander). A core whose numbers do not fit what it holds is
// refused with an error that says which kind (the daemon's note shows it, and the spec is imported
// again), never decoded into endpoints with missing or wrong fields.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import { decodeCore } from '../../src/snapshot/index.ts';
import { coreParts, decodeRefusal, encodedCore, framedParts } from './support.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/import/oas30-params/openapi.yaml');

type Item = Record<string, unknown>;
let parts: Buffer[];
let head: Record<string, unknown>;

before(async () => {
  const outcome = await importSpec(FIXTURE, { name: 's', collection: 'default' });
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  parts = coreParts(encodedCore(spec));
  head = JSON.parse(parts[0]!.toString('utf8')) as Record<string, unknown>;
  assert.equal(head['sharedChunks'], 1, 'the fixture\'s shared values are one chunk');
  assert.equal(head['endpointChunks'], 1, 'and its endpoints one');
});

/** The core with its head, shared values and endpoints edited. */
function edited(edit: { head?: (h: Record<string, unknown>) => void; shared?: (s: unknown[]) => void; endpoints?: (e: Item[]) => void }): Uint8Array {
  const h = structuredClone(head);
  const shared = JSON.parse(parts[3]!.toString('utf8')) as unknown[];
  const endpoints = JSON.parse(parts[4]!.toString('utf8')) as Item[];
  edit.head?.(h);
  edit.shared?.(shared);
  edit.endpoints?.(endpoints);
  return framedParts([Buffer.from(JSON.stringify(h)), parts[1]!, parts[2]!, Buffer.from(JSON.stringify(shared)), Buffer.from(JSON.stringify(endpoints)), ...parts.slice(5)]);
}

const first = (e: Item[]): Item => e[0]!;
const sharedCount = (): number => (JSON.parse(parts[3]!.toString('utf8')) as unknown[]).length;
const stringCount = (): number => (head['strings'] as string[]).length;

describe('a core whose endpoints do not fit its tables', () => {
  it('decodes as it is when nothing is edited', async () => {
    const decoded = await decodeCore(edited({}));
    assert.ok(decoded.endpoints.length > 1);
    assert.equal(decoded.endpoints[0]!.spec, 's');
  });

  const cases: [string, Parameters<typeof edited>[0], string][] = [
    ['strings that are not a list', { head: (h) => (h['strings'] = { 0: 'a' }) }, 'spec image tables are not lists'],
    ['a source past the strings', { endpoints: (e) => (first(e)['source'] = stringCount()) }, 'spec image refers to a string it does not hold'],
    ['a source that is text', { endpoints: (e) => (first(e)['source'] = '1') }, 'spec image refers to a string it does not hold'],
    ['a parameter past the shared values', { endpoints: (e) => (first(e)['parameters'] = [sharedCount()]) }, 'spec image refers to a value it does not hold'],
    ['a parameter numbered -1', { endpoints: (e) => (first(e)['parameters'] = [-1]) }, 'spec image refers to a value it does not hold'],
    ['servers as text', { endpoints: (e) => (first(e)['servers'] = '1') }, 'spec image refers to a value it does not hold'],
    ['parameters that are not a list', { endpoints: (e) => (first(e)['parameters'] = 3) }, 'spec image list is not a list'],
    ['responses that are not a list', { endpoints: (e) => (first(e)['responses'] = { 0: 7 }) }, 'spec image list is not a list'],
    ['a parameter that is not an object', { endpoints: (e) => (first(e)['parameters'] = [0]), shared: (s) => (s[0] = 5) }, 'spec image value is not shaped right'],
    ['a parameter that is null', { endpoints: (e) => (first(e)['parameters'] = [0]), shared: (s) => (s[0] = null) }, 'spec image value is not shaped right'],
    ['an id that is not text', { endpoints: (e) => (first(e)['id'] = 7) }, 'spec image endpoint id is not text'],
  ];
  for (const [label, edit, message] of cases) {
    it(`refused: ${label}`, async () => {
      assert.equal(await decodeRefusal(edited(edit)), message);
    });
  }

  it('an id of its own is kept, text as given', async () => {
    const decoded = await decodeCore(edited({ endpoints: (e) => (first(e)['id'] = 's:GET:/pets/{petId}#2') }));
    assert.equal(decoded.endpoints[0]!.id, 's:GET:/pets/{petId}#2');
  });
});
