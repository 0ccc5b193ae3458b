// `svc status` / `svc update` are the quick path: at runtime they must never load the MCP SDK,
// the catalogue, MiniSearch or the importers. Checked by recording every module the real CLI resolves.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'svc.js');

/** Node's synchronous module hooks (Node >= 22.15 / 23.5) log each resolved URL to a file. */
const HOOK = `
import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    appendFileSync(process.env.SVC_TEST_LOAD_LOG, result.url + '\\n');
    return result;
  },
});
`;

const HEAVY = [/@modelcontextprotocol/, /\/minisearch\//, /json-schema-ref-parser/, /\/src\/catalog\//, /\/src\/import\//, /\/src\/mcp\//];

async function loadedBy(args: readonly string[], dir: string): Promise<string[]> {
  const log = join(dir, `load-${args[0]}.log`);
  await writeFile(log, '');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(dir, 'hook.mjs')).href, BIN, ...args], {
      cwd: dir,
      // A private socket folder: these commands must not reach any daemon running on this machine.
      env: { ...process.env, SVC_TEST_LOAD_LOG: log, XDG_RUNTIME_DIR: dir, TMPDIR: dir, SVC_CONFIG: '', SVC_SOCKET: '' },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean);
}

describe('light commands', () => {
  it('status and update load no catalogue, importer or MCP code', async (t) => {
    const { registerHooks } = (await import('node:module')) as { registerHooks?: unknown };
    if (typeof registerHooks !== 'function') {
      t.skip('this Node has no module.registerHooks');
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'svc-light-'));
    try {
      await writeFile(join(dir, 'hook.mjs'), HOOK);
      await writeFile(join(dir, 'svc.yaml'), `specs:\n  - ${join(ROOT, 'specs/bookshelf.yaml')}\n`);
      for (const command of ['status', 'update']) {
        const urls = await loadedBy([command], dir);
        assert.ok(urls.some((u) => u.endsWith('/src/cli/program.ts')), `the hook saw the CLI load (${command})`);
        assert.ok(urls.some((u) => u.endsWith(`/src/cli/${command}.ts`)), `the ${command} command ran`);
        const heavy = urls.filter((u) => HEAVY.some((re) => re.test(u)));
        assert.deepEqual(heavy, [], `svc ${command} loaded heavy modules`);
      }
      // The same probe does see heavy modules when a command needs them, so the check can fail.
      const check = await loadedBy(['check'], dir);
      assert.ok(check.some((u) => /\/src\/import\//.test(u)), 'svc check loads the importers');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
