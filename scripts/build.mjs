// `npm run build` (and prepack): the installed package's JavaScript, bundled.
//
// A start of `svc serve` loads a few hundred modules (the CLI, the daemon, the MCP SDK, zod,
// MiniSearch, yaml); resolving, reading and compiling them one file at a time was most of the time
// to the first answer. esbuild joins them into a few files in dist/app: the entry (main.js), the
// import worker's entry (import-worker-boot.js) and shared chunks, split where the sources load
// code on demand (`import()`), so `svc status` still never loads the SDK and `invoke` still loads
// ky and ajv on its first call. Every file sits in one folder two levels under the package root,
// as the sources do under src/<folder>/, so `new URL('../../package.json', import.meta.url)` and
// the worker's `./import-worker-boot.js` resolve the same way from any chunk.
//
// The snapshot key's build fingerprint (src/snapshot/build.ts) is computed here from the sources
// and written into the bundle: the bundle has no source folders to hash at run time. So is the
// tools/list answer (src/mcp/tool-list.ts): JSON Schemas made from the tools' zod shapes, the same
// for every start.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describeTools } from '../src/mcp/tool-list.ts';
import { buildFingerprint } from '../src/snapshot/build.ts';
import { TOOLS } from '../src/tools/index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist');

rmSync(OUT, { recursive: true, force: true });
const fingerprint = await buildFingerprint(join(ROOT, 'src'));
await build({
  absWorkingDir: ROOT,
  entryPoints: { main: 'src/cli/main.ts', 'import-worker-boot': 'src/daemon/import-worker-boot.ts' },
  outdir: join(OUT, 'app'),
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Some dependencies are CommonJS and call require() for Node's own modules.
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  define: { SVC_BUILD_FINGERPRINT: JSON.stringify(fingerprint), SVC_TOOL_LIST: JSON.stringify(JSON.stringify(describeTools(TOOLS))) },
  legalComments: 'eof',
  logLevel: 'warning',
});
process.stdout.write(`dist/app: bundled (build fingerprint ${fingerprint})\n`);
