// The racy rule of the digest memo (src/daemon/digests.ts): a digest taken while the file's ctime
// was recent (RACY_MS: a tenth of a second for sub-second timestamps, three seconds for whole-second
// ones) may miss a change made in the same tick of the file system's clock (same size, same mtime,
// same ctime), so it is used once and never remembered; the first digest taken once the file has
// settled is. The clock is the one a FileDigests is given, so each case is exact (a same-tick
// write cannot be made to happen on purpose).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { FileDigests, RACY_MS, racy, statIdentity } from '../../src/daemon/digests.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-digests-racy-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const FAKE = 'c'.repeat(64);
let n = 0;

/** A new file and a memo path of its own; its ctime in whole ms, and the margin its timestamps call for. */
function fileAndMemo(text: string): { file: string; memo: string; ctimeMs: number; margin: number } {
  const file = join(dir, `spec${n}.yaml`);
  const memo = join(dir, `memo${n++}.json`);
  writeFileSync(file, text);
  const ctimeNs = statSync(file, { bigint: true }).ctimeNs;
  return { file, memo, ctimeMs: Number(ctimeNs / 1_000_000n), margin: ctimeNs % 1_000_000_000n === 0n ? RACY_MS.wholeSecond : RACY_MS.subSecond };
}

/** The memo's rows with every digest replaced by FAKE: only a digest read from the memo can be FAKE. */
function forge(memo: string): void {
  const parsed = JSON.parse(readFileSync(memo, 'utf8')) as { v: number; files: [string, string, string][] };
  writeFileSync(memo, JSON.stringify({ v: parsed.v, files: parsed.files.map(([file, key]) => [file, key, FAKE]) }));
}

describe('digests of files changed moments before', () => {
  it('a ctime is racy up to a tenth of a second before the digest, or three seconds when timestamps are whole seconds', () => {
    const ns = (ms: number, sub: number): bigint => BigInt(ms) * 1_000_000n + BigInt(sub);
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }), fc.integer({ min: -10_000, max: 10_000 }), fc.integer({ min: 1, max: 999_999 }), (second, age, sub) => {
        const wholeSecond = BigInt(second) * 1_000_000_000n;
        assert.equal(racy(wholeSecond, second * 1000 + age), age <= RACY_MS.wholeSecond, `whole second, age ${age}`);
        // A sub-second part anywhere in the second (in ms, and below a ms).
        const ms = second * 1000 + (sub % 1000);
        assert.equal(racy(ns(ms, sub % 1_000_000), ms + age), age <= RACY_MS.subSecond, `sub-second, age ${age}`);
      }),
      { numRuns: 500 },
    );
    for (const age of [RACY_MS.subSecond - 1, RACY_MS.subSecond, RACY_MS.subSecond + 1]) assert.equal(racy(ns(1_700_000_000_123, 0), 1_700_000_000_123 + age), age <= RACY_MS.subSecond);
    for (const age of [RACY_MS.wholeSecond - 1, RACY_MS.wholeSecond, RACY_MS.wholeSecond + 1]) assert.equal(racy(ns(1_700_000_000_000, 0), 1_700_000_000_000 + age), age <= RACY_MS.wholeSecond);
  });

  it('a digest is remembered exactly when the file had settled (its ctime older than the margin when it was taken)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer({ min: -10_000, max: 10_000 }), fc.constantFrom(-1, 0, 1, 99, 100, 101, 2999, 3000, 3001)), async (age) => {
        const { file, memo, ctimeMs, margin } = fileAndMemo('openapi: 3.0.3\n');
        const digests = new FileDigests({ memo, now: () => ctimeMs + age });
        // The digest is right either way: only whether it is kept depends on the file's age.
        assert.equal(await digests.digest(file), sha('openapi: 3.0.3\n'));
        await digests.persist();
        const remembered = existsSync(memo);
        assert.equal(remembered, age > margin, `age ${age} ms`);
        if (remembered) {
          forge(memo);
          assert.equal(await new FileDigests({ memo }).digest(file), FAKE, 'a settled digest serves the next start');
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a racy digest is taken again on the next call, and remembered once the file has settled', async () => {
    const { file, memo, ctimeMs, margin } = fileAndMemo('a: 1\n');
    let now = ctimeMs + margin;
    const digests = new FileDigests({ memo, now: () => now });
    assert.equal(await digests.digest(file), sha('a: 1\n'));
    assert.equal(await digests.digest(file), sha('a: 1\n'));
    await digests.persist();
    assert.equal(existsSync(memo), false, 'nothing settled, nothing remembered');
    now = ctimeMs + margin + 1;
    assert.equal(await digests.digest(file), sha('a: 1\n'));
    await digests.persist();
    forge(memo);
    assert.equal(await new FileDigests({ memo }).digest(file), FAKE);
  });

  it('a file with a ctime ahead of the clock (another machine, a clock set back) is never trusted', async () => {
    const { file, memo, ctimeMs } = fileAndMemo('b: 2\n');
    const digests = new FileDigests({ memo, now: () => ctimeMs - 60_000 });
    assert.equal(await digests.digest(file), sha('b: 2\n'));
    await digests.persist();
    assert.equal(existsSync(memo), false);
  });

  it('a memo of the version before the racy rule is not read', async () => {
    const { file, memo } = fileAndMemo('c: 3\n');
    const st = statSync(file, { bigint: true });
    const key = `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;
    writeFileSync(memo, JSON.stringify({ v: 1, files: [[file, key, FAKE]] }));
    assert.equal(await new FileDigests({ memo }).digest(file), sha('c: 3\n'));
    writeFileSync(memo, JSON.stringify({ v: 2, files: [[file, key, FAKE]] }));
    assert.equal(await new FileDigests({ memo }).digest(file), FAKE);
  });
});

describe('a digest made elsewhere (FileDigests.remember)', () => {
  it('is used while the file keeps the identity it had, never read, and not once the file changes', async () => {
    const { file, ctimeMs, margin } = fileAndMemo('openapi: 3.0.3\n');
    const clock = ctimeMs + margin + 1;
    const digests = new FileDigests({ now: () => clock });
    const identity = await statIdentity(file, () => clock);
    assert.equal(identity.settled, true);
    // FAKE is no file's digest: only the remembered one can come back.
    digests.remember(file, identity, FAKE);
    assert.equal(await digests.digest(file), FAKE);
    writeFileSync(file, 'openapi: 3.1.0\n');
    assert.equal(await digests.digest(file), sha('openapi: 3.1.0\n'));
  });

  it('is not kept when the identity was racy, or when it is no sha256', async () => {
    const { file, ctimeMs, margin } = fileAndMemo('openapi: 3.0.3\n');
    const racyIdentity = await statIdentity(file, () => ctimeMs + margin);
    assert.equal(racyIdentity.settled, false);
    const digests = new FileDigests({ now: () => ctimeMs + margin + 1 });
    digests.remember(file, racyIdentity, FAKE);
    assert.equal(await digests.digest(file), sha('openapi: 3.0.3\n'));
    const other = fileAndMemo('openapi: 3.0.3\n');
    const settled = new FileDigests({ now: () => other.ctimeMs + other.margin + 1 });
    settled.remember(other.file, await statIdentity(other.file, () => other.ctimeMs + other.margin + 1), 'not a digest');
    assert.equal(await settled.digest(other.file), sha('openapi: 3.0.3\n'));
  });
});
