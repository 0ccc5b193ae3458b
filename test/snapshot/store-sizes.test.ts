// A snapshot header's lengths must be whole, non-negative numbers (src/snapshot/store.ts): lengths
// that add up to the file's size but are not are refused before any part is read, so a core or
// prints region is never cut at a place the header made up.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { readSnapshot } from '../../src/snapshot/index.ts';
import { temp } from './support.ts';

const KEY = 'b'.repeat(40);
const sha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

it('lengths that add up to the file but are negative or fractional are refused as not matching', async () => {
  const tmp = temp();
  try {
    const core = Buffer.from('core bytes');
    const prints = Buffer.from('prints');
    const detail = Buffer.from('detail');
    const parts = [{ bytes: detail.length, sha256: sha(detail) }];
    const good = { key: KEY, coreBytes: core.length, coreSha256: sha(core), printsBytes: prints.length, printsSha256: sha(prints), detailBytes: detail.length, parts, partsSha256: sha(JSON.stringify(parts)) };
    const file = (header: object): void => {
      const text = Buffer.from(JSON.stringify(header));
      const lead = Buffer.alloc(12);
      lead.write('SVCSNAP1');
      lead.writeUInt32LE(text.length, 8);
      writeFileSync(path.join(tmp.dir, `${KEY}.snap`), Buffer.concat([lead, text, core, prints, detail]));
    };
    file(good);
    assert.ok((await readSnapshot(tmp.dir, KEY)).ok, 'the sound header is read');
    const total = core.length + prints.length + detail.length;
    for (const [label, lengths] of [
      ['a negative core', { coreBytes: -1, printsBytes: prints.length + core.length + 1 }],
      ['negative prints', { coreBytes: core.length + prints.length + 2, printsBytes: -2 }],
      ['fractional core and prints', { coreBytes: core.length - 0.5, printsBytes: prints.length + 0.5 }],
    ] as const) {
      file({ ...good, ...lengths });
      const read = await readSnapshot(tmp.dir, KEY);
      assert.deepEqual(read, { ok: false, reason: 'corrupt', detail: `size ${12 + JSON.stringify({ ...good, ...lengths }).length + total} does not match the header (truncated?)` }, label);
    }
  } finally {
    tmp.cleanup();
  }
});
