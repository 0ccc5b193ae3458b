// The build fingerprint's exact form (src/snapshot/build.ts): sha256 over each shaping file's path
// and contents, each ended by a NUL, in sorted order, whatever order the folder lists them in; so
// no two different trees run together into the same bytes. And the installed bundle's fingerprint,
// fixed when it was built, stands for the running build (a given root is still fingerprinted).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { SHAPING_FOLDERS, buildFingerprint } from '../../src/snapshot/build.ts';

const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tree(files: readonly (readonly [string, string])[]): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-build-form-'));
  roots.push(root);
  for (const [rel, text] of files) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

/** The documented form, written out: sorted relative paths, each path and content followed by NUL. */
function expected(files: readonly (readonly [string, string])[]): string {
  const hash = createHash('sha256');
  for (const [rel, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) hash.update(rel).update('\0').update(text).update('\0');
  return hash.digest('hex').slice(0, 16);
}

const shapingFile = fc
  .tuple(fc.constantFrom(...SHAPING_FOLDERS), fc.constantFrom('', 'sub/', 'zz/deeper/'), fc.stringMatching(/^[a-z0-9_-]{1,10}$/))
  .map(([folder, sub, name]) => `${folder}/${sub}${name}.ts`);

describe('the build fingerprint', () => {
  it('is sha256 over the files in sorted order, each path and content ended by NUL, whatever order they were written in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(shapingFile, fc.string()), { minLength: 1, maxLength: 12, selector: ([p]) => p }), async (files) => {
        const want = expected(files);
        assert.equal(await buildFingerprint(tree(files)), want);
        assert.equal(await buildFingerprint(tree([...files].reverse())), want);
      }),
      { numRuns: 30 },
    );
  });

  it('tells apart trees whose paths and contents would run together', async () => {
    const pairs: [string, [string, string][], [string, string][]][] = [
      ['a path\'s end moved into the content', [['catalog/a.ts', 'xy']], [['catalog/a.tsx', 'y']]],
      ['a second file written into the first one\'s content', [['catalog/a.ts', 'X'], ['catalog/b.ts', 'Y']], [['catalog/a.ts', 'Xcatalog/b.ts\0Y']]],
    ];
    for (const [label, a, b] of pairs) assert.notEqual(await buildFingerprint(tree(a)), await buildFingerprint(tree(b)), label);
  });

  it('of the installed bundle is the one its build wrote into it; a given root is still fingerprinted', async () => {
    const files: [string, string][] = [['snapshot/x.ts', 'x']];
    const root = tree(files);
    const global = globalThis as { SVC_BUILD_FINGERPRINT?: unknown };
    const before = await buildFingerprint();
    assert.match(before, /^[0-9a-f]{16}$/);
    try {
      global.SVC_BUILD_FINGERPRINT = 'feedfacecafebeef';
      assert.equal(await buildFingerprint(), 'feedfacecafebeef');
      assert.equal(await buildFingerprint(root), expected(files));
      // Only a text stands for a fingerprint.
      global.SVC_BUILD_FINGERPRINT = 7;
      assert.equal(await buildFingerprint(), before);
    } finally {
      delete global.SVC_BUILD_FINGERPRINT;
    }
    assert.equal(await buildFingerprint(), before);
  });
});
