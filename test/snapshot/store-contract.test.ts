// The snapshot file itself (src/snapshot/store.ts), without a spec: any bytes as core, prints and
// detail. What was written reads back exactly, at the offsets the reader reports; a file changed
// anywhere before its detail, cut short or grown is refused before any of it is used, each kind of
// damage with the reason the daemon's note shows; the folder must be a private folder of this user;
// old snapshots and dead temp files are pruned by age, nothing else.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, lstatSync, lutimesSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODEC_VERSION, type DetailPart, ensurePrivateDir, pruneSnapshots, readSnapshot, snapshotDir, snapshotFile, snapshotKey, touchSnapshot, writeSnapshot } from '../../src/snapshot/index.ts';
import { temp } from './support.ts';

const KEY = 'c'.repeat(40);
const sha = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** A late part of `detail` cut into parts of the given lengths (any sha256 text: the store only checks they are text). */
function late(prints: Uint8Array, detail: Uint8Array, cuts: readonly number[] = [detail.length]): { prints: Buffer; detail: Buffer; parts: DetailPart[] } {
  const parts: DetailPart[] = [];
  let at = 0;
  for (const n of cuts) {
    parts.push({ bytes: n, sha256: sha(detail.subarray(at, at + n)) });
    at += n;
  }
  return { prints: Buffer.from(prints), detail: Buffer.from(detail), parts };
}

/** A file laid out as the store lays it out, with `header` as given (an object, or raw text). */
function craft(dir: string, key: string, header: unknown, body: Uint8Array = Buffer.alloc(0)): string {
  const text = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header));
  const lead = Buffer.alloc(12);
  lead.write('SVCSNAP1');
  lead.writeUInt32LE(text.length, 8);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${key}.snap`);
  writeFileSync(file, Buffer.concat([lead, text, body]), { mode: 0o600 });
  return file;
}

/** The header the store writes for these parts. */
function header(key: string, core: Uint8Array, l: ReturnType<typeof late>): Record<string, unknown> {
  return { key, coreBytes: core.length, coreSha256: sha(core), printsBytes: l.prints.length, printsSha256: sha(l.prints), detailBytes: l.detail.length, parts: l.parts, partsSha256: sha(JSON.stringify(l.parts)) };
}

async function reason(dir: string, key = KEY): Promise<string> {
  const read = await readSnapshot(dir, key);
  assert.equal(read.ok, false, 'refused');
  return read.ok ? '' : `${read.reason}: ${read.detail}`;
}

const bytes = (max: number) => fc.uint8Array({ maxLength: max });

describe('a snapshot file as written', () => {
  it('reads back the same core, prints and parts, at the offsets where the file holds them', async () => {
    const tmp = temp();
    try {
      await fc.assert(
        fc.asyncProperty(bytes(300), bytes(100), bytes(300), fc.nat({ max: 300 }), async (core, prints, detail, cut) => {
          const split = Math.min(cut, detail.length);
          const l = late(prints, detail, [split, detail.length - split]);
          const dir = path.join(tmp.dir, 'rt');
          const written = await writeSnapshot(dir, KEY, core, l);
          assert.equal(written.file, snapshotFile(dir, KEY));
          assert.equal(written.file, path.join(dir, `${KEY}.snap`));
          const file = readFileSync(written.file);
          assert.equal(file.length, written.detailOffset + detail.length);
          assert.deepEqual(file.subarray(written.coreOffset, written.coreOffset + core.length), Buffer.from(core));
          assert.deepEqual(file.subarray(written.coreOffset + core.length, written.detailOffset), Buffer.from(prints));
          assert.deepEqual(file.subarray(written.detailOffset), Buffer.from(detail));
          const read = await readSnapshot(dir, KEY);
          assert.ok(read.ok, JSON.stringify(read));
          assert.deepEqual(read.core, Buffer.from(core));
          assert.deepEqual(read.prints, Buffer.from(prints));
          assert.deepEqual(read.parts, l.parts);
          assert.deepEqual({ file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts }, written);
        }),
        { numRuns: 40 },
      );
    } finally {
      tmp.cleanup();
    }
  });

  it('reads back cores and prints of several megabytes (hashed a megabyte at a time)', async () => {
    const tmp = temp();
    try {
      const core = Buffer.alloc(2.5 * 1024 * 1024 + 7);
      for (let i = 0; i < core.length; i++) core[i] = (i * 31 + (i >> 11)) & 255;
      const prints = Buffer.from(core.subarray(0, 1024 * 1024 + 1)).reverse();
      await writeSnapshot(tmp.dir, KEY, core, late(prints, Buffer.from('detail')));
      const read = await readSnapshot(tmp.dir, KEY);
      assert.ok(read.ok);
      assert.ok(read.core.equals(core) && read.prints.equals(prints));
      // The same bytes one past the end of a megabyte in the core: its checksum covers its tail.
      const file = readFileSync(read.file);
      file[read.coreOffset + 2 * 1024 * 1024 + 3]! ^= 1;
      writeFileSync(read.file, file);
      assert.equal(await reason(tmp.dir), 'corrupt: core checksum mismatch');
    } finally {
      tmp.cleanup();
    }
  });

  it('is the folder\'s only file once written, and a write that fails leaves no temp file and throws', async () => {
    const tmp = temp();
    try {
      await writeSnapshot(tmp.dir, KEY, Buffer.from('core'), late(Buffer.from('[]'), Buffer.alloc(0), []));
      assert.deepEqual(readdirSync(tmp.dir), [`${KEY}.snap`]);
      // A non-empty folder where the file goes: the rename fails.
      const blocked = 'd'.repeat(40);
      mkdirSync(path.join(tmp.dir, `${blocked}.snap`, 'inside'), { recursive: true });
      await assert.rejects(writeSnapshot(tmp.dir, blocked, Buffer.from('core'), late(Buffer.from('[]'), Buffer.alloc(0), [])));
      assert.deepEqual(readdirSync(tmp.dir).sort(), [`${blocked}.snap`, `${KEY}.snap`].sort());
    } finally {
      tmp.cleanup();
    }
  });
});

describe('a snapshot file changed after it was written', () => {
  // One snapshot, every byte of it: small enough to try each place.
  const core = Buffer.from('{"core":"of a spec","n":[1,2,3]}');
  const l = late(Buffer.from('["p1","p2"]'), Buffer.from('first part|second part'), [11, 11]);

  it('one byte changed anywhere before the detail: refused, with the reason of the part that changed', async () => {
    const tmp = temp();
    try {
      const written = await writeSnapshot(tmp.dir, KEY, core, l);
      const good = readFileSync(written.file);
      const printsAt = written.coreOffset + core.length;
      for (let at = 0; at < written.detailOffset; at++) {
        for (const mask of [0x01, 0x20, 0xff]) {
          const bad = Buffer.from(good);
          bad[at]! ^= mask;
          writeFileSync(written.file, bad);
          const why = await reason(tmp.dir);
          if (at < 8) assert.equal(why, 'corrupt: not a snapshot file (bad magic)', `byte ${at}`);
          else if (at >= printsAt) assert.equal(why, 'corrupt: prints checksum mismatch', `byte ${at}`);
          else if (at >= written.coreOffset) assert.equal(why, 'corrupt: core checksum mismatch', `byte ${at}`);
          else assert.match(why, /^corrupt: /, `byte ${at}`);
        }
      }
    } finally {
      tmp.cleanup();
    }
  });

  it('one byte changed in the detail: read, core and prints intact (each part is checked when a schema reads it)', async () => {
    const tmp = temp();
    try {
      const written = await writeSnapshot(tmp.dir, KEY, core, l);
      const good = readFileSync(written.file);
      for (let at = written.detailOffset; at < good.length; at++) {
        const bad = Buffer.from(good);
        bad[at]! ^= 0x5a;
        writeFileSync(written.file, bad);
        const read = await readSnapshot(tmp.dir, KEY);
        assert.ok(read.ok, `byte ${at}`);
        assert.ok(read.core.equals(core) && read.prints.equals(l.prints));
        assert.deepEqual(read.parts, l.parts);
      }
    } finally {
      tmp.cleanup();
    }
  });

  it('cut short anywhere or grown by any bytes: refused', async () => {
    const tmp = temp();
    try {
      const written = await writeSnapshot(tmp.dir, KEY, core, l);
      const good = readFileSync(written.file);
      const headerEnd = written.coreOffset;
      for (let length = 0; length < good.length; length++) {
        writeFileSync(written.file, good.subarray(0, length));
        const why = await reason(tmp.dir);
        if (length < 12) assert.equal(why, 'corrupt: not a snapshot file (bad magic)', `length ${length}`);
        else if (length < headerEnd) assert.equal(why, 'corrupt: truncated header', `length ${length}`);
        else assert.equal(why, `corrupt: size ${length} does not match the header (truncated?)`, `length ${length}`);
      }
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 40 }), async (extra) => {
          writeFileSync(written.file, Buffer.concat([good, extra]));
          assert.equal(await reason(tmp.dir), `corrupt: size ${good.length + extra.length} does not match the header (truncated?)`);
        }),
        { numRuns: 20 },
      );
    } finally {
      tmp.cleanup();
    }
  });
});

describe('a file that is not a sound snapshot is refused with why', () => {
  const core = Buffer.from('core bytes');
  const l = late(Buffer.from('prints'), Buffer.from('aaaabbbbbb'), [4, 6]);
  const body = Buffer.concat([core, l.prints, l.detail]);
  const good = header(KEY, core, l);
  /** The sound header with other parts, their own checksum made to match (so only the parts' shape is wrong). */
  const withParts = (parts: unknown): Record<string, unknown> => ({ ...good, parts, partsSha256: sha(JSON.stringify(parts)) });

  const cases: [label: string, make: (dir: string) => void, want: string][] = [
    ['none there', () => {}, 'missing: no snapshot yet'],
    ['the magic alone (12 bytes needed)', (dir) => writeFileSync(path.join(dir, `${KEY}.snap`), 'SVCSNAP1'), 'corrupt: not a snapshot file (bad magic)'],
    ['another magic', (dir) => writeFileSync(path.join(dir, `${KEY}.snap`), Buffer.concat([Buffer.from('SVCSNAP2'), readFileSync(craft(path.join(dir, 'x'), KEY, good, body)).subarray(8)])), 'corrupt: not a snapshot file (bad magic)'],
    ['a header length past the bound', (dir) => {
      const file = craft(dir, KEY, good, body);
      const b = readFileSync(file);
      b.writeUInt32LE(16 * 1024 * 1024 + 1, 8);
      writeFileSync(file, b);
    }, 'corrupt: header too large'],
    ['a header length at the bound, longer than the file', (dir) => {
      const file = craft(dir, KEY, good, body);
      const b = readFileSync(file);
      b.writeUInt32LE(16 * 1024 * 1024, 8);
      writeFileSync(file, b);
    }, 'corrupt: truncated header'],
    ['a header that is not JSON', (dir) => craft(dir, KEY, '{"key":', body), 'corrupt: unreadable header'],
    ['a header that is JSON null', (dir) => craft(dir, KEY, 'null', body), 'corrupt: header names another key'],
    ['a header for another key (a file renamed)', (dir) => craft(dir, KEY, { ...good, key: 'e'.repeat(40) }, body), 'corrupt: header names another key'],
    ['a negative core length', (dir) => craft(dir, KEY, { ...good, coreBytes: -1, printsBytes: good['printsBytes'] as number + 1 }, body), `corrupt: size 12+ does not match`],
    ['a fractional prints length', (dir) => craft(dir, KEY, { ...good, printsBytes: 5.5, detailBytes: 10.5 }, body), `corrupt: size 12+ does not match`],
    ['a length as text', (dir) => craft(dir, KEY, { ...good, detailBytes: '10' }, body), `corrupt: size 12+ does not match`],
    ['lengths adding up to less than the file', (dir) => craft(dir, KEY, { ...good, detailBytes: 9 }, body), `corrupt: size 12+ does not match`],
    ['parts that are not a list', (dir) => craft(dir, KEY, withParts({ bytes: 10, sha256: 'x' }), body), 'corrupt: header parts do not agree'],
    ['a part that is null', (dir) => craft(dir, KEY, withParts([null, { bytes: 10, sha256: 'x' }]), body), 'corrupt: header parts do not agree'],
    ['a part with a negative length', (dir) => craft(dir, KEY, withParts([{ bytes: -2, sha256: 'x' }, { bytes: 12, sha256: 'y' }]), body), 'corrupt: header parts do not agree'],
    ['a part with a fractional length', (dir) => craft(dir, KEY, withParts([{ bytes: 4.5, sha256: 'x' }, { bytes: 5.5, sha256: 'y' }]), body), 'corrupt: header parts do not agree'],
    ['a part without its sha256', (dir) => craft(dir, KEY, withParts([{ bytes: 4 }, { bytes: 6, sha256: 'y' }]), body), 'corrupt: header parts do not agree'],
    ['parts adding up to more than the detail', (dir) => craft(dir, KEY, withParts([{ bytes: 4, sha256: 'x' }, { bytes: 7, sha256: 'y' }]), body), 'corrupt: header parts do not agree'],
    ['parts adding up to less than the detail', (dir) => craft(dir, KEY, withParts([{ bytes: 4, sha256: 'x' }, { bytes: 5, sha256: 'y' }]), body), 'corrupt: header parts do not agree'],
    ['a part\'s sha256 edited (the parts\' own checksum)', (dir) => craft(dir, KEY, { ...good, parts: [{ ...l.parts[0]!, sha256: sha('other') }, l.parts[1]] }, body), 'corrupt: header parts do not agree'],
    ['the core\'s checksum edited', (dir) => craft(dir, KEY, { ...good, coreSha256: sha('other') }, body), 'corrupt: core checksum mismatch'],
    ['the prints\' checksum edited', (dir) => craft(dir, KEY, { ...good, printsSha256: sha('other') }, body), 'corrupt: prints checksum mismatch'],
    ['a folder in its place', (dir) => mkdirSync(path.join(dir, `${KEY}.snap`)), 'corrupt: not a regular file'],
    ['a symbolic link to a sound snapshot', (dir) => {
      const real = craft(path.join(dir, 'real'), KEY, good, body);
      symlinkSync(real, path.join(dir, `${KEY}.snap`));
    }, 'corrupt: cannot open: ELOOP'],
    ['a folder that is a file', (dir) => writeFileSync(path.join(dir, 'file'), 'x'), 'corrupt: cannot open: ENOTDIR'],
  ];

  for (const [label, make, want] of cases) {
    it(label, async () => {
      const tmp = temp();
      try {
        const dir = path.join(tmp.dir, 'snaps');
        mkdirSync(dir, { mode: 0o700 });
        make(dir);
        const where = label === 'a folder that is a file' ? path.join(dir, 'file') : dir;
        const why = await reason(where);
        if (want.endsWith('does not match')) assert.match(why, /^corrupt: size \d+ does not match the header \(truncated\?\)$/);
        else assert.equal(why, want);
      } finally {
        tmp.cleanup();
      }
    });
  }

  it('the sound file these cases edit is read', async () => {
    const tmp = temp();
    try {
      craft(tmp.dir, KEY, good, body);
      const read = await readSnapshot(tmp.dir, KEY);
      assert.ok(read.ok, JSON.stringify(read));
      assert.deepEqual(read.parts, l.parts);
    } finally {
      tmp.cleanup();
    }
  });

  it('a file of another user (as root)', { skip: isRoot ? false : 'needs root to give a file away' }, async () => {
    const tmp = temp();
    try {
      const file = craft(tmp.dir, KEY, good, body);
      chownSync(file, 4242, 4242);
      assert.equal(await reason(tmp.dir), 'corrupt: owned by another user');
    } finally {
      tmp.cleanup();
    }
  });
});

describe('the cache folder', () => {
  it('is made 0700 where missing; one of this user that only it can write is taken as it is', async () => {
    const tmp = temp();
    try {
      const dir = path.join(tmp.dir, 'a', 'b');
      await ensurePrivateDir(dir);
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      const open = path.join(tmp.dir, 'readable');
      mkdirSync(open, { mode: 0o755 });
      chmodSync(open, 0o755);
      await ensurePrivateDir(open);
      assert.equal(statSync(open).mode & 0o777, 0o755);
    } finally {
      tmp.cleanup();
    }
  });

  for (const mode of [0o777, 0o720, 0o702, 0o730]) {
    it(`is refused when others can write it (mode ${mode.toString(8)}), and no snapshot is written there`, async () => {
      const tmp = temp();
      try {
        const dir = path.join(tmp.dir, 'shared');
        mkdirSync(dir);
        chmodSync(dir, mode);
        await assert.rejects(ensurePrivateDir(dir), { message: `${dir} can be written by other users` });
        await assert.rejects(writeSnapshot(dir, KEY, Buffer.from('c'), late(Buffer.alloc(0), Buffer.alloc(0), [])), { message: `${dir} can be written by other users` });
        assert.deepEqual(readdirSync(dir), []);
      } finally {
        tmp.cleanup();
      }
    });
  }

  it('is refused when it is a symbolic link to a folder', async () => {
    const tmp = temp();
    try {
      const real = path.join(tmp.dir, 'real');
      mkdirSync(real, { mode: 0o700 });
      const link = path.join(tmp.dir, 'link');
      symlinkSync(real, link);
      await assert.rejects(ensurePrivateDir(link), { message: `${link} is not a folder` });
    } finally {
      tmp.cleanup();
    }
  });

  it('is refused when it belongs to another user (as root)', { skip: isRoot ? false : 'needs root to give a folder away' }, async () => {
    const tmp = temp();
    try {
      const dir = path.join(tmp.dir, 'theirs');
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, 4242, 4242);
      await assert.rejects(ensurePrivateDir(dir), { message: `${dir} belongs to another user` });
    } finally {
      tmp.cleanup();
    }
  });

  it('is $XDG_CACHE_HOME/svc/snapshots for an absolute XDG_CACHE_HOME, else ~/.cache/svc/snapshots', () => {
    assert.equal(snapshotDir({ XDG_CACHE_HOME: '/var/cache/me' }), '/var/cache/me/svc/snapshots');
    const home = path.join(homedir(), '.cache', 'svc', 'snapshots');
    for (const env of [{}, { XDG_CACHE_HOME: '' }, { XDG_CACHE_HOME: 'relative/cache' }]) assert.equal(snapshotDir(env), home, JSON.stringify(env));
  });
});

describe('a snapshot\'s key', () => {
  it('is 40 hex digits, the same for the same material, another for any other version or entry', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (v1, k1, v2, k2) => {
        const a = snapshotKey({ svcVersion: v1, importKey: k1 });
        assert.match(a, /^[0-9a-f]{40}$/);
        assert.equal(snapshotKey({ svcVersion: v1, importKey: k1 }), a);
        assert.equal(a, sha(JSON.stringify([CODEC_VERSION, v1, k1])).slice(0, 40));
        if (v1 !== v2 || k1 !== k2) assert.notEqual(snapshotKey({ svcVersion: v2, importKey: k2 }), a);
      }),
    );
    // The parts are not run together: moving text from one to the other is another key.
    assert.notEqual(snapshotKey({ svcVersion: '1.2', importKey: '3' }), snapshotKey({ svcVersion: '1.', importKey: '23' }));
  });
});

describe('pruning', () => {
  const DAY = 24 * 3600 * 1000;
  const hex = (c: string, n = 40) => c.repeat(n);

  it('removes snapshots unused past 30 days and temp files past a day, at their exact ages; keeps the rest', async () => {
    const tmp = temp();
    try {
      const now = Date.now();
      const at = (name: string, ageMs: number): string => {
        const file = path.join(tmp.dir, name);
        writeFileSync(file, 'x');
        const when = new Date(now - ageMs);
        utimesSync(file, when, when);
        return name;
      };
      const gone = [at(`${hex('a')}.snap`, 30 * DAY + 1000), at(`.${hex('b')}.1.0123abcd.tmp`, DAY + 1000), at(`.${hex('c')}.98765.ffffffff.tmp`, 2 * DAY)];
      const kept = [
        at(`${hex('d')}.snap`, 30 * DAY - 1000),
        at(`${hex('e')}.snap`, 2 * DAY),
        at(`.${hex('f')}.1.0123abcd.tmp`, DAY - 1000),
        // Not names the store writes: never removed, however old.
        at(`${hex('A')}.snap`, 90 * DAY),
        at(`${hex('a', 39)}.snap`, 90 * DAY),
        at(`${hex('a', 41)}.snap`, 90 * DAY),
        at(`x${hex('a')}.snap`, 90 * DAY),
        at(`${hex('a')}.snapx`, 90 * DAY),
        at(`${hex('a')}.snap.bak`, 90 * DAY),
        at(`${hex('a')}xsnap`, 90 * DAY),
        at(`${hex('a')}.tmp`, 90 * DAY),
        at(`.${hex('a')}.1.0123abc.tmp`, 90 * DAY),
        at(`.${hex('a')}.1.0123abcde.tmp`, 90 * DAY),
        at(`.${hex('a')}..0123abcd.tmp`, 90 * DAY),
        at(`.${hex('a')}.x.0123abcd.tmp`, 90 * DAY),
        at(`.${hex('a')}.1.0123ABCD.tmp`, 90 * DAY),
        at(`.${hex('a')}.1.0123abcd.tmpx`, 90 * DAY),
        at(`x.${hex('a')}.1.0123abcd.tmp`, 90 * DAY),
        at(`.${hex('a', 39)}.1.0123abcd.tmp`, 90 * DAY),
        at('notes.txt', 90 * DAY),
      ];
      // A folder and a symbolic link named like snapshots: not files, kept.
      mkdirSync(path.join(tmp.dir, `${hex('9')}.snap`));
      symlinkSync(path.join(tmp.dir, 'notes.txt'), path.join(tmp.dir, `${hex('8')}.snap`));
      const old = new Date(now - 90 * DAY);
      utimesSync(path.join(tmp.dir, `${hex('9')}.snap`), old, old);
      lutimesSync(path.join(tmp.dir, `${hex('8')}.snap`), old, old);
      assert.equal(await pruneSnapshots(tmp.dir, now), gone.length);
      assert.deepEqual(readdirSync(tmp.dir).sort(), [...kept, `${hex('9')}.snap`, `${hex('8')}.snap`].sort());
      assert.equal(lstatSync(path.join(tmp.dir, `${hex('8')}.snap`)).isSymbolicLink(), true);
    } finally {
      tmp.cleanup();
    }
  });

  it('keeps a snapshot exactly 30 days unused and a temp file exactly a day old (past the limit, not at it)', async () => {
    const tmp = temp();
    try {
      const then = new Date(Date.now() - 1000);
      const snap = path.join(tmp.dir, `${hex('1')}.snap`);
      const tmpFile = path.join(tmp.dir, `.${hex('2')}.7.00000000.tmp`);
      for (const f of [snap, tmpFile]) {
        writeFileSync(f, 'x');
        utimesSync(f, then, then);
      }
      const mtime = statSync(snap).mtimeMs;
      assert.equal(mtime, then.getTime(), 'whole milliseconds');
      assert.equal(await pruneSnapshots(tmp.dir, mtime + DAY), 0);
      assert.equal(await pruneSnapshots(tmp.dir, mtime + DAY + 1), 1);
      assert.deepEqual(readdirSync(tmp.dir), [`${hex('1')}.snap`]);
      assert.equal(await pruneSnapshots(tmp.dir, mtime + 30 * DAY), 0);
      assert.equal(await pruneSnapshots(tmp.dir, mtime + 30 * DAY + 1), 1);
      assert.deepEqual(readdirSync(tmp.dir), []);
    } finally {
      tmp.cleanup();
    }
  });

  it('a folder that cannot be read prunes nothing and does not throw', async () => {
    const tmp = temp();
    try {
      assert.equal(await pruneSnapshots(path.join(tmp.dir, 'none')), 0);
      writeFileSync(path.join(tmp.dir, 'file'), 'x');
      assert.equal(await pruneSnapshots(path.join(tmp.dir, 'file')), 0);
    } finally {
      tmp.cleanup();
    }
  });

  it('a snapshot marked used is young again; marking a file that is gone does not throw', async () => {
    const tmp = temp();
    try {
      const file = path.join(tmp.dir, `${hex('a')}.snap`);
      writeFileSync(file, 'x');
      const old = new Date(Date.now() - 40 * DAY);
      utimesSync(file, old, old);
      await touchSnapshot(file);
      assert.ok(Date.now() - statSync(file).mtimeMs < DAY);
      assert.equal(await pruneSnapshots(tmp.dir), 0);
      renameSync(file, `${file}.gone`);
      await touchSnapshot(file);
    } finally {
      tmp.cleanup();
    }
  });
});
