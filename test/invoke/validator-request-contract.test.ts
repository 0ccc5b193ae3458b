// A request body's validator reads the schema as a request: a required `readOnly` property is
// not required of the caller (the server fills it), and OpenAPI 3.0's `nullable` holds; a
// response-side schema keeps both as written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validatorFor } from '../../src/invoke/compile.ts';
import type { ImportedSpec, SchemaLink } from '../../src/model/index.ts';

const link = { file: 'x.yaml', pointer: '/s' } as unknown as SchemaLink;
const specOf = (schema: unknown, format = 'openapi-3.0'): ImportedSpec => ({ format, schemas: { resolve: () => schema, shallow: (l: SchemaLink) => l } }) as unknown as ImportedSpec;
const schema = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', nullable: true } } };

test('in a request a required readOnly property may be left out, and nullable allows null', () => {
  const request = validatorFor({}, link, specOf(schema), true, 'body').fn!;
  assert.equal(request({ name: 'rex' }), true);
  assert.equal(request({ name: null }), true);
  assert.equal(request({}), false);
  const other = validatorFor({}, link, specOf(schema), false, 'body').fn!;
  assert.equal(other({ name: 'rex' }), false);
  assert.equal(other({ id: 1, name: null }), true);
});
