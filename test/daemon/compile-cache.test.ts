// Node's compile cache is written while the daemon serves, once the catalogue is loaded, not only at
// exit: an MCP client often kills the server it started, and the next start must find the cache.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openapi, project, startDaemon, until } from './support.ts';

test('the compile cache is written while the daemon still serves, after the catalogue is loaded', async () => {
  const p = project();
  p.write('specs/tools.yaml', openapi('Tools', [{ method: 'GET', path: '/tools', summary: 'List tools' }]));
  p.config(['specs/tools.yaml']);
  // A first start saves the snapshot, so the second one starts no import worker (whose exit would
  // write its own part of the cache): what the second start's cache folder gets is the main thread's.
  const cache = join(p.dir, 'compile-cache');
  try {
    await (await startDaemon(p, ['--transport', 'http', '--port', '0'], { NODE_COMPILE_CACHE: join(p.dir, 'first-cache') })).stop();
    const d = await startDaemon(p, ['--transport', 'http', '--port', '0'], { NODE_COMPILE_CACHE: cache });
    try {
      const files = () => readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
      await until(() => files() > 0, 15_000, 'compile cache files while serving');
      assert.equal(d.child.exitCode, null, 'the daemon still runs');
    } finally {
      await d.stop('SIGKILL');
    }
  } finally {
    p.cleanup();
  }
});
