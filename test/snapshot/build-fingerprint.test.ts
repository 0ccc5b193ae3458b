// The build fingerprint in a snapshot's key: any change to the code that shapes a snapshot's
// contents changes it (so an older build's snapshot is rebuilt, never served), and nothing else does.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SHAPING_FOLDERS, buildFingerprint } from '../../src/snapshot/build.ts';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-build-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const shapingFile = fc
  .tuple(fc.constantFrom(...SHAPING_FOLDERS), fc.constantFrom('', 'sub/'), fc.stringMatching(/^[a-z]{1,8}$/))
  .map(([folder, sub, name]) => `${folder}/${sub}${name}.ts`);

describe('the build fingerprint of snapshot keys', () => {
  it('changes when any file of the shaping folders changes, is added or is renamed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(shapingFile, fc.string(), { minKeys: 1, maxKeys: 6 }), fc.nat(), fc.string({ minLength: 1 }), async (files, pick, extra) => {
        const names = Object.keys(files);
        const changed = names[pick % names.length]!;
        const base = tree(files);
        const edited = tree({ ...files, [changed]: files[changed] + extra });
        const renamed = tree({ ...Object.fromEntries(names.filter((n) => n !== changed).map((n) => [n, files[n]!])), [`${changed}x`]: files[changed]! });
        try {
          const fp = await buildFingerprint(base);
          assert.equal(await buildFingerprint(base), fp, 'stable across calls');
          assert.notEqual(await buildFingerprint(edited), fp, `edited ${changed}`);
          assert.notEqual(await buildFingerprint(renamed), fp, `renamed ${changed}`);
        } finally {
          for (const r of [base, edited, renamed]) rmSync(r, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
  });

  it('does not change for files outside the shaping folders (tools, transports, the CLI)', async () => {
    const files = { 'catalog/rank.ts': 'rank', 'import/openapi.ts': 'import' };
    const a = tree(files);
    const b = tree({ ...files, 'mcp/server.ts': 'server', 'tools/search.ts': 'tool', 'cli/main.ts': 'cli' });
    try {
      assert.equal(await buildFingerprint(b), await buildFingerprint(a));
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });

  it('fingerprints the running build by default', async () => {
    const empty = tree({});
    try {
      assert.match(await buildFingerprint(), /^[0-9a-f]{16}$/);
      assert.notEqual(await buildFingerprint(), await buildFingerprint(empty));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
