// mapInBatches (src/daemon/batches.ts) from its contract, on generated lists: the results of
// Promise.all(items.map(fn)) in the items' order, with never more than `size` calls in flight.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { mapInBatches } from '../../src/daemon/batches.ts';

test('gives every result in order and never has more than a batch in flight', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer(), { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), async (items, size) => {
      let inFlight = 0;
      let most = 0;
      const out = await mapInBatches(
        items,
        async (n) => {
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          return n * 2;
        },
        size,
      );
      assert.deepEqual(out, items.map((n) => n * 2));
      assert.ok(most <= size, `${most} in flight, batch ${size}`);
      if (items.length >= size) assert.equal(most, size, 'a whole batch at once');
    }),
    { numRuns: 60 },
  );
});
