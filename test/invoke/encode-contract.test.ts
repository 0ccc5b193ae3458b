// Parameter styles and request bodies against their published contracts: the style table of the
// OpenAPI specification (RFC 6570 for label and matrix), for every location, and the body
// encodings (JSON, form fields with their `encoding`, multipart parts, raw text).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { encodeBody, isJsonType } from '../../src/invoke/body.ts';
import { InvalidArgumentsError } from '../../src/invoke/errors.ts';
import { serializeParams } from '../../src/invoke/serialize.ts';
import type { BodyContent, ImportedSpec, Parameter, SchemaLink } from '../../src/model/index.ts';

const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

function param(p: Partial<Parameter> & Pick<Parameter, 'in'>): Parameter {
  return { name: 'color', required: false, type: 'any', ...p };
}

function path(style: string | undefined, explode: boolean | undefined, value: unknown): string {
  const p = param({ in: 'path', ...(style !== undefined ? { style } : {}), ...(explode !== undefined ? { explode } : {}) });
  return serializeParams('/x/{color}', [{ param: p, value }]).path.slice('/x/'.length);
}

function query(style: string | undefined, explode: boolean | undefined, value: unknown): string {
  const p = param({ in: 'query', ...(style !== undefined ? { style } : {}), ...(explode !== undefined ? { explode } : {}) });
  return serializeParams('', [{ param: p, value }]).query;
}

describe('the OpenAPI style table', () => {
  test('path: simple, label and matrix, exploded or not', () => {
    const rows: Array<[string | undefined, boolean | undefined, string, string, string]> = [
      [undefined, undefined, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
      ['simple', false, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
      ['simple', true, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
      ['label', false, '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
      ['label', true, '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
      ['matrix', false, ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
      ['matrix', true, ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
    ];
    for (const [style, explode, s, a, o] of rows) {
      const at = `${style} explode=${explode}`;
      assert.equal(path(style, explode, 'blue'), s, at);
      assert.equal(path(style, explode, ARRAY), a, at);
      assert.equal(path(style, explode, OBJECT), o, at);
    }
  });

  test('query: form (exploded by default), spaceDelimited, pipeDelimited, deepObject', () => {
    const rows: Array<[string | undefined, boolean | undefined, string, string, string]> = [
      [undefined, undefined, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
      ['form', true, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
      ['form', false, 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
      ['spaceDelimited', false, 'color=blue', 'color=blue%20black%20brown', 'color=R%20100%20G%20200%20B%20150'],
      ['pipeDelimited', false, 'color=blue', 'color=blue|black|brown', 'color=R|100|G|200|B|150'],
    ];
    for (const [style, explode, s, a, o] of rows) {
      const at = `${style} explode=${explode}`;
      assert.equal(query(style, explode, 'blue'), s, at);
      assert.equal(query(style, explode, ARRAY), a, at);
      assert.equal(query(style, explode, OBJECT), o, at);
    }
    assert.equal(query('deepObject', true, OBJECT), 'color[R]=100&color[G]=200&color[B]=150');
    // Arrays under deepObject as bracket APIs read them; objects inside arrays by index.
    assert.equal(query('deepObject', true, ARRAY), 'color[]=blue&color[]=black&color[]=brown');
    assert.equal(query('deepObject', true, { a: [{ k: 'v' }], u: undefined }), 'color[a][0][k]=v');
    assert.equal(query('deepObject', true, 'blue'), 'color=blue');
    // Nothing is sent for an empty array or for undefined object fields.
    assert.equal(query(undefined, undefined, []), '');
    assert.equal(query('form', false, { a: undefined, b: 1 }), 'color=b,1');
  });

  test('deepObject nesting stops at 16 levels: the rest goes as one value', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20; i++) deep = { k: deep };
    const q = query('deepObject', true, deep);
    const name = decodeURIComponent(q.slice(0, q.indexOf('=')));
    assert.equal(name, `color${'[k]'.repeat(16)}`);
    assert.equal(decodeURIComponent(q.slice(q.indexOf('=') + 1)), JSON.stringify((() => {
      let v: unknown = 'leaf';
      for (let i = 0; i < 4; i++) v = { k: v };
      return v;
    })()));
  });

  test('headers: simple, exploded objects as key=value; cookies as comma lists; a fixed query in the path template is kept', () => {
    const h = (explode: boolean | undefined, value: unknown): string =>
      serializeParams('', [{ param: param({ in: 'header', name: 'X-Color', ...(explode !== undefined ? { explode } : {}) }), value }]).headers[0]![1];
    assert.equal(h(undefined, 'blue'), 'blue');
    assert.equal(h(undefined, ARRAY), 'blue,black,brown');
    assert.equal(h(undefined, OBJECT), 'R,100,G,200,B,150');
    assert.equal(h(true, OBJECT), 'R=100,G=200,B=150');
    const c = (value: unknown): string => serializeParams('', [{ param: param({ in: 'cookie' }), value }]).cookies[0]!;
    assert.equal(c('blue'), 'color=blue');
    assert.equal(c(ARRAY), 'color=blue,black,brown');
    assert.equal(c(OBJECT), 'color=R,100,G,200,B,150');
    assert.equal(c('a b;c'), 'color=a%20b%3Bc');
    const both = serializeParams('/search?type=user', [{ param: param({ in: 'query', name: 'q' }), value: 'x' }]);
    assert.equal(both.path, '/search');
    assert.equal(both.query, 'type=user&q=x');
  });

  test('scalars: null and undefined are empty, numbers, booleans and bigints as written, other values as JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.bigInt()), (v) => {
        assert.equal(decodeURIComponent(query(undefined, undefined, v).slice('color='.length)), String(v));
      }),
    );
    assert.equal(query(undefined, undefined, null), 'color=');
    assert.equal(serializeParams('', [{ param: param({ in: 'header', name: 'X' }), value: undefined }]).headers[0]![1], '');
    assert.equal(decodeURIComponent(query(undefined, false, [{ a: 1 }, [2]])), 'color={"a":1},[2]');
  });
});

const spec = (schema?: unknown): ImportedSpec => ({ format: 'openapi-3.0', schemas: { resolve: () => schema, shallow: (l: SchemaLink) => l } }) as unknown as ImportedSpec;
const link = { file: 'x.yaml', pointer: '/s' } as unknown as SchemaLink;

describe('request bodies', () => {
  test('JSON kinds: the body as JSON, under the declared type, application/json for wildcards', () => {
    assert.equal(isJsonType('application/vnd.api+json; charset=utf-8'), true);
    assert.equal(isJsonType('APPLICATION/JSON'), true);
    assert.equal(isJsonType('application/*'), true);
    assert.equal(isJsonType('*/*'), true);
    assert.equal(isJsonType('application/jsonl'), false);
    assert.equal(isJsonType('text/json+x'), false);
    assert.deepEqual(encodeBody({ mediaType: 'application/merge-patch+json' }, { a: [1] }, spec()), { body: '{"a":[1]}', contentType: 'application/merge-patch+json' });
    assert.deepEqual(encodeBody({ mediaType: '*/*' }, 'x', spec()), { body: '"x"', contentType: 'application/json' });
    assert.deepEqual(encodeBody({ mediaType: 'application/*' }, 1, spec()), { body: '1', contentType: 'application/json' });
  });

  test('form fields: each with its encoding style, JSON for a JSON-typed field, a string passed as is', () => {
    const content: BodyContent = {
      mediaType: 'application/x-www-form-urlencoded; charset=utf-8',
      encoding: { tags: { style: 'form', explode: false }, meta: { contentType: 'application/json' }, deep: { style: 'deepObject', explode: true }, odd: 'not an object' },
    };
    const out = encodeBody(content, { name: 'a b', tags: ['x', 'y'], meta: { k: 1 }, deep: { a: 1 }, many: [1, 2], gone: undefined, odd: 'o', none: [] }, spec());
    assert.equal(out.contentType, 'application/x-www-form-urlencoded');
    assert.equal(out.body, `name=a%20b&tags=x,y&meta=${encodeURIComponent('{"k":1}')}&deep[a]=1&many=1&many=2&odd=o`);
    assert.deepEqual(encodeBody(content, 'raw=1&b=2', spec()), { body: 'raw=1&b=2', contentType: 'application/x-www-form-urlencoded' });
    // A JSON-typed field already given as a string is not encoded twice.
    assert.equal(encodeBody(content, { meta: '{"k":1}' }, spec()).body, `meta=${encodeURIComponent('{"k":1}')}`);
  });

  test('form and multipart bodies must be objects of fields', () => {
    for (const media of ['application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/mixed']) {
      for (const [body, what] of [[['a'], 'an array'], [3, 'number'], [null, 'object']] as const) {
        assert.throws(
          () => encodeBody({ mediaType: media }, body, spec()),
          (err: unknown) => err instanceof InvalidArgumentsError && err.message === `The body for ${media} must be an object of fields, got ${what}.` && err.problems[0] === `body: must be an object for ${media}`,
        );
      }
    }
  });

  test('multipart: binary fields and non-text encodings as file parts, objects as JSON parts, scalar lists as repeated parts', async () => {
    const content: BodyContent = { mediaType: 'multipart/form-data', schema: link, encoding: { pic: { contentType: 'image/png' }, note: { contentType: 'text/plain' } } };
    const schema = { properties: { file: { type: 'string', format: 'binary' }, files: { type: 'array', items: { format: 'binary' } }, legacy: { type: 'file' }, title: { type: 'string' } } };
    const out = encodeBody(content, { file: 'abc', files: ['f1', 'f2'], legacy: 'L', title: 'T', pic: 'P', note: 'N', meta: { a: 1 }, n: 5, skip: null, gone: undefined, list: [1, 'two'] }, spec(schema));
    assert.equal(out.contentType, undefined, 'fetch writes the boundary');
    const form = out.body as FormData;
    const part = async (name: string, i = 0): Promise<[string, string, string] | string> => {
      const v = form.getAll(name)[i]!;
      return typeof v === 'string' ? v : [v.name, v.type, await v.text()];
    };
    assert.deepEqual(await part('file'), ['file', 'application/octet-stream', 'abc']);
    assert.deepEqual(await part('files', 1), ['files', 'application/octet-stream', 'f2']);
    assert.deepEqual(await part('legacy'), ['legacy', 'application/octet-stream', 'L']);
    assert.equal(await part('title'), 'T');
    assert.deepEqual(await part('pic'), ['pic', 'image/png', 'P']);
    assert.equal(await part('note'), 'N');
    const meta = form.get('meta') as File;
    assert.equal(meta.type, 'application/json');
    assert.equal(await meta.text(), '{"a":1}');
    assert.equal(await part('n'), '5');
    assert.deepEqual(form.getAll('list'), ['1', 'two']);
    assert.equal(form.has('skip'), false);
    assert.equal(form.has('gone'), false);
    // A schema that cannot be resolved: every string is a plain field.
    const broken = { format: 'openapi-3.0', schemas: { resolve: () => { throw new Error('no'); } } } as unknown as ImportedSpec;
    assert.equal((encodeBody(content, { file: 'abc' }, broken).body as FormData).get('file'), 'abc');
  });

  test('other types: a string as is, a number or boolean as text for text/*, anything else refused', () => {
    assert.deepEqual(encodeBody({ mediaType: 'application/xml' }, '<a/>', spec()), { body: '<a/>', contentType: 'application/xml' });
    assert.deepEqual(encodeBody({ mediaType: 'text/plain; charset=utf-8' }, 12, spec()), { body: '12', contentType: 'text/plain; charset=utf-8' });
    assert.deepEqual(encodeBody({ mediaType: 'text/csv' }, false, spec()), { body: 'false', contentType: 'text/csv' });
    for (const [media, body, what] of [['application/xml', 1, 'number'], ['application/octet-stream', ['x'], 'an array'], ['text/plain', { a: 1 }, 'object']] as const) {
      assert.throws(
        () => encodeBody({ mediaType: media }, body, spec()),
        (err: unknown) =>
          err instanceof InvalidArgumentsError && err.message === `The body for ${media} must be a string (svc sends it as is), got ${what}.` && err.problems[0] === `body: must be a string for ${media}`,
      );
    }
  });
});
