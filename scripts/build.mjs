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
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const define = { SVC_BUILD_FINGERPRINT: JSON.stringify(fingerprint), SVC_TOOL_LIST: JSON.stringify(JSON.stringify(describeTools(TOOLS))) };
await build({
  absWorkingDir: ROOT,
  // import-pool: bin/svc.js starts the import worker through it before main.js loads (a new build's first start).
  entryPoints: { main: 'src/cli/main.ts', 'import-worker-boot': 'src/daemon/import-worker-boot.ts', 'import-pool': 'src/daemon/import-pool.ts' },
  outdir: join(OUT, 'app'),
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Some dependencies are CommonJS and call require() for Node's own modules.
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  define,
  legalComments: 'eof',
  logLevel: 'warning',
});
// The same program as one script, which bin/script-cache.js runs with a V8 code cache made after the
// first answer (Node's compile cache of ES modules holds only what V8 compiles before running them).
// The script is one function expression (written so, the runner need not copy 3 MB to wrap it) whose
// parameters bin/script-cache.js passes; import.meta.url becomes one of them: the URL of main.js in
// the same folder.
const SCRIPT = 'svc-script.cjs';
await build({
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/script-entry.ts'],
  outfile: join(OUT, 'app', SCRIPT),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  define: { ...define, 'import.meta.url': '__svcMetaUrl' },
  banner: { js: '(function (exports, require, module, __filename, __dirname, __svcMetaUrl) {' },
  footer: { js: '})' },
  // Without comments the script is all ASCII, which V8 keeps as one byte per character (one comment
  // in another script would double the memory the whole source takes); names stay. The licences go
  // to svc-script.cjs.LEGAL.txt beside it.
  minifyWhitespace: true,
  legalComments: 'external',
  logLevel: 'warning',
});
const sha256 = createHash('sha256').update(readFileSync(join(OUT, 'app', SCRIPT))).digest('hex');
writeFileSync(join(OUT, 'app', 'script.json'), `${JSON.stringify({ file: SCRIPT, sha256 })}\n`);
process.stdout.write(`dist/app: bundled (build fingerprint ${fingerprint})\n`);
