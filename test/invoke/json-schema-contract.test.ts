// Schema conversion for validation from its contract: OpenAPI 3.0 / Swagger 2.0 keywords become
// JSON Schema (nullable, boolean exclusive bounds, `type: file`), identity and extension keywords
// go, unresolvable parts accept anything, readOnly properties are not required in a request; and
// the size measures (sub-schemas per depth, patterns) that bound what svc compiles.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { validatorFor } from '../../src/invoke/compile.ts';
import { dialectOf, patternsOf, schemasPerDepth, toJsonSchema } from '../../src/invoke/json-schema.ts';
import type { ImportedSpec, SchemaLink, SpecFormat } from '../../src/model/index.ts';

const legacy = (node: unknown, request = false): unknown => toJsonSchema(node, { format: 'openapi-3.0', request });
const modern = (node: unknown, request = false): unknown => toJsonSchema(node, { format: 'openapi-3.1', request });

describe('toJsonSchema', () => {
  test('dialects: OpenAPI 3.1 is 2020-12, everything else draft-07', () => {
    assert.equal(dialectOf('openapi-3.1'), '2020-12');
    for (const f of ['openapi-3.0', 'swagger-2.0', 'postman-2.1'] as SpecFormat[]) assert.equal(dialectOf(f), 'draft-07');
  });

  test('nullable (3.0, Swagger) adds null to the type and the enum; 3.1 leaves the keyword alone', () => {
    assert.deepEqual(legacy({ type: 'string', nullable: true, enum: ['a'] }), { type: ['string', 'null'], enum: ['a', null] });
    assert.deepEqual(legacy({ type: 'string', nullable: true, enum: ['a', null] }), { type: ['string', 'null'], enum: ['a', null] });
    assert.deepEqual(legacy({ type: 'integer', nullable: false }), { type: 'integer' });
    assert.deepEqual(legacy({ nullable: true }), {});
    assert.deepEqual(modern({ type: 'string', nullable: true }), { type: 'string', nullable: true });
  });

  test('boolean exclusive bounds (draft 4 style) become numbers; a false one goes', () => {
    assert.deepEqual(legacy({ type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: true }), { type: 'number', exclusiveMinimum: 1, exclusiveMaximum: 9 });
    assert.deepEqual(legacy({ minimum: 1, exclusiveMinimum: false, maximum: 9, exclusiveMaximum: false }), { minimum: 1, maximum: 9 });
    assert.deepEqual(legacy({ exclusiveMinimum: true }), {});
    assert.deepEqual(legacy({ exclusiveMaximum: 5 }), { exclusiveMaximum: 5 });
  });

  test('identity, documentation and extension keywords go, at every depth; unknown types are dropped', () => {
    const drop = { $id: 'x', id: 'y', $schema: 's', $anchor: 'a', $comment: 'c', discriminator: {}, xml: {}, externalDocs: {}, example: 1, examples: [1], 'x-internal': true };
    assert.deepEqual(legacy({ ...drop, type: 'object', properties: { a: { ...drop, type: 'file' } }, items: { ...drop, type: ['string', 'file', 7, 'null'] } }), {
      type: 'object',
      properties: { a: {} },
      items: { type: ['string', 'null'] },
    });
    assert.deepEqual(legacy({ description: 'kept', title: 't', default: 3, format: 'int32', type: 'integer' }), { description: 'kept', title: 't', default: 3, format: 'int32', type: 'integer' });
  });

  test('sub-schemas in every position are converted; what the resolver could not follow accepts anything', () => {
    const inner = { type: 'string', nullable: true };
    const want = { type: ['string', 'null'] };
    assert.deepEqual(
      legacy({
        items: [inner, true],
        additionalProperties: inner,
        not: inner,
        properties: { p: inner },
        patternProperties: { '^x': inner },
        definitions: { d: inner },
        allOf: [inner],
        anyOf: [inner, false],
        oneOf: [inner],
        properties2: inner,
      }),
      {
        items: [want, true],
        additionalProperties: want,
        not: want,
        properties: { p: want },
        patternProperties: { '^x': want },
        definitions: { d: want },
        allOf: [want],
        anyOf: [want, false],
        oneOf: [want],
        properties2: inner,
      },
    );
    for (const cut of [{ $circular: '#/a' }, { $truncated: '#/b' }, { $unresolved: 'x.yaml' }, { $ref: '#/c', type: 'string' }, null, 'str', 3, [1]]) {
      assert.deepEqual(legacy({ properties: { p: cut } }), { properties: { p: {} } }, JSON.stringify(cut));
    }
    // A map or list keyword with a value of the wrong shape is left out.
    assert.deepEqual(legacy({ properties: null, allOf: { a: 1 }, items: 'x' }), { items: {} });
  });

  test('past maxDepth a sub-schema accepts anything', () => {
    let node: unknown = { type: 'string' };
    for (let i = 0; i < 5; i++) node = { type: 'array', items: node };
    const cut = toJsonSchema(node, { format: 'openapi-3.1', maxDepth: 2 });
    assert.deepEqual(cut, { type: 'array', items: { type: 'array', items: { type: 'array', items: {} } } });
    assert.deepEqual(toJsonSchema(node, { format: 'openapi-3.1' }), node);
  });

  test('in a request body, readOnly properties are not required; in a response or parameter they are', () => {
    const schema = { type: 'object', required: ['id', 'name', 'missing', 7], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, odd: null } };
    assert.deepEqual((legacy(schema, true) as { required: unknown[] }).required, ['name', 'missing', 7]);
    assert.deepEqual((legacy(schema, false) as { required: unknown[] }).required, ['id', 'name', 'missing', 7]);
    assert.deepEqual((modern({ required: ['id'] }, true) as { required: unknown[] }).required, ['id']);
  });

  test('the input is never changed', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const before = JSON.stringify(v);
        legacy({ type: 'object', nullable: true, properties: { v: v as object }, items: v as object });
        assert.equal(JSON.stringify(v), before);
      }),
    );
  });
});

describe('size measures', () => {
  test('schemasPerDepth counts each (sub-)schema at its depth, through every kind of keyword', () => {
    const s = { properties: { a: { items: [{}, {}] }, b: {} }, anyOf: [{ not: {} }], additionalProperties: {}, enum: [{}], const: {} };
    assert.deepEqual(schemasPerDepth(s), [1, 4, 3]);
    assert.deepEqual(schemasPerDepth(true), []);
    assert.deepEqual(schemasPerDepth({ properties: null, allOf: {} }), [1]);
  });

  test('patternsOf finds pattern values and patternProperties keys anywhere, not inside data', () => {
    const s = { pattern: '^a', items: [{ pattern: '^b' }], properties: { p: { patternProperties: { '^c': {} } } }, enum: [{ pattern: 'no' }], const: { pattern: 'no' }, default: { pattern: 'no' }, patternProperties: null };
    assert.deepEqual([...patternsOf(s)].sort(), ['^a', '^b', '^c']);
    assert.deepEqual([...patternsOf('x')], []);
  });
});

describe('validators', () => {
  const link = { file: 'x.yaml', pointer: '/s' } as unknown as SchemaLink;
  const spec = (schema: unknown, format: SpecFormat = 'openapi-3.0'): ImportedSpec => ({ format, schemas: { resolve: () => schema } }) as unknown as ImportedSpec;

  test('a pattern the linear-time engine cannot run is named and not checked; the rest of the schema is', () => {
    const v = validatorFor({}, link, spec({ type: 'object', properties: { a: { type: 'string', pattern: '^(?=x)x+$' }, b: { type: 'integer' } } }), false, 'body');
    assert.deepEqual(v.notes, ['[body: pattern "^(?=x)x+$" not checked: svc\'s linear-time regex engine cannot run it]']);
    assert.equal(v.fn!({ a: 'anything', b: 1 }), true);
    assert.equal(v.fn!({ a: 'anything', b: 'one' }), false);
    const long = `(?!${'y'.repeat(70)})`;
    const two = validatorFor({}, link, spec({ properties: { a: { pattern: '(a)\\1' }, b: { pattern: long }, c: { pattern: `(?!${'z'.repeat(56)})` } } }), false, 'q');
    // Each named as JSON, cut to 60 characters with "..." past that.
    assert.deepEqual(two.notes, [`[q: patterns ${JSON.stringify('(a)\\1')}, ${JSON.stringify(`${long.slice(0, 60)}...`)}, ${JSON.stringify(`(?!${'z'.repeat(56)})`)} not checked: svc's linear-time regex engine cannot run them]`]);
  });

  test('patterns RE2 can run are checked; 3.1 schemas compile as 2020-12 (prefixItems)', () => {
    const v = validatorFor({}, link, spec({ type: 'string', pattern: '^[a-z]+$' }), false, 'p');
    assert.deepEqual(v.notes, []);
    assert.equal(v.fn!('abc'), true);
    assert.equal(v.fn!('ABC'), false);
    // Several patterns in one schema are each enforced (not one compiled pattern reused for all).
    const both = validatorFor({}, link, spec({ type: 'object', properties: { a: { type: 'string', pattern: '^a+$' }, b: { type: 'string', pattern: '^b+$' } } }), false, 'p');
    assert.equal(both.fn!({ a: 'aa', b: 'bb' }), true);
    assert.equal(both.fn!({ a: 'aa', b: 'aa' }), false);
    assert.equal(both.fn!({ a: 'bb', b: 'bb' }), false);
    const keys = validatorFor({}, link, spec({ type: 'object', patternProperties: { '^x-': { type: 'integer' }, '^y-': { type: 'string' } } }), false, 'p');
    assert.equal(keys.fn!({ 'x-1': 1, 'y-1': 's' }), true);
    assert.equal(keys.fn!({ 'y-1': 1 }), false);
    // Draft-07 for the others: `items` as a list is a tuple there (2020-12 would refuse the schema).
    const legacyTuple = validatorFor({}, link, spec({ type: 'array', items: [{ type: 'integer' }], additionalItems: false }, 'swagger-2.0'), false, 'p');
    assert.equal(legacyTuple.fn!([1]), true);
    assert.equal(legacyTuple.fn!(['x']), false);
    assert.equal(legacyTuple.fn!([1, 2]), false);
    const tuple = validatorFor({}, link, spec({ type: 'array', prefixItems: [{ type: 'integer' }], items: false }, 'openapi-3.1'), false, 'p');
    assert.equal(tuple.fn!([1]), true);
    assert.equal(tuple.fn!([1, 2]), false);
  });

  test('a schema past 2,000 sub-schemas or 24 levels is checked to the deepest level that fits, and says so', () => {
    const note = (depth: number, nodes: number, levels: number) =>
      `[body checked to depth ${depth} only: its schema (${nodes} sub-schemas, ${levels} levels) is larger than svc checks whole; the API checks the rest]`;
    const wide = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])) });
    const chain = (levels: number): unknown => (levels === 1 ? { type: 'string' } : { type: 'array', items: chain(levels - 1) });
    // 1 + 2,500 nodes: only the top level fits; its properties accept anything.
    const top = validatorFor({}, link, spec(wide(2500)), true, 'body');
    assert.deepEqual(top.notes, [note(0, 2501, 2)]);
    assert.equal(top.fn!({ p0: 5 }), true);
    assert.equal(top.fn!('text'), false);
    // Exactly 2,000 nodes fit whole.
    assert.deepEqual(validatorFor({}, link, spec(wide(1999)), true, 'body').notes, []);
    // The budget runs out at the third level: two levels are checked.
    const third = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`q${i}`, wide(200)])) };
    const mid = validatorFor({}, link, spec(third), true, 'body');
    assert.deepEqual(mid.notes, [note(1, 2011, 3)]);
    assert.equal(mid.fn!({ q0: { p0: 5 } }), true);
    assert.equal(mid.fn!({ q0: 'x' }), false);
    // 24 levels below the top are checked, no more.
    assert.deepEqual(validatorFor({}, link, spec(chain(25)), true, 'body').notes, []);
    assert.deepEqual(validatorFor({}, link, spec(chain(30)), true, 'body').notes, [note(24, 30, 30)]);
  });

  test('one validator per owner; no schema or one that does not compile checks nothing', () => {
    const owner = {};
    const a = validatorFor(owner, link, spec({ type: 'string' }), false, 'p');
    assert.equal(validatorFor(owner, link, spec({ type: 'integer' }), false, 'p'), a);
    assert.deepEqual(validatorFor({}, undefined, spec({ type: 'string' }), false, 'p'), { fn: null, notes: [] });
    assert.deepEqual(validatorFor({}, link, spec({ type: 'string', minLength: 'many' }), false, 'p'), { fn: null, notes: [] });
  });
});
