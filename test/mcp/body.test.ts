// HTTP request bodies from their contract: any JSON body of at most `limit` bytes is parsed whatever
// its chunking; one byte more is refused (BodyTooLarge naming the limit) as soon as the count passes
// the limit, and a declared Content-Length over the limit is refused before a byte is read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BodyTooLarge, readBody } from '../../src/mcp/body.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 15_000;

/** A request stand-in with real headers and a real async iteration over the given chunks, counting reads. */
function req(chunks: Buffer[], headers: Record<string, string> = {}): { headers: Record<string, string>; reads: number; [Symbol.asyncIterator](): AsyncGenerator<Buffer> } {
  const r = {
    headers,
    reads: 0,
    async *[Symbol.asyncIterator]() {
      for (const c of chunks) {
        r.reads++;
        yield c;
      }
    },
  };
  return r;
}

function cut(bytes: Buffer, points: number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of [...at, bytes.length]) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  return out;
}

describe('readBody', { timeout: HANG_MS }, () => {
  it('parses any JSON body within the limit, however it is chunked, with or without a declared length', { timeout: HANG_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), fc.nat({ max: 10 }), fc.boolean(), async (value, points, slack, declare) => {
        const bytes = Buffer.from(JSON.stringify(value));
        const headers: Record<string, string> = declare ? { 'content-length': String(bytes.length) } : {};
        assert.deepEqual(await readBody(req(cut(bytes, points), headers), bytes.length + slack), JSON.parse(bytes.toString()));
      }),
    );
  });

  it('refuses a body one byte or more over the limit, chunked, and stops reading at the chunk that passes it', { timeout: HANG_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 40 }), async (limit, over, chunk) => {
        const bytes = Buffer.alloc(limit + over, 0x20);
        const chunks = cut(bytes, Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => i * chunk));
        const r = req(chunks);
        await assert.rejects(readBody(r, limit), (e: unknown) => e instanceof BodyTooLarge && e.limit === limit && e.message === `request body larger than ${limit} bytes`);
        let seen = 0;
        let needed = 0;
        for (const c of chunks) {
          needed++;
          seen += c.length;
          if (seen > limit) break;
        }
        assert.equal(r.reads, needed, 'nothing read past the chunk that passed the limit');
      }),
    );
  });

  it('refuses a declared Content-Length over the limit before reading, and trusts no declared length under it', { timeout: HANG_MS }, async () => {
    const r = req([Buffer.from('{}')], { 'content-length': '11' });
    await assert.rejects(readBody(r, 10), BodyTooLarge);
    assert.equal(r.reads, 0);
    const exact = req([Buffer.from('"12345678"')], { 'content-length': '10' });
    assert.equal(await readBody(exact, 10), '12345678');
    // A lying small declaration does not let a larger body through.
    await assert.rejects(readBody(req([Buffer.from('"123456789"')], { 'content-length': '2' }), 10), BodyTooLarge);
    // A declaration that is not a number is ignored; the count still applies.
    assert.deepEqual(await readBody(req([Buffer.from('[1]')], { 'content-length': 'lots' }), 3), [1]);
  });

  it('a body that is not JSON is a SyntaxError, an empty one too', { timeout: HANG_MS }, async () => {
    await assert.rejects(readBody(req([Buffer.from('{"a":')]), 100), SyntaxError);
    await assert.rejects(readBody(req([]), 100), SyntaxError);
  });

  it('decodes UTF-8 split inside a character', { timeout: HANG_MS }, async () => {
    const bytes = Buffer.from(JSON.stringify({ t: 'größe ✓' }));
    const at = bytes.indexOf(0xc3) + 1;
    assert.deepEqual(await readBody(req([bytes.subarray(0, at), bytes.subarray(at)]), 100), { t: 'größe ✓' });
  });
});
