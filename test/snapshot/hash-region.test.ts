// The two small helpers every snapshot check goes through: content digests (src/snapshot/hash.ts),
// whole or a megabyte at a time, and reading a region of a snapshot file again
// (src/snapshot/file-region.ts), which must answer "not there" for any region the file does not
// hold in full rather than short bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readAt, readRegion, tryOpen } from '../../src/snapshot/file-region.ts';
import { isSha256Hex, sha256, sha256Steps } from '../../src/snapshot/hash.ts';
import { temp } from './support.ts';

const MB = 1024 * 1024;
const reference = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** Runs `sha256Steps` to its end: the digest and how many times it let the thread go. */
function steps(bytes: Uint8Array): { digest: string; yields: number } {
  const it = sha256Steps(bytes);
  let yields = 0;
  for (;;) {
    const r = it.next();
    if (r.done) return { digest: r.value, yields };
    yields++;
  }
}

describe('digests', () => {
  it('sha256 of bytes or text is the hex SHA-256', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.string(), (bytes, text) => {
        assert.equal(sha256(bytes), reference(bytes));
        assert.equal(sha256(text), reference(text));
      }),
    );
  });

  it('a megabyte at a time gives the same digest, and lets the thread go between megabytes only', () => {
    for (const length of [0, 1, MB - 1, MB, MB + 1, 2 * MB, 3 * MB + 5]) {
      const bytes = new Uint8Array(length);
      for (let i = 0; i < length; i += 4093) bytes[i] = (i / 4093) & 255;
      bytes[length - 1] = 7;
      const { digest, yields } = steps(bytes);
      assert.equal(digest, reference(bytes), `length ${length}`);
      assert.equal(yields, Math.max(0, Math.ceil(length / MB) - 1), `yields at length ${length}`);
    }
  });

  it('a well-formed digest is 64 lower-case hex digits, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 50 }), (bytes) => {
        assert.equal(isSha256Hex(reference(bytes)), true);
      }),
    );
    const good = 'a'.repeat(63) + '0';
    assert.equal(isSha256Hex(good), true);
    for (const bad of ['', good.slice(1), `${good}0`, `x${good}`, `${good}x`, 'A'.repeat(64), 'g'.repeat(64), `${good.slice(1)} `, ` ${good.slice(1)}`, `${good.slice(0, 32)}-${good.slice(33)}`, 64, null, undefined, [good], { toString: () => good }]) {
      assert.equal(isSha256Hex(bad), false, JSON.stringify(bad) ?? String(bad));
    }
  });
});

describe('reading a region of a file again', () => {
  it('gives exactly the bytes the file holds there, and nothing for a region it does not hold in full', async () => {
    const tmp = temp();
    try {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.nat({ max: 320 }), fc.nat({ max: 320 }), async (content, offset, length) => {
          const file = path.join(tmp.dir, 'f.bin');
          writeFileSync(file, content);
          const want = length === 0 || offset + length <= content.length ? Buffer.from(content.subarray(offset, offset + length)) : undefined;
          assert.deepEqual(readRegion(file, offset, length), want);
          const fd = tryOpen(file);
          assert.notEqual(fd, undefined);
          try {
            assert.deepEqual(readAt(fd, offset, length), want);
          } finally {
            closeSync(fd!);
          }
        }),
        { numRuns: 200 },
      );
    } finally {
      tmp.cleanup();
    }
  });

  it('a file that is missing or cannot be read gives nothing, and leaves no descriptor open', () => {
    const tmp = temp();
    try {
      const missing = path.join(tmp.dir, 'missing');
      assert.equal(tryOpen(missing), undefined);
      assert.equal(readAt(undefined, 0, 0), undefined);
      assert.equal(readRegion(missing, 0, 1), undefined);
      const folder = path.join(tmp.dir, 'folder');
      mkdirSync(folder);
      const open = readdirSync('/proc/self/fd').length;
      for (let i = 0; i < 50; i++) assert.equal(readRegion(folder, 0, 4), undefined);
      const file = path.join(tmp.dir, 'f');
      writeFileSync(file, 'abcdef');
      for (let i = 0; i < 50; i++) assert.deepEqual(readRegion(file, 2, 3), Buffer.from('cde'));
      for (let i = 0; i < 50; i++) assert.equal(readRegion(file, 4, 3), undefined);
      assert.equal(readdirSync('/proc/self/fd').length, open, 'every descriptor closed');
    } finally {
      tmp.cleanup();
    }
  });
});
