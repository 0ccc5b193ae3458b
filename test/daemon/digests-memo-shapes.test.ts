// The digest memo's values from its contract: a digest is trusted only when it is a string of
// 64 lowercase hex digits, not anything that merely prints as one (a list holding such a string,
// a number); a memo that is not an object with `v: 2` costs a hash whatever JSON value it is.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FileDigests } from '../../src/daemon/digests.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-digest-shapes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'spec.yaml');
writeFileSync(file, 'openapi: 3.0.3\n');
const real = createHash('sha256').update('openapi: 3.0.3\n').digest('hex');
const st = statSync(file, { bigint: true });
const key = `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;
const FAKE = 'b'.repeat(64);
let n = 0;

async function digestWith(memoText: string): Promise<unknown> {
  const memo = join(dir, `memo${n++}.json`);
  writeFileSync(memo, memoText);
  return new FileDigests({ memo }).digest(file);
}

test('a digest that only prints as 64 hex digits is not trusted', async () => {
  assert.equal(await digestWith(JSON.stringify({ v: 2, files: [[file, key, FAKE]] })), FAKE, 'the well-formed row is trusted');
  for (const digest of [[FAKE], [[FAKE]], { toString: FAKE }, 1e63]) {
    assert.equal(await digestWith(JSON.stringify({ v: 2, files: [[file, key, digest]] })), real, JSON.stringify(digest));
  }
});

test('a memo that is no object with v: 2 costs a hash, whatever JSON it holds', async () => {
  for (const text of ['null', '1', '"v"', '[]', 'true', '{"v":"2","files":[]}', JSON.stringify({ files: [[file, key, FAKE]] }), JSON.stringify({ v: 1, files: [[file, key, FAKE]] }), JSON.stringify([{ v: 2, files: [[file, key, FAKE]] }])]) {
    assert.equal(await digestWith(text), real, text);
  }
});
