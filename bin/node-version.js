// The Node version guard, shared by the `svc` entry point (bin/svc.js) and npm's `pretest` and
// `build` scripts (`node bin/node-version.js`), so that an older Node stops at once with one clear
// line instead of failing later from deep inside a dependency. The minimum is read from `engines`
// in package.json, the one place it is written. Plain JavaScript that any Node since 12 can parse:
// its whole purpose is to run on a Node that is too old.
// Node's modules through require, not `import ... from 'node:fs'`: an ES module import of a built-in
// makes a module of all its exports (reading each, which loads fs's streams and promises), about a
// millisecond of every start for these entry files. createRequire is there since Node 12.2.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { readFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');

/** `>=22.22.0` (or `>= 22.22`) -> [22, 22, 0]. */
export function parseMinimum(range) {
  const match = /^\s*>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(String(range));
  if (!match) throw new Error('engines.node in package.json must read ">=X.Y.Z", not "' + range + '"');
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

export function minimumNode() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return parseMinimum(pkg.engines && pkg.engines.node);
}

/** True when `version` ("20.20.2" or "v20.20.2") is at least `minimum`. */
export function satisfies(version, minimum) {
  const have = String(version).replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const a = have[i] || 0;
    const b = minimum[i] || 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** The message for a Node that is too old, or undefined when `version` is new enough. */
export function nodeProblem(version, minimum) {
  const min = minimum || minimumNode();
  if (satisfies(version || process.versions.node, min)) return undefined;
  const wanted = min.join('.');
  return (
    'svc needs Node ' + wanted + ' or newer; this is Node ' + String(version || process.versions.node).replace(/^v/, '') + '.\n' +
    '  Install a current Node (24 LTS): https://nodejs.org/en/download, or with a version manager: `nvm install 24` / `fnm install 24`,\n' +
    '  or without root: `npm install --prefix ~/.cache/node24 node@24` and put ~/.cache/node24/node_modules/.bin first on PATH.'
  );
}

// Run as a script (`node bin/node-version.js`, from npm's pretest and build): exit 1 when too old.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = nodeProblem(process.versions.node);
  if (problem) {
    process.stderr.write(problem + '\n');
    process.exit(1);
  }
}
