// The file-digest memo (src/daemon/digests.ts): what a start remembers of its files' digests, so
// the next start from snapshots need not hash every description again. A remembered digest serves
// only while the file's size, times, inode and device are unchanged; a damaged, oversized or
// unwritable memo costs a hash, never a wrong digest or a failure.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { FileDigests } from '../../src/daemon/digests.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-digests-'));
  dirs.push(d);
  return d;
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const FAKE = 'f'.repeat(64);
/** A clock well after the files' last change: their digests are settled (not racy) and remembered. */
const later = (): number => Date.now() + 60_000;

/** Rewrites the memo so every remembered file has the digest FAKE (the stat keys stay). */
function forgeMemo(memo: string): void {
  const parsed = JSON.parse(readFileSync(memo, 'utf8')) as { v: number; files: [string, string, string][] };
  writeFileSync(memo, JSON.stringify({ v: 2, files: parsed.files.map(([file, key]) => [file, key, FAKE]) }));
}

describe('file digest memo', () => {
  it('a new start takes the remembered digest of a file whose stat is unchanged, without reading it', async () => {
    const dir = folder();
    const file = join(dir, 'spec.json');
    const memo = join(dir, 'cache', 'digests.json');
    writeFileSync(file, '{"openapi":"3.0.0"}');
    const first = new FileDigests({ memo, now: later });
    assert.equal(await first.digest(file), sha('{"openapi":"3.0.0"}'));
    await first.persist();
    assert.equal(statSync(memo).mode & 0o777, 0o600, 'the memo is private');
    // Only a digest that was not recomputed can be the forged one.
    forgeMemo(memo);
    assert.equal(await new FileDigests({ memo, now: later }).digest(file), FAKE);
    assert.equal(await new FileDigests().digest(file), sha('{"openapi":"3.0.0"}'), 'without a memo the file is hashed');
  });

  it('a file changed since the memo was written is hashed again, even at the same size and mtime', async () => {
    const dir = folder();
    const file = join(dir, 'spec.json');
    const memo = join(dir, 'digests.json');
    writeFileSync(file, 'aaaa');
    utimesSync(file, 1_000_000, 1_000_000);
    const first = new FileDigests({ memo, now: later });
    await first.digest(file);
    await first.persist();
    forgeMemo(memo);
    writeFileSync(file, 'bbbb');
    utimesSync(file, 1_000_000, 1_000_000); // same size, same mtime, same inode: only the ctime moves
    assert.equal(await new FileDigests({ memo, now: later }).digest(file), sha('bbbb'));
  });

  it('a damaged, foreign or oversized memo never fails and never stands in for a digest', async () => {
    const dir = folder();
    const file = join(dir, 'spec.json');
    const memo = join(dir, 'digests.json');
    writeFileSync(file, 'contents');
    const real = sha('contents');
    const good = new FileDigests({ memo, now: later });
    await good.digest(file);
    await good.persist();
    const valid = readFileSync(memo, 'utf8');
    const key = (JSON.parse(valid) as { files: [string, string, string][] }).files[0]![1];
    // A correct row for the file beyond the size bound is not read.
    writeFileSync(memo, JSON.stringify({ v: 2, files: [[file, key, FAKE]], pad: 'x'.repeat(4 * 1024 * 1024) }));
    assert.equal(await new FileDigests({ memo, now: later }).digest(file), real);
    // Another version of the memo is not read either.
    writeFileSync(memo, JSON.stringify({ v: 1, files: [[file, key, FAKE]] }));
    assert.equal(await new FileDigests({ memo, now: later }).digest(file), real);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.uint8Array({ maxLength: 200 }),
          valid.length > 2 ? fc.nat(valid.length - 1).map((n) => valid.slice(0, n)) : fc.constant(''),
          fc.array(fc.tuple(fc.constant(file), fc.oneof(fc.constant(key), fc.string()), fc.string())).map((files) => JSON.stringify({ v: 2, files })),
        ),
        async (content) => {
          writeFileSync(memo, content);
          assert.equal(await new FileDigests({ memo, now: later }).digest(file), real);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a memo that cannot be written leaves the digests working', async () => {
    const dir = folder();
    const file = join(dir, 'spec.json');
    writeFileSync(file, 'x');
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const digests = new FileDigests({ now: later, memo: join(blocker, 'digests.json') });
    assert.equal(await digests.digest(file), sha('x'));
    await digests.persist();
    assert.equal(await digests.digest(file), sha('x'));
  });
});
