// The IPC framing contract, checked on generated input (fast-check): whatever the payloads and
// however the bytes are cut into chunks, lines under the cap come back as the values sent, in
// order; a line over the cap yields exactly one `too-large` and is never held in memory; a stream
// that never ends its line yields `endless` and nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineDecoder, encodeLine, type Frame } from '../../src/ipc/codec.ts';

/** Cuts `bytes` at the given fractions (any number of cuts, empty chunks included). */
function chunked(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * (bytes.length + 1))))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(at, Math.max(at, p)));
    at = Math.max(at, p);
  }
  chunks.push(bytes.subarray(at));
  return chunks;
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 });

/** Feeds chunks one by one, checking after each that no more than the cap is held. */
function decodeAll(decoder: LineDecoder, chunks: readonly Buffer[]): Frame[] {
  const frames: Frame[] = [];
  for (const c of chunks) {
    // A copy that is then overwritten: the decoder must not keep references into the caller's buffer.
    const scratch = Buffer.from(c);
    frames.push(...decoder.push(scratch));
    scratch.fill(0x7b);
    assert.ok(decoder.pending <= decoder.maxBytes, `holds ${decoder.pending} bytes, cap ${decoder.maxBytes}`);
  }
  return frames;
}

test('any JSON values, cut into any chunks, decode to the same values in order', () => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue(), { maxLength: 12 }), cuts, (values, cutAt) => {
      const bytes = Buffer.from(values.map(encodeLine).join(''));
      const frames = decodeAll(new LineDecoder(1 << 20), chunked(bytes, cutAt));
      assert.deepEqual(frames, values.map((v) => ({ kind: 'message', value: JSON.parse(JSON.stringify(v)) as unknown })));
    }),
    { numRuns: 300 },
  );
});

test('any text with newlines and control characters encodes to exactly one line', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      const line = encodeLine({ text });
      assert.equal(line.indexOf('\n'), line.length - 1);
      assert.deepEqual(new LineDecoder(1 << 22).push(Buffer.from(line)), [{ kind: 'message', value: { text } }]);
    }),
    { numRuns: 100 },
  );
});

test('lines over the cap give one too-large each, lines within it decode, in order, for any chunking', () => {
  const line = fc.oneof(
    fc.record({ big: fc.constant(false), value: fc.jsonValue({ maxDepth: 2 }) }),
    fc.record({ big: fc.constant(true), size: fc.integer({ min: 1, max: 600 }) }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 8, max: 300 }), fc.array(line, { maxLength: 10 }), cuts, (cap, lines, cutAt) => {
      const expected: Frame['kind'][] = [];
      const text = lines
        .map((l) => {
          const body = l.big ? `"${'y'.repeat(l.size)}"` : JSON.stringify(l.value);
          const fits = Buffer.byteLength(body) + 1 <= cap;
          expected.push(fits ? 'message' : 'too-large');
          return `${body}\n`;
        })
        .join('');
      const frames = decodeAll(new LineDecoder(cap), chunked(Buffer.from(text), cutAt));
      assert.deepEqual(frames.map((f) => f.kind), expected);
      let i = 0;
      for (const l of lines) {
        const f = frames[i++]!;
        if (f.kind === 'message' && !l.big) assert.deepEqual(f.value, JSON.parse(JSON.stringify(l.value)));
      }
    }),
    { numRuns: 300 },
  );
});

test('a line is accepted up to the cap exactly (newline included) and refused one byte beyond', () => {
  fc.assert(
    fc.property(fc.integer({ min: 3, max: 2000 }), cuts, (cap, cutAt) => {
      const fits = `"${'a'.repeat(cap - 3)}"\n`; // cap bytes
      const over = `"${'a'.repeat(cap - 2)}"\n`; // cap + 1 bytes
      const frames = decodeAll(new LineDecoder(cap), chunked(Buffer.from(fits + over + fits), cutAt));
      assert.deepEqual(frames.map((f) => f.kind), ['message', 'too-large', 'message']);
    }),
    { numRuns: 200 },
  );
});

test('a line that never ends gives too-large, then endless once past the discard limit, and nothing after', () => {
  fc.assert(
    fc.property(fc.integer({ min: 4, max: 200 }), fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 3000 }), cuts, (cap, maxDiscard, extra, cutAt) => {
      const decoder = new LineDecoder(cap, { maxDiscardBytes: maxDiscard });
      const endless = Buffer.alloc(cap + maxDiscard + extra, 0x61);
      const frames = decodeAll(decoder, chunked(endless, cutAt));
      assert.deepEqual(frames.map((f) => f.kind), ['too-large', 'endless']);
      assert.ok(decoder.ended);
      assert.deepEqual(decoder.push(Buffer.from('\n{"after":1}\n')), [], 'decoded input after an endless frame');
    }),
    { numRuns: 200 },
  );
});

test('blank and whitespace-only lines yield nothing, whatever the chunking', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('', ' ', '\t', '\r', '  \r'), { maxLength: 20 }), cuts, (blanks, cutAt) => {
      const text = blanks.map((b) => `${b}\n`).join('');
      assert.deepEqual(decodeAll(new LineDecoder(64), chunked(Buffer.from(text), cutAt)), []);
    }),
  );
});
