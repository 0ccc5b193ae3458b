// The depth bound of a validator holds on its own: a schema deeper than 24 levels is checked to
// level 24 even when its nodes down there fit the budget and the budget runs out only deeper still.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SCHEMA_DEPTH, validatorFor } from '../../src/invoke/compile.ts';
import type { ImportedSpec, SchemaLink } from '../../src/model/index.ts';

const link = { file: 'x.yaml', pointer: '/s' } as unknown as SchemaLink;
const specOf = (schema: unknown): ImportedSpec => ({ format: 'openapi-3.0', schemas: { resolve: () => schema, shallow: (l: SchemaLink) => l } }) as unknown as ImportedSpec;

test('past 24 levels the check stops at level 24, wherever the node budget runs out below it', () => {
  for (const levels of [27, 30]) {
    // One object per level, then 2,100 properties at the bottom: the budget runs out at the last level.
    let schema: Record<string, unknown> = { type: 'object', properties: Object.fromEntries(Array.from({ length: 2100 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    for (let i = 0; i < levels - 2; i++) schema = { type: 'object', properties: { n: schema } };
    const v = validatorFor({}, link, specOf(schema), true, 'body');
    assert.deepEqual(v.notes, [`[body checked to depth ${MAX_SCHEMA_DEPTH} only: its schema (${levels - 1 + 2100} sub-schemas, ${levels} levels) is larger than svc checks whole; the API checks the rest]`]);
  }
});

test('when the budget runs out at level 24 itself, the levels above it are checked', () => {
  let schema: Record<string, unknown> = { type: 'object', properties: Object.fromEntries(Array.from({ length: 2100 }, (_, i) => [`p${i}`, { type: 'string' }])) };
  for (let i = 0; i < MAX_SCHEMA_DEPTH - 1; i++) schema = { type: 'object', properties: { n: schema } };
  const v = validatorFor({}, link, specOf(schema), true, 'body');
  assert.deepEqual(v.notes, [`[body checked to depth ${MAX_SCHEMA_DEPTH - 1} only: its schema (${MAX_SCHEMA_DEPTH + 2100} sub-schemas, ${MAX_SCHEMA_DEPTH + 1} levels) is larger than svc checks whole; the API checks the rest]`]);
});
