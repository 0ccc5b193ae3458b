// Framing edges the general properties rarely draw: a chunk that starts with the newline ending
// the line before, an oversized line whose newline arrives with it (counted in its size), the
// discard limit to the byte, empty chunks under any cap, and the default caps of the protocol.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineDecoder, MAX_DISCARD_BYTES, encodeLine } from '../../src/ipc/codec.ts';
import { MAX_MESSAGE_BYTES, MAX_REPLY_BYTES, METHODS, isMethod } from '../../src/ipc/protocol.ts';

test('a chunk that starts with the newline ending the pending line completes it, and the lines after it decode too', () => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue(), { minLength: 2, maxLength: 5 }), (values) => {
      const d = new LineDecoder(1 << 20);
      const text = values.map((v) => JSON.stringify(v)).join('\n') + '\n';
      const firstNl = text.indexOf('\n');
      const frames = [...d.push(Buffer.from(text.slice(0, firstNl))), ...d.push(Buffer.from(text.slice(firstNl)))];
      assert.deepEqual(frames, values.map((value) => ({ kind: 'message', value: JSON.parse(JSON.stringify(value)) as unknown })));
    }),
  );
});

test('an oversized line that arrives with its newline counts the newline in its size, and the next line decodes', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 60 }), (cap, extra) => {
      const d = new LineDecoder(cap);
      const line = 'x'.repeat(cap + extra);
      assert.deepEqual(d.push(Buffer.from(`${line}\n${encodeLine(null)}`)), [
        { kind: 'too-large', bytes: line.length + 1 },
        ...(cap >= 5 ? [{ kind: 'message', value: null }] : [{ kind: 'too-large', bytes: 5 }]),
      ]);
    }),
  );
  // Arriving without its newline: what came so far.
  assert.deepEqual(new LineDecoder(4).push(Buffer.from('xxxxxxx')), [{ kind: 'too-large', bytes: 7 }]);
});

test('endless comes only past the discard limit: exactly the limit skipped is still an oversized line', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 200 }), (cap, limit) => {
      const d = new LineDecoder(cap, { maxDiscardBytes: limit });
      const size = Math.max(limit, cap);
      const frames = d.push(Buffer.alloc(size, 0x78));
      assert.equal(frames[0]?.kind, 'too-large');
      assert.equal(d.ended, size > limit);
      if (size === limit) {
        assert.deepEqual(d.push(Buffer.from('x')), [{ kind: 'endless', bytes: limit + 1 }]);
        assert.equal(d.ended, true);
      }
      assert.deepEqual(d.push(Buffer.from('\n1\n')), [], 'nothing after endless');
    }),
  );
  assert.equal(new LineDecoder(10).maxDiscardBytes, MAX_DISCARD_BYTES);
  assert.equal(MAX_DISCARD_BYTES, 256 * 1024 * 1024);
});

test('an empty chunk yields nothing and changes nothing, whatever the cap (zero included) and the line held', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10 }), fc.string({ maxLength: 8 }), (cap, held) => {
      const d = new LineDecoder(cap);
      const before = d.push(Buffer.from(held));
      const pending = d.pending;
      assert.deepEqual(d.push(Buffer.alloc(0)), []);
      assert.equal(d.pending, pending);
      assert.ok(before.length <= 1);
    }),
  );
  assert.deepEqual(new LineDecoder(0).push(Buffer.alloc(0)), []);
  // A chunk that ends exactly at a newline leaves nothing behind, under the smallest cap that fits it.
  const two = new LineDecoder(2);
  assert.deepEqual(two.push(Buffer.from('1\n')), [{ kind: 'message', value: 1 }]);
  assert.deepEqual(two.push(Buffer.alloc(0)), []);
});

test('the protocol caps: a request may be 1 MiB, a reply 32 MiB, newline included', () => {
  assert.equal(MAX_MESSAGE_BYTES, 1024 * 1024);
  assert.equal(MAX_REPLY_BYTES, 32 * 1024 * 1024);
});

test('isMethod knows exactly the protocol methods', () => {
  for (const m of METHODS) assert.equal(isMethod(m), true);
  fc.assert(fc.property(fc.string(), (s) => assert.equal(isMethod(s), (METHODS as readonly string[]).includes(s))));
  assert.equal(isMethod('toString'), false);
});
