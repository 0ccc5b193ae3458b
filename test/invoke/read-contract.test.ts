// Bounded reading of response bodies from its contract, over generated chunkings: readBody keeps
// exactly the first `keep` bytes and counts the rest (to its 64 MB bound, then trusts a larger
// declared length), readText returns the first `max` bytes as text and stops reading there, and
// every reader lets go of the stream it does not finish.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { discard, readBody, readText } from '../../src/invoke/read.ts';

/** A body made of these chunks, recording how many were pulled and whether it was cancelled. */
function chunked(chunks: readonly Uint8Array[], headers: Record<string, string> = {}): { res: Response; pulled: () => number; cancelled: () => boolean } {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { res: new Response(stream, { headers }), pulled: () => i, cancelled: () => cancelled };
}

const chunksArb = fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 8 });
const concat = (chunks: readonly Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(chunks.map((c) => Buffer.from(c))));

describe('readBody', () => {
  test('keeps exactly the first `keep` bytes, counts them all, and says the count is exact', async () => {
    await fc.assert(
      fc.asyncProperty(chunksArb, fc.nat(200), async (chunks, keep) => {
        const all = concat(chunks);
        const read = await readBody(chunked(chunks).res, keep);
        assert.deepEqual([...read.bytes], [...all.subarray(0, keep)]);
        assert.equal(read.total, all.length);
        assert.equal(read.exact, true);
      }),
      { numRuns: 150 },
    );
  });

  test('no body: nothing, exactly', async () => {
    assert.deepEqual(await readBody(new Response(null, { status: 204 }), 10), { bytes: new Uint8Array(0), total: 0, exact: true });
  });

  test('past 64 MB it stops, cancels the stream, and reports a larger declared length when there is one', async () => {
    const mb = new Uint8Array(1024 * 1024).fill(120);
    const endless = (headers: Record<string, string>) => chunked(Array.from({ length: 100 }, () => mb), headers);
    const plain = endless({});
    const read = await readBody(plain.res, 10);
    assert.equal(read.total, 64 * 1024 * 1024);
    assert.equal(read.exact, false);
    assert.equal(read.bytes.length, 10);
    assert.equal(plain.pulled(), 64);
    assert.equal(plain.cancelled(), true);
    const declared = await readBody(endless({ 'content-length': String(90 * 1024 * 1024) }).res, 0);
    assert.deepEqual([declared.total, declared.exact], [90 * 1024 * 1024, true]);
    // A declared length smaller than what already arrived is not believed: the size stays "more than".
    for (const length of ['5', String(64 * 1024 * 1024), 'lots']) {
      const small = await readBody(endless({ 'content-length': length }).res, 0);
      assert.deepEqual([small.total, small.exact], [64 * 1024 * 1024, false], length);
    }
  });
});

describe('readText', () => {
  test('returns the first `max` bytes as text and stops reading there', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 30 }), { maxLength: 8 }), fc.nat(150), async (parts, max) => {
        const chunks = parts.map((p) => new TextEncoder().encode(p));
        const body = chunked(chunks);
        const text = await readText(body.res, max);
        assert.equal(text, parts.join('').slice(0, max));
        // The chunks pulled are those needed to reach `max`, then the rest is let go.
        let needed = 0;
        for (let sum = 0; needed < chunks.length && sum < max; needed++) sum += chunks[needed]!.length;
        assert.ok(body.pulled() <= needed + 1, `${body.pulled()} pulled, ${needed} needed`);
        if (needed < chunks.length) assert.equal(body.cancelled(), true);
      }),
      { numRuns: 150 },
    );
  });

  test('no body is empty text; a cut inside a character does not throw', async () => {
    assert.equal(await readText(new Response(null, { status: 204 }), 10), '');
    assert.equal(await readText(chunked([new TextEncoder().encode('é')]).res, 1), '\ufffd');
  });
});

describe('discard', () => {
  test('cancels an unread body; a response without one is fine', async () => {
    const body = chunked([new Uint8Array([1])]);
    await discard(body.res);
    assert.equal(body.cancelled(), true);
    await discard(new Response(null, { status: 204 }));
  });
});
