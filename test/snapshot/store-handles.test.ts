// Reading a snapshot (src/snapshot/store.ts, readSnapshot) closes the file it opened whatever the
// outcome: a daemon reads one per configured spec at every start and on every update, so a handle
// left open on any path would pile up until the process runs out of descriptors.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { readSnapshot, writeSnapshot } from '../../src/snapshot/index.ts';
import { temp } from './support.ts';

const KEY = 'a'.repeat(40);
const open = (): number => readdirSync('/proc/self/fd').length;

it('closes the snapshot file after a read, refused or not', { skip: existsSync('/proc/self/fd') ? false : 'needs /proc/self/fd' }, async () => {
  const tmp = temp();
  try {
    const written = await writeSnapshot(tmp.dir, KEY, Buffer.from('core'), { prints: Buffer.from('[]'), detail: Buffer.from('d'), parts: [{ bytes: 1, sha256: 'x' }] });
    const good = readFileSync(written.file);
    const flip = (at: number): Buffer => {
      const b = Buffer.from(good);
      b[at]! ^= 1;
      return b;
    };
    const cases: [string, () => void, boolean][] = [
      ['sound', () => writeFileSync(written.file, good), true],
      ['bad magic', () => writeFileSync(written.file, flip(0)), false],
      ['cut short', () => writeFileSync(written.file, good.subarray(0, good.length - 1)), false],
      ['core checksum', () => writeFileSync(written.file, flip(written.coreOffset)), false],
      ['prints checksum', () => writeFileSync(written.file, flip(written.detailOffset - 1)), false],
    ];
    const before = open();
    for (const [label, make, ok] of cases) {
      make();
      for (let i = 0; i < 20; i++) assert.equal((await readSnapshot(tmp.dir, KEY)).ok, ok, label);
      assert.equal(open(), before, `${label}: every handle closed`);
    }
    const other = path.join(tmp.dir, 'other');
    mkdirSync(path.join(other, `${KEY}.snap`), { recursive: true });
    for (let i = 0; i < 20; i++) assert.equal((await readSnapshot(other, KEY)).ok, false);
    assert.equal(open(), before, 'not a regular file: every handle closed');
  } finally {
    tmp.cleanup();
  }
});
