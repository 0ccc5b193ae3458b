// What the import worker thread is started with (import-pool.ts `workerArgs`), from its contract
// over generated command lines: the process's module loaders and experimental switches pass, in
// their order and with their values (`--import=x` or `--import x`), and nothing else (a worker
// refuses the per-process flags a test runner or a user adds); on a Node that does not strip types
// itself the worker gets tsx unless a loader already brings it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { workerArgs } from '../../src/daemon/import-pool.ts';

const LOADERS = ['import', 'require', 'loader', 'experimental-loader', 'conditions'] as const;
const value = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('tsx', './test/support/load.mjs', '--test', '--import', 'tsx/esm', ''));

/** A piece of a command line and what of it the worker gets. */
type Piece = { readonly argv: readonly string[]; readonly out: readonly string[] };
const kept = (argv: string[]): Piece => ({ argv, out: argv });
const dropped = (argv: string[]): Piece => ({ argv, out: [] });

const piece: fc.Arbitrary<Piece> = fc.oneof(
  fc.tuple(fc.constantFrom(...LOADERS), value).map(([name, v]) => kept([`--${name}=${v}`])),
  fc.tuple(fc.constantFrom(...LOADERS), value).map(([name, v]) => kept([`--${name}`, v])),
  fc.tuple(fc.constantFrom('experimental', 'no-experimental'), fc.constantFrom('strip-types', 'vm-modules', 'require-module', 'x=1')).map(([p, s]) => kept([`--${p}-${s}`])),
  fc
    .constantFrom(
      '--test',
      '--test-reporter=tap',
      '--test-name-pattern=x',
      '--max-old-space-size=64',
      '--inspect',
      '--title=svc',
      '--no-warnings',
      '--enable-source-maps',
      'x--import=tsx',
      '---import=tsx',
      '--imports=tsx',
      '--importer',
      '--conditionsx',
      '--experimental',
      '-experimental-x',
      'a--experimental-x',
      '--no-experimentalx',
      '-r',
    )
    .map((flag) => dropped([flag])),
);

it('passes the module loaders and experimental switches, with their values and in order, and nothing else', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), fc.option(fc.constantFrom(...LOADERS), { nil: undefined }), (pieces, last) => {
      // A loader flag last, with no value after it, goes too.
      const argv = [...pieces.flatMap((p) => p.argv), ...(last ? [`--${last}`] : [])];
      assert.deepEqual(workerArgs(argv, true), pieces.flatMap((p) => p.out));
    }),
  );
});

it('adds tsx on a Node that does not strip types, unless a loader already brings it', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 6 }), fc.boolean(), (pieces, strips) => {
      const out = pieces.flatMap((p) => p.out);
      const tsx = !strips && !out.some((a) => a.includes('tsx'));
      assert.deepEqual(workerArgs(pieces.flatMap((p) => p.argv), strips), tsx ? [...out, '--import', 'tsx'] : out);
    }),
  );
  assert.deepEqual(workerArgs(['--import', 'tsx'], false), ['--import', 'tsx']);
  assert.deepEqual(workerArgs(['--require=./node_modules/tsx/dist/cjs.cjs'], false), ['--require=./node_modules/tsx/dist/cjs.cjs']);
  assert.deepEqual(workerArgs(['--test'], false), ['--import', 'tsx']);
  // Its value follows a two-argument `--experimental-loader` (it was once passed as a bare switch, and the worker refused it).
  assert.deepEqual(workerArgs(['--experimental-loader', 'tsx', '--test'], false), ['--experimental-loader', 'tsx']);
});

it('by default reads this process: its command line, and whether this Node strips types', () => {
  assert.deepEqual(workerArgs(), workerArgs(process.execArgv, Boolean(process.features.typescript)));
  const saved = process.execArgv;
  try {
    process.execArgv = ['--test-reporter=tap', '--import', 'x.mjs', '--inspect'];
    assert.deepEqual(workerArgs(undefined, true), ['--import', 'x.mjs']);
  } finally {
    process.execArgv = saved;
  }
  if (process.features.typescript) assert.deepEqual(workerArgs([]), []);
  else assert.deepEqual(workerArgs([]), ['--import', 'tsx']);
});
