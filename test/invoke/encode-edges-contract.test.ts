// Request body encoding at its edges: media types written with spaces around their parts, an
// `encoding` entry that is null, and multipart lists: a list of scalars is repeated parts (a null
// among them is sent as the text `null`), a list holding an object is one JSON part, and only
// strings become file parts of a binary field.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeBody, isJsonType } from '../../src/invoke/body.ts';
import type { BodyContent, ImportedSpec, SchemaLink } from '../../src/model/index.ts';

const spec = (schema?: unknown): ImportedSpec => ({ format: 'openapi-3.0', schemas: { resolve: () => schema, shallow: (l: SchemaLink) => l } }) as unknown as ImportedSpec;
const link = { file: 'x.yaml', pointer: '/s' } as unknown as SchemaLink;

test('a media type is read without the spaces around its parts, in any case', () => {
  for (const m of [' application/json', 'application/json ; charset=utf-8', 'Application/Problem+JSON ', '\t*/* ']) assert.equal(isJsonType(m), true, m);
  assert.deepEqual(encodeBody({ mediaType: 'application/x-www-form-urlencoded ; charset=utf-8' }, { a: 1 }, spec()), { body: 'a=1', contentType: 'application/x-www-form-urlencoded' });
  assert.equal((encodeBody({ mediaType: ' multipart/form-data' }, { a: 'x' }, spec()).body as FormData).get('a'), 'x');
});

test('a null encoding entry counts as none: the field is sent with the defaults', () => {
  const content = { mediaType: 'application/x-www-form-urlencoded', encoding: { tags: null } } as unknown as BodyContent;
  assert.equal(encodeBody(content, { tags: ['x', 'y'] }, spec()).body, 'tags=x&tags=y');
  const multi = { mediaType: 'multipart/form-data', encoding: { note: null } } as unknown as BodyContent;
  assert.equal((encodeBody(multi, { note: 'N' }, spec()).body as FormData).get('note'), 'N');
});

describe('multipart lists', () => {
  const schema = { properties: { file: { type: 'string', format: 'binary' } } };
  const content: BodyContent = { mediaType: 'multipart/form-data', schema: link };
  const parts = async (form: FormData, name: string): Promise<Array<string | [string, string]>> =>
    Promise.all(form.getAll(name).map(async (v) => (typeof v === 'string' ? v : [v.type, await v.text()] as [string, string])));

  test('a list of scalars is one plain part per item, a null item as the text null', async () => {
    const form = encodeBody(content, { list: [1, null, 'two', false] }, spec(schema)).body as FormData;
    assert.deepEqual(await parts(form, 'list'), ['1', 'null', 'two', 'false']);
  });

  test('a list that holds an object is one JSON part', async () => {
    for (const list of [[1, { a: 2 }], [{ a: 1 }], [[1], 2]]) {
      const form = encodeBody(content, { list }, spec(schema)).body as FormData;
      assert.deepEqual(await parts(form, 'list'), [['application/json', JSON.stringify(list)]], JSON.stringify(list));
    }
  });

  test('in a binary field only strings are file parts; numbers and booleans stay plain', async () => {
    const form = encodeBody(content, { file: ['abc', 5, true] }, spec(schema)).body as FormData;
    assert.deepEqual(await parts(form, 'file'), [['application/octet-stream', 'abc'], '5', 'true']);
  });
});
