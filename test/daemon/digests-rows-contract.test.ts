// The digest memo's rows and its life cycle (src/daemon/digests.ts), from the contract:
// - a remembered digest is trusted only from a well-formed memo (`{ v: 2, files: [...] }`, a
//   regular file of at most 4 MiB owned by this user) and a well-formed row (`[file, key, digest]`,
//   three strings, the digest exactly 64 lowercase hex digits); anything else costs a hash;
// - the first row for a file wins;
// - the memo is written only when something new is known, and holds only files still retained
//   and still readable; a write that fails leaves no temp file behind.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileDigests } from '../../src/daemon/digests.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-digest-rows-'));
  dirs.push(d);
  return d;
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const FAKE = 'a'.repeat(64);
/** A clock well after the files' last change: their digests are settled (not racy) and remembered. */
const later = (): number => Date.now() + 60_000;

/** The stat key digests.ts remembers a file by. */
function keyOf(file: string): string {
  const st = statSync(file, { bigint: true });
  return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;
}

/** A spec file and a memo path beside it. */
function setUp(): { dir: string; file: string; memo: string; real: string } {
  const dir = folder();
  const file = join(dir, 'spec.yaml');
  writeFileSync(file, 'openapi: 3.0.3\n');
  return { dir, file, memo: join(dir, 'digests.json'), real: sha('openapi: 3.0.3\n') };
}

/** What a fresh start says the digest of `file` is, with `memoText` as its memo. */
async function digestWith(memo: string, memoText: string, file: string): Promise<string | undefined> {
  writeFileSync(memo, memoText);
  return new FileDigests({ memo, now: later }).digest(file);
}

const memoFile = (files: unknown): string => JSON.stringify({ v: 2, files });
const memoBytes = (memo: string): { v: number; files: [string, string, string][] } => JSON.parse(readFileSync(memo, 'utf8'));

describe('which remembered digests are trusted', () => {
  it('a well-formed row of a well-formed memo is trusted, without reading the file', async () => {
    const { file, memo } = setUp();
    assert.equal(await digestWith(memo, memoFile([[file, keyOf(file), FAKE]]), file), FAKE);
  });

  it('a row that is not three strings with a 64-digit lowercase hex digest costs a hash', async () => {
    const { file, memo, real } = setUp();
    const key = keyOf(file);
    const bad: unknown[] = [
      [file, key],
      [file, key, FAKE, 'x'],
      { 0: file, 1: key, 2: FAKE, length: 3 },
      [1, key, FAKE],
      [file, 1, FAKE],
      [file, key, 1],
      [file, key, 'A'.repeat(64)],
      [file, key, 'a'.repeat(63)],
      [file, key, 'a'.repeat(65)],
      [file, key, `x${'a'.repeat(64)}`],
      [file, key, `${'a'.repeat(64)}x`],
      [file, key, `${'a'.repeat(64)}\n`],
    ];
    for (const row of bad) assert.equal(await digestWith(memo, memoFile([row]), file), real, JSON.stringify(row));
  });

  it('a bad row costs only itself: the rows after it are trusted, and the next memo holds only good rows', async () => {
    const { dir, file, memo } = setUp();
    const other = join(dir, 'other.yaml');
    const third = join(dir, 'third.yaml');
    writeFileSync(other, 'x');
    writeFileSync(third, 'y');
    const key = keyOf(file);
    const bad: unknown[] = [{ 0: file, 1: key, 2: FAKE, length: 3 }, 'row', null, [1, key, FAKE], [file, 2, FAKE], [file, key, 3]];
    for (const row of bad) {
      writeFileSync(memo, memoFile([row, [other, keyOf(other), FAKE]]));
      const d = new FileDigests({ memo, now: later });
      assert.equal(await d.digest(other), FAKE, JSON.stringify(row));
      await d.digest(third);
      await d.persist();
      for (const r of memoBytes(memo).files) assert.ok(r.every((x) => typeof x === 'string'), JSON.stringify(r));
    }
  });

  it('a memo of another version, shape or kind costs a hash', async () => {
    const { dir, file, memo, real } = setUp();
    const row = [file, keyOf(file), FAKE];
    for (const text of [JSON.stringify({ v: 1, files: [row] }), JSON.stringify({ files: [row] }), 'null', JSON.stringify([row]), '7', JSON.stringify({ v: 2, files: { 0: row } }), '{"v":2,"files":[']) {
      assert.equal(await digestWith(memo, text, file), real, text);
    }
    const asFolder = join(dir, 'memo-folder');
    mkdirSync(asFolder);
    assert.equal(await new FileDigests({ now: later, memo: asFolder }).digest(file), real);
  });

  it('a memo of exactly 4 MiB is read; one byte more is not', async () => {
    const { file, memo, real } = setUp();
    const text = memoFile([[file, keyOf(file), FAKE]]);
    const limit = 4 * 1024 * 1024;
    assert.equal(await digestWith(memo, text.padEnd(limit, ' '), file), FAKE);
    assert.equal(await digestWith(memo, text.padEnd(limit + 1, ' '), file), real);
  });

  it('a memo owned by another user is not trusted', { skip: process.getuid?.() !== 0 && 'changing a file\'s owner needs root' }, async () => {
    const { file, memo, real } = setUp();
    writeFileSync(memo, memoFile([[file, keyOf(file), FAKE]]));
    chownSync(memo, 4321, 4321);
    assert.equal(await new FileDigests({ memo, now: later }).digest(file), real);
  });

  it('the first row for a file wins', async () => {
    const { file, memo } = setUp();
    assert.equal(await digestWith(memo, memoFile([[file, keyOf(file), FAKE], [file, keyOf(file), 'b'.repeat(64)]]), file), FAKE);
  });
});

describe('what the memo keeps', () => {
  it('nothing is written when nothing new is known, nor again after a write', async () => {
    const { file, memo } = setUp();
    await new FileDigests({ memo, now: later }).persist();
    assert.equal(existsSync(memo), false);
    const d = new FileDigests({ memo, now: later });
    await d.digest(file);
    await d.persist();
    assert.deepEqual(memoBytes(memo).files.map((r) => r[0]), [file]);
    rmSync(memo);
    await d.persist();
    assert.equal(existsSync(memo), false, 'written again with nothing new');
  });

  it('only files still retained and still readable are remembered', async () => {
    const { dir, file, memo } = setUp();
    const [b, c, gone, turned] = ['b.yaml', 'c.yaml', 'gone.yaml', 'turned.yaml'].map((n) => join(dir, n)) as [string, string, string, string];
    for (const f of [b, c, gone, turned]) writeFileSync(f, f);
    const d = new FileDigests({ memo, now: later });
    for (const f of [file, b, gone, turned]) assert.ok(await d.digest(f));
    d.retain(new Set([file, gone, turned]));
    rmSync(gone);
    assert.equal(await d.digest(gone), undefined);
    rmSync(turned);
    mkdirSync(turned);
    assert.equal(await d.digest(turned), undefined);
    assert.equal(await d.digest(c), sha(c));
    await d.persist();
    assert.deepEqual(memoBytes(memo).files.map((r) => r[0]).sort(), [file, c].sort());
  });

  it('a write that fails leaves no temp file behind', async () => {
    const { dir, file } = setUp();
    const memo = join(dir, 'taken');
    mkdirSync(join(memo, 'inside'), { recursive: true });
    const d = new FileDigests({ memo, now: later });
    await d.digest(file);
    await d.persist();
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
  });
});
