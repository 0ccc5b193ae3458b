// A Postman collection's folders and info, from the importer's contract: each request is tagged
// with the path of folder names above it (`(folder N)` for a folder without a name, N counting
// from 1 in its list), `info.version` is a string or the v2 object form, and the collection
// format's version is the `/vX.Y.Z/` part of the schema URL.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { docLoader } from './load-doc.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

const load = docLoader('svc-import-postman-');

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
let requestNo = 0;
const request = () => ({ name: `r${requestNo++}`, request: { method: 'GET', url: 'https://api.example.com/x' } });

interface Folder {
  readonly name: string | undefined;
  readonly children: readonly Node[];
}
type Node = { readonly request: true } | { readonly folder: Folder };

const tree: fc.Arbitrary<readonly Node[]> = fc.letrec<{ nodes: readonly Node[]; node: Node }>((tie) => ({
  nodes: fc.array(tie('node'), { maxLength: 3 }),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<Node>({ request: true }),
    fc.record({ name: fc.option(fc.constantFrom('Users', 'Admin', 'A b'), { nil: undefined }), children: tie('nodes') }).map((folder) => ({ folder }) as Node),
  ),
})).nodes;

/** The collection's items, and for each request's name the tag it should get. */
function build(nodes: readonly Node[], tag: string | undefined, expected: Map<string, string | undefined>): object[] {
  return nodes.map((n, i) => {
    if ('request' in n) {
      const r = request();
      expected.set(r.name, tag);
      return r;
    }
    const name = n.folder.name ?? `(folder ${i + 1})`;
    const inner = tag === undefined ? name : `${tag}/${name}`;
    return { ...(n.folder.name !== undefined ? { name: n.folder.name } : {}), item: build(n.folder.children, inner, expected) };
  });
}

describe('folders', () => {
  test('each request is tagged with the names of the folders above it, a nameless folder by its place', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (nodes) => {
        const expected = new Map<string, string | undefined>();
        const item = build(nodes, undefined, expected);
        const spec = await load({ info: { name: 'c', schema: SCHEMA }, item });
        const got = new Map(spec.endpoints.map((e) => [e.summary, e.tags]));
        assert.equal(got.size, expected.size);
        for (const [name, tag] of expected) assert.deepEqual(got.get(name), tag === undefined ? [] : [tag], name);
      }),
      { numRuns: 60 },
    );
  });
});

describe('info', () => {
  test('version: a string as written, the object form as major.minor.patch with missing parts 0 and a non-empty identifier after a dash, none without major', async () => {
    const cases: [unknown, string | undefined][] = [
      ['1.4', '1.4'],
      [{ major: 2 }, '2.0.0'],
      [{ major: 1, minor: 2, patch: 3 }, '1.2.3'],
      [{ major: 1, minor: 2, patch: 3, identifier: 'beta' }, '1.2.3-beta'],
      [{ major: 1, identifier: '' }, '1.0.0'],
      [{ major: 1, identifier: 7 }, '1.0.0'],
      [{ minor: 2, patch: 3 }, undefined],
      [undefined, undefined],
    ];
    for (const [version, expected] of cases) {
      const spec = await load({ info: { name: 'c', schema: SCHEMA, ...(version !== undefined ? { version } : {}) }, item: [request()] });
      assert.equal(spec.version, expected, JSON.stringify(version));
      assert.equal('version' in spec, expected !== undefined, JSON.stringify(version));
    }
  });

  test('the format version is the /vX.Y/ part of the schema URL, and none when the URL has no such part', async () => {
    const cases: [string, string | undefined][] = [
      [SCHEMA, 'v2.1.0'],
      ['https://schema.getpostman.com/json/collection/v2.0.0/collection.json', 'v2.0.0'],
      ['https://example.com/postman/v3/collection.json', 'v3'],
      ['https://example.com/postman/dev2.json', undefined],
      ['https://example.com/postman-dev2/collection.json', undefined],
      ['https://example.com/postman/v4', undefined],
    ];
    for (const [schema, expected] of cases) {
      const spec = await load({ info: { name: 'c', schema }, item: [request()] });
      assert.equal(spec.formatVersion, expected, schema);
    }
  });

  test('the collection name is the title; no name, no title', async () => {
    assert.equal((await load({ info: { name: 'Shop', schema: SCHEMA }, item: [request()] })).title, 'Shop');
    const untitled = await load({ info: { schema: SCHEMA }, item: [request()] });
    assert.equal('title' in untitled, false);
  });
});
