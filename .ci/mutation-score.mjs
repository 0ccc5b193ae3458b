// Scores of a Stryker JSON report (or incremental file) per folder and file, as TESTING.md shows them:
// score = (killed + timed out) / (killed + timed out + survived + no coverage); ignored mutants and
// compile/runtime errors are not valid mutants and count nowhere.
//   node .ci/mutation-score.mjs reports/stryker-incremental.json [--files] [--instrumented N]
// --instrumented N: the run's own count of mutants ("Instrumented ... with N mutant(s)" in its log),
// for a report a stopped run saved over a whole folder: the mutants it holds no result for count as
// survived, which gives a lower bound on the score the finished run would have.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const file = args[0];
const flag = args.includes('--files') ? '--files' : undefined;
const at = args.indexOf('--instrumented');
const instrumented = at >= 0 ? Number(args[at + 1]) : undefined;
if (instrumented !== undefined && !Number.isInteger(instrumented)) {
  console.error('--instrumented needs the number of mutants the run instrumented');
  process.exit(2);
}
if (!file) {
  console.error('usage: node .ci/mutation-score.mjs <report.json> [--files] [--instrumented N]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const rows = new Map();
let held = 0; // every mutant the report lists, ignored and errors included
let notValid = 0; // ignored, compile and runtime errors
const add = (key, status) => {
  const row = rows.get(key) ?? { killed: 0, timeout: 0, survived: 0, noCoverage: 0 };
  if (status === 'Killed') row.killed++;
  else if (status === 'Timeout') row.timeout++;
  else if (status === 'Survived') row.survived++;
  else if (status === 'NoCoverage') row.noCoverage++;
  rows.set(key, row);
};
for (const [path, data] of Object.entries(report.files)) {
  const rel = relative(process.cwd(), path).replaceAll('\\', '/');
  const folder = rel.split('/').slice(0, 2).join('/');
  for (const m of data.mutants) {
    held++;
    if (!['Killed', 'Timeout', 'Survived', 'NoCoverage'].includes(m.status)) notValid++;
    add(folder, m.status);
    if (flag === '--files') add(rel, m.status);
    add('all', m.status);
  }
}
const pct = (r) => {
  const valid = r.killed + r.timeout + r.survived + r.noCoverage;
  return valid === 0 ? 'n/a' : `${((100 * (r.killed + r.timeout)) / valid).toFixed(1)}%`;
};
console.log('| part | score | killed | timed out | survived | no coverage |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [key, r] of [...rows].sort(([a], [b]) => (a === 'all') - (b === 'all') || a.localeCompare(b))) {
  console.log(`| ${key} | ${pct(r)} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} |`);
}
if (instrumented !== undefined) {
  const all = rows.get('all') ?? { killed: 0, timeout: 0, survived: 0, noCoverage: 0 };
  const untested = instrumented - held;
  const valid = instrumented - notValid;
  const bound = valid === 0 ? 'n/a' : `${((100 * (all.killed + all.timeout)) / valid).toFixed(1)}%`;
  console.log(`\nlower bound ${bound}: ${untested} of ${instrumented} mutants without a result, counted as survived (${valid} valid)`);
}
