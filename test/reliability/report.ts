// Writes the figures of the latest reliability run into RELIABILITY.md (between the figures
// markers): `node --import tsx test/reliability/report.ts` after `npm run test:reliability`.
// Reads .cache/reliability/figures.jsonl (or $SVC_RELIABILITY_FIGURES); the latest line of each test wins.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIGURES_FILE, type FigureLine } from './support/figures.ts';
import { REPO_ROOT } from './support/scale.ts';

const BEGIN = '<!-- figures:begin -->';
const END = '<!-- figures:end -->';

const lines = readFileSync(FIGURES_FILE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as FigureLine);
const latest = new Map<string, FigureLine>();
for (const line of lines) latest.set(line.test, line);

const cell = (v: unknown): string => String(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const out: string[] = [];
for (const line of latest.values()) {
  out.push(`### ${line.test}`, '', `Run ${line.at.slice(0, 16).replace('T', ' ')} UTC, Node ${line.node}, scale ${line.scale}.`, '', '| Figure | Value |', '|---|---|');
  for (const [k, v] of Object.entries(line.figures)) out.push(`| ${cell(k)} | ${cell(v)} |`);
  out.push('');
  if (line.rows && line.rows.length > 0) {
    const keys = Object.keys(line.rows[0]!);
    out.push('<details><summary>Per input</summary>', '', `| ${keys.join(' | ')} |`, `|${keys.map(() => '---').join('|')}|`);
    for (const row of line.rows) out.push(`| ${keys.map((k) => cell(row[k] ?? '')).join(' | ')} |`);
    out.push('', '</details>', '');
  }
}

const file = join(REPO_ROOT, 'RELIABILITY.md');
const doc = readFileSync(file, 'utf8');
const a = doc.indexOf(BEGIN);
const b = doc.indexOf(END);
if (a < 0 || b < a) throw new Error(`${file} has no ${BEGIN} ... ${END} section`);
writeFileSync(file, `${doc.slice(0, a + BEGIN.length)}\n\n${out.join('\n')}\n${doc.slice(b)}`);
process.stdout.write(`wrote figures of ${latest.size} test(s) into RELIABILITY.md\n`);
