// Every JSON Schema keyword that holds sub-schemas has them converted (a 3.0 `nullable`, an
// extension key, a cut `$ref` inside them are dealt with) and counted for the validator's budget,
// whatever shape holds them: one schema, a map of schemas, a list of schemas. Identity keywords
// are dropped, so ajv never registers or looks up a schema by them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemasPerDepth, toJsonSchema } from '../../src/invoke/json-schema.ts';

const ONE = ['items', 'additionalItems', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const DROP = ['$id', 'id', '$schema', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', '$comment', 'discriminator', 'xml', 'externalDocs', 'example', 'examples'];

/** A 3.0 sub-schema that converting changes: nullable folded into the type, the extension key gone. */
const SUB = { type: 'integer', nullable: true, 'x-internal': true };
const CONVERTED = { type: ['integer', 'null'] };
/** A `$ref` the resolver cut: accepts anything. */
const CUT = { $truncated: '#/components/schemas/Deep' };

test('sub-schemas under every keyword that holds one, a map or a list of them are converted and counted', () => {
  for (const k of ONE) {
    assert.deepEqual(toJsonSchema({ [k]: SUB }, { format: 'openapi-3.0' }), { [k]: CONVERTED }, k);
    assert.deepEqual(toJsonSchema({ [k]: CUT }, { format: 'openapi-3.0' }), { [k]: {} }, k);
    assert.deepEqual(schemasPerDepth({ [k]: SUB }), [1, 1], k);
  }
  for (const k of MAP) {
    assert.deepEqual(toJsonSchema({ [k]: { a: SUB, b: CUT } }, { format: 'openapi-3.0' }), { [k]: { a: CONVERTED, b: {} } }, k);
    assert.deepEqual(schemasPerDepth({ [k]: { a: SUB, b: SUB } }), [1, 2], k);
  }
  for (const k of LIST) {
    assert.deepEqual(toJsonSchema({ [k]: [SUB, CUT] }, { format: 'openapi-3.0' }), { [k]: [CONVERTED, {}] }, k);
    assert.deepEqual(schemasPerDepth({ [k]: [SUB, SUB] }), [1, 2], k);
  }
});

test('identity and annotation keywords are dropped; other keywords are kept as they are', () => {
  for (const k of DROP) assert.deepEqual(toJsonSchema({ type: 'string', [k]: 'x' }, { format: 'openapi-3.1' }), { type: 'string' }, k);
  assert.deepEqual(toJsonSchema({ type: 'string', minLength: 2, format: 'email', 'x-a': 1 }, { format: 'openapi-3.1' }), { type: 'string', minLength: 2, format: 'email' });
});

test('past the depth limit a sub-schema accepts anything, under every kind of keyword', () => {
  const string = { type: 'string' };
  assert.deepEqual(toJsonSchema({ items: { items: string } }, { format: 'openapi-3.1', maxDepth: 1 }), { items: { items: {} } });
  assert.deepEqual(toJsonSchema({ allOf: [{ allOf: [string] }] }, { format: 'openapi-3.1', maxDepth: 1 }), { allOf: [{ allOf: [{}] }] });
  assert.deepEqual(toJsonSchema({ properties: { a: { properties: { b: string } } } }, { format: 'openapi-3.1', maxDepth: 1 }), { properties: { a: { properties: { b: {} } } } });
  assert.deepEqual(toJsonSchema({ items: { items: string } }, { format: 'openapi-3.1', maxDepth: 2 }), { items: { items: string } });
});
