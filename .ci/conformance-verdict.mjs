// Reads the conformance suite's per-scenario results (DIR/<scenario>/checks.json, from `-o DIR`) and
// judges them against an expected-failures list, rather than trusting the suite's exit code:
//   - a scenario fails when any of its checks is a FAILURE;
//   - a failing scenario not on the list fails the run; so does a listed one that now passes;
//   - a scenario that "passed" on an "Unknown tool" / "Method not found" answer passed falsely against
//     a server without the suite's fixtures: it is reported and never counted as a pass.
// Usage: node .ci/conformance-verdict.mjs LABEL RESULTS_DIR EXPECTED_FAILURES_TXT
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [label, dir, expectedFile] = process.argv.slice(2);
const expected = new Map(
  readFileSync(expectedFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .map((line) => {
      const [name, ...reason] = line.trim().split(/\s+/);
      return [name, reason.join(' ')];
    }),
);
const FIXTURE_LESS = /Unknown tool|Method not found|not found\. Available tools/;

const scenarios = new Map();
for (const entry of readdirSync(dir)) {
  const name = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
  const checks = JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8'));
  scenarios.set(name, checks);
}

let checksPassed = 0;
let checksFailed = 0;
const passed = [];
const failed = [];
const falsePasses = [];
for (const [name, checks] of [...scenarios].sort(([a], [b]) => a.localeCompare(b))) {
  for (const c of checks) {
    if (c.status === 'SUCCESS') checksPassed++;
    else if (c.status === 'FAILURE') checksFailed++;
  }
  const failing = checks.filter((c) => c.status === 'FAILURE');
  if (failing.length > 0) failed.push([name, failing]);
  else if (checks.some((c) => FIXTURE_LESS.test(`${c.errorMessage ?? ''} ${JSON.stringify(c.details ?? '')}`))) falsePasses.push(name);
  else passed.push(name);
}

const unexpected = failed.filter(([name]) => !expected.has(name));
const stale = [...expected.keys()].filter((name) => passed.includes(name));
const absent = [...expected.keys()].filter((name) => !scenarios.has(name));

console.log(`conformance ${label}: ${scenarios.size} scenarios run: ${passed.length} passed, ${failed.length} failed (${failed.length - unexpected.length} expected: they need the suite's fixtures), ${falsePasses.length} passed only on a fixture-less answer (not counted); checks: ${checksPassed} passed, ${checksFailed} failed`);
for (const name of falsePasses) console.log(`  not counted (passed on an "Unknown tool"/"Method not found" answer): ${name}`);
for (const [name, checks] of unexpected) {
  console.log(`  UNEXPECTED FAILURE ${name}:`);
  for (const c of checks) console.log(`    ${c.id}: ${(c.errorMessage ?? '').slice(0, 300)}`);
}
for (const name of stale) console.log(`  STALE expected-failures entry (the scenario passes now; remove it): ${name}`);
for (const name of absent) console.log(`  note: listed scenario not run by this suite version: ${name}`);
process.exit(unexpected.length > 0 || stale.length > 0 ? 1 : 0);
