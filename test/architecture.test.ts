// Module boundaries, checked on the import statements of every file under src/.
// Data flows one way (files -> import -> catalog -> tools -> mcp/ipc); heavy libraries stay in their folder;
// the CLI's update/status path and src/ipc never load the catalogue, the importers or the MCP SDK.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

interface ImportRef {
  readonly specifier: string;
  /** Erased at runtime (`import type`, `export type`): allowed across boundaries that only forbid loading. */
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

/** Comments out, strings kept: `//` inside 'https://...' must survive, so only whole-line and block comments go. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

export function importsOf(source: string): ImportRef[] {
  const text = stripComments(source);
  const refs: ImportRef[] = [];
  const staticRe = /(?:^|[\s;])(import|export)(\s+type)?\s+(?:[\w*${}\s,]*?\s*from\s*)?['"]([^'"\n]+)['"]/g;
  for (const m of text.matchAll(staticRe)) refs.push({ specifier: m[3]!, typeOnly: m[2] !== undefined, dynamic: false });
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g)) refs.push({ specifier: m[1]!, typeOnly: false, dynamic: true });
  // `import('x').Type` in a type position is erased too.
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)\s*\./g)) {
    const i = refs.findIndex((r) => r.dynamic && r.specifier === m[1] && !r.typeOnly);
    if (i >= 0) refs[i] = { ...refs[i]!, typeOnly: true };
  }
  return refs;
}

/** `src/catalog/index.ts` -> `catalog`; undefined outside src. */
function areaOf(file: string): string | undefined {
  const m = /^src\/([^/]+)\//.exec(file);
  return m?.[1];
}

/** The package a bare specifier loads (`@scope/pkg/sub` -> `@scope/pkg`); undefined for relative and node: ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), specifier));
}

/** Which folder may import each package (a package not listed may be imported anywhere but src/model). */
const PACKAGE_OWNER: Readonly<Record<string, string>> = {
  minisearch: 'catalog',
  '@modelcontextprotocol/sdk': 'mcp',
  '@modelcontextprotocol/server': 'mcp',
  '@modelcontextprotocol/server-legacy': 'mcp',
  '@modelcontextprotocol/node': 'mcp',
  '@modelcontextprotocol/core': 'mcp',
  '@modelcontextprotocol/client': 'mcp',
  ky: 'invoke',
  chokidar: 'daemon',
};

/** Folders a folder must never import (statically or dynamically). */
const FORBIDDEN_AREAS: Readonly<Record<string, readonly string[]>> = {
  import: ['catalog', 'tools', 'mcp', 'daemon', 'cli', 'ipc', 'invoke'],
  catalog: ['mcp', 'daemon', 'cli', 'invoke', 'ipc'],
};

/** What the light paths must not load at runtime, even through other modules. */
const HEAVY_AREAS = ['catalog', 'mcp', 'import'];
const HEAVY_PACKAGES = ['minisearch', '@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@modelcontextprotocol/server-legacy', '@modelcontextprotocol/node', '@apidevtools/json-schema-ref-parser'];

/** Entry files of the light paths: the CLI entry (and the update/status commands when they exist), all of src/ipc. */
function lightEntries(files: ReadonlyMap<string, string>): string[] {
  const entries = ['src/cli/main.ts', 'src/cli/update.ts', 'src/cli/status.ts'].filter((f) => files.has(f));
  for (const f of files.keys()) if (f.startsWith('src/ipc/')) entries.push(f);
  return entries;
}

/** Every boundary violation in `files` (repo-relative posix path -> source). */
export function checkBoundaries(files: ReadonlyMap<string, string>): string[] {
  const violations: string[] = [];
  const parsed = new Map<string, ImportRef[]>();
  for (const [file, source] of files) parsed.set(file, importsOf(source));

  for (const [file, refs] of parsed) {
    const area = areaOf(file);
    for (const ref of refs) {
      const pkg = packageOf(ref.specifier);
      const target = resolveLocal(file, ref.specifier);
      const targetArea = target ? areaOf(target) : undefined;
      if (area === 'model') {
        if (pkg !== undefined || ref.specifier.startsWith('node:')) violations.push(`${file}: src/model imports nothing, but imports '${ref.specifier}'`);
        else if (target !== undefined && targetArea !== 'model') violations.push(`${file}: src/model imports nothing outside itself, but imports '${ref.specifier}'`);
        continue;
      }
      if (pkg !== undefined && PACKAGE_OWNER[pkg] !== undefined && PACKAGE_OWNER[pkg] !== area && !ref.typeOnly) {
        violations.push(`${file}: only src/${PACKAGE_OWNER[pkg]} may import ${pkg}`);
      }
      if (area !== undefined && targetArea !== undefined && FORBIDDEN_AREAS[area]?.includes(targetArea)) {
        violations.push(`${file}: src/${area} must not import src/${targetArea} ('${ref.specifier}')`);
      }
    }
  }

  // Light paths: follow runtime static imports (dynamic imports load on demand; type-only ones are erased).
  for (const entry of lightEntries(files)) {
    const seen = new Set<string>([entry]);
    const queue: { file: string; via: string[] }[] = [{ file: entry, via: [entry] }];
    while (queue.length > 0) {
      const { file, via } = queue.shift()!;
      for (const ref of parsed.get(file) ?? []) {
        if (ref.typeOnly || ref.dynamic) continue;
        const pkg = packageOf(ref.specifier);
        if (pkg !== undefined && HEAVY_PACKAGES.includes(pkg)) {
          violations.push(`${entry} loads ${pkg} statically (${[...via].join(' -> ')}); load it with import() where it is needed`);
        }
        const target = resolveLocal(file, ref.specifier);
        if (target === undefined || seen.has(target)) continue;
        seen.add(target);
        const targetArea = areaOf(target);
        if (targetArea !== undefined && HEAVY_AREAS.includes(targetArea)) {
          violations.push(`${entry} loads src/${targetArea} statically (${[...via, target].join(' -> ')}); load it with import() where it is needed`);
          continue;
        }
        queue.push({ file: target, via: [...via, target] });
      }
    }
  }
  return violations;
}

function sourceFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|js|mts)$/.test(entry.name)) continue;
    const abs = join(entry.parentPath, entry.name);
    out.set(relative(ROOT, abs).split(sep).join('/'), readFileSync(abs, 'utf8'));
  }
  return out;
}

describe('architecture', () => {
  it('keeps every module of src/ inside its boundaries', () => {
    const files = sourceFiles('src');
    assert.ok(files.size > 10, 'expected to find the sources');
    assert.deepEqual(checkBoundaries(files), []);
  });

  it('reads static, re-export, side-effect, multi-line and dynamic imports', () => {
    const refs = importsOf(`
import a from 'a';
import type { B } from "b";
import {
  c1,
  c2,
} from './c.ts';
export { d } from './d.ts';
export type { E } from './e.ts';
export * from './f.ts';
import 'g';
// import 'commented-out';
/* import 'also-commented' */
const h = await import('./h.ts');
type I = import('./i.ts').I;
const url = 'https://example.com/import';
`);
    assert.deepEqual(
      refs.map((r) => `${r.specifier}${r.typeOnly ? ' (type)' : ''}${r.dynamic ? ' (dynamic)' : ''}`).sort(),
      ['./c.ts', './d.ts', './e.ts (type)', './f.ts', './h.ts (dynamic)', './i.ts (type) (dynamic)', 'a', 'b (type)', 'g'].sort(),
    );
  });

  it('catches each kind of violation in synthetic files', () => {
    const violations = checkBoundaries(
      new Map([
        ['src/model/x.ts', "import { readFile } from 'node:fs';\nimport { Catalog } from '../catalog/index.ts';\n"],
        ['src/tools/search.ts', "import MiniSearch from 'minisearch';\n"],
        ['src/catalog/index.ts', "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { invoke } from '../invoke/index.ts';\n"],
        ['src/import/openapi.ts', "const c = await import('../catalog/index.ts');\n"],
        ['src/daemon/http.ts', "import ky from 'ky';\n"],
        ['src/invoke/index.ts', "import { watch } from 'chokidar';\n"],
        ['src/cli/main.ts', "import { COMMANDS } from './commands.ts';\n"],
        ['src/cli/commands.ts', "import { run } from './check.ts';\n"],
        ['src/cli/check.ts', "import { importSpec } from '../import/index.ts';\n"],
        ['src/ipc/client.ts', "import type { Catalog } from '../catalog/index.ts';\nimport { stats } from '../catalog/stats.ts';\n"],
      ]),
    );
    const expected = [
      /src\/model\/x\.ts: src\/model imports nothing, but imports 'node:fs'/,
      /src\/model\/x\.ts: src\/model imports nothing outside itself/,
      /src\/tools\/search\.ts: only src\/catalog may import minisearch/,
      /src\/catalog\/index\.ts: only src\/mcp may import @modelcontextprotocol\/sdk/,
      /src\/catalog\/index\.ts: src\/catalog must not import src\/invoke/,
      /src\/import\/openapi\.ts: src\/import must not import src\/catalog/,
      /src\/daemon\/http\.ts: only src\/invoke may import ky/,
      /src\/invoke\/index\.ts: only src\/daemon may import chokidar/,
      /src\/cli\/main\.ts loads src\/import statically \(src\/cli\/main\.ts -> src\/cli\/commands\.ts -> src\/cli\/check\.ts -> src\/import\/index\.ts\)/,
      /src\/ipc\/client\.ts loads src\/catalog statically/,
    ];
    for (const pattern of expected) assert.ok(violations.some((v) => pattern.test(v)), `missing ${pattern}\nin:\n${violations.join('\n')}`);
    assert.equal(violations.length, expected.length, violations.join('\n'));
  });

  it('lets the light paths load heavy code through import()', () => {
    const violations = checkBoundaries(
      new Map([
        ['src/cli/main.ts', "import { COMMANDS } from './commands.ts';\n"],
        ['src/cli/commands.ts', "export const C = [{ load: () => import('./check.ts') }];\n"],
        ['src/cli/check.ts', "import { importSpec } from '../import/index.ts';\n"],
        ['src/import/index.ts', "import $RefParser from '@apidevtools/json-schema-ref-parser';\n"],
      ]),
    );
    assert.deepEqual(violations, []);
  });
});
