// The node budget of one schema resolution (src/import/schemas.ts): exactly 50,000 objects and
// arrays come back whole; the first one past the budget comes back as a size-limit marker, in
// place, and nothing after it is expanded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentSet } from '../../src/import/documents.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';

const FILE = '/virtual/api.json';

/** A schema of `total` objects and arrays: the root object, its array, and total - 2 empty objects. */
function schemaOf(total: number): { items: object[] } {
  return { items: Array.from({ length: total - 2 }, () => ({})) };
}

test('a resolution holds 50,000 objects and arrays whole, and marks the next one as over the size limit', () => {
  const resolver = new DocumentSchemaResolver(new DocumentSet(FILE, {}, Buffer.alloc(0)));
  const whole = resolver.resolve({ file: FILE, node: schemaOf(50_000) }) as { items: unknown[] };
  assert.equal(whole.items.length, 49_998);
  assert.ok(whole.items.every((x) => typeof x === 'object' && x !== null && Object.keys(x).length === 0));

  const over = resolver.resolve({ file: FILE, node: schemaOf(50_002) }) as { items: unknown[] };
  assert.equal(over.items.length, 50_000);
  assert.ok(over.items.slice(0, 49_998).every((x) => Object.keys(x as object).length === 0));
  assert.deepEqual(over.items.slice(49_998), [{ $truncated: 'size limit' }, { $truncated: 'size limit' }]);
});
