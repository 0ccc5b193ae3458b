// Scores of a Stryker JSON report (or incremental file) per folder and file, as TESTING.md shows them:
// score = (killed + timed out) / (killed + timed out + survived + no coverage); ignored mutants and
// compile/runtime errors are not valid mutants and count nowhere.
//   node .ci/mutation-score.mjs reports/stryker-incremental.json [--files]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, flag] = process.argv.slice(2);
if (!file) {
  console.error('usage: node .ci/mutation-score.mjs <report.json> [--files]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const rows = new Map();
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
