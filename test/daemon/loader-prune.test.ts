// The loader's prune (after start-up): with a snapshot folder it removes the snapshots no start has
// used for 30 days and keeps the rest; with snapshots off it touches nothing. Real files.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { FileDigests } from '../../src/daemon/digests.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { temp } from '../snapshot/support.ts';

const tmp = temp();
const loaders: SpecLoader[] = [];
after(async () => {
  for (const l of loaders) await l.close();
  tmp.cleanup();
});

function snapshots(dir: string): { old: string; recent: string } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const old = path.join(dir, `${'a'.repeat(40)}.snap`);
  const recent = path.join(dir, `${'b'.repeat(40)}.snap`);
  writeFileSync(old, 'x');
  writeFileSync(recent, 'x');
  const long = new Date(Date.now() - 31 * 24 * 3600 * 1000);
  utimesSync(old, long, long);
  return { old, recent };
}

it('removes the snapshots unused for 30 days from its folder, and keeps the others', async () => {
  const dir = path.join(tmp.dir, 'cache');
  const { old, recent } = snapshots(dir);
  const l = new SpecLoader({ dir, svcVersion: '1.0.0', digests: new FileDigests() });
  loaders.push(l);
  await l.prune();
  assert.equal(existsSync(old), false);
  assert.equal(existsSync(recent), true);
});

it('with snapshots off prunes nothing, not even a folder where the default one would be', async () => {
  const { old } = snapshots(path.join(tmp.dir, 'elsewhere'));
  const l = new SpecLoader({ dir: undefined, svcVersion: '1.0.0', digests: new FileDigests() });
  loaders.push(l);
  await l.prune();
  assert.equal(existsSync(old), true);
});
