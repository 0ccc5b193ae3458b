// The schema text on the edges of what descriptions hold: fields that are not schema objects,
// allOf parts that add requirements or hold junk, a reference with siblings (OpenAPI 3.1) that
// must stay unexpanded, raw content only when the whole label says so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldLines, typeLabel } from '../../src/tools/schema-text.ts';

describe('field lists on the edges', () => {
  it('writes a field whose schema is not an object as any, never circular', () => {
    assert.deepEqual(fieldLines({ properties: { a: true, b: null, c: 'text' } }), ['  a (any)', '  b (any)', '  c (any)']);
  });

  it("keeps the node's own required names beside those of its allOf parts", () => {
    assert.deepEqual(fieldLines({ properties: { a: { type: 'string' } }, required: ['a'], allOf: [{ properties: { b: { type: 'integer' } }, required: ['b'] }] }), [
      '  a (string, required)',
      '  b (integer, required)',
    ]);
  });

  it('takes no fields from an allOf part whose properties are not an object', () => {
    assert.deepEqual(fieldLines({ allOf: [{ properties: { a: { type: 'string' } } }, { properties: 'xy' }] }), ['  a (string)']);
  });

  it('does not call an object with fields a list because it also has items', () => {
    assert.deepEqual(fieldLines({ type: 'object', properties: { a: { type: 'string' } }, items: { type: 'string' } }), ['  a (string)']);
  });

  it('names a reference that is not expanded, and never expands what it holds beside it', () => {
    // OpenAPI 3.1 keeps siblings next to $ref: a circular or cut reference may come with properties.
    assert.deepEqual(fieldLines({ properties: { parent: { $circular: '#/components/schemas/Node', properties: { extra: { type: 'string' } } } } }), ['  parent (ref:Node, circular)']);
    assert.deepEqual(fieldLines({ properties: { far: { $truncated: '#/components/schemas/Far', properties: { extra: { type: 'string' } } } } }), ['  far (ref:Far)']);
    assert.deepEqual(fieldLines({ $circular: '#/components/schemas/Node', properties: { extra: { type: 'string' } } }), ['  ref:Node']);
    assert.deepEqual(fieldLines({ $truncated: 'depth', properties: { extra: { type: 'string' } } }), ['  (an object too deep to expand here)']);
  });

  it('names a reference by its last segment, also when it is the only one', () => {
    assert.equal(typeLabel({ $circular: '/Node' }), 'ref:Node');
    assert.equal(typeLabel({ $circular: 'a/b/' }), 'ref:');
  });

  it('says raw content only for a label that is a binary string and nothing else', () => {
    assert.deepEqual(fieldLines({ type: 'string', format: 'binary' }), ['  string(binary): the raw content, not JSON']);
    assert.deepEqual(fieldLines({ type: 'string', format: 'binary', nullable: true }), ['  string(binary)|null']);
    assert.deepEqual(fieldLines({ type: 'array', items: { type: 'string', format: 'byte' } }), ['  string(byte)[]']);
    assert.deepEqual(fieldLines({ type: 'object', additionalProperties: { type: 'string', format: 'binary' } }), ['  map of string(binary)']);
  });

  it('lists every value flag of a schema without fields', () => {
    assert.deepEqual(fieldLines({ type: 'string', default: 'a', example: 'b' }), ['  string (default "a", e.g. "b")']);
  });
});
