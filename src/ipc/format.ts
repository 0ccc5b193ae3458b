// Text for people: update reports and status, from the plain protocol data. Shared by the CLI
// and the daemon's own log, so both say the same thing. No heavy imports (the CLI loads this).
import { formatPlace } from '../model/diagnostic.ts';
import { safeLine } from '../model/safe-text.ts';
import type { DiagnosticView, IdChanges, SpecUpdateReport, StatusResult, UpdateResult } from './protocol.ts';


// Everything shown here came over the socket and much of it from spec files: each line is made
// safe on its own (no control characters, no line break inside a field), so a spec name or version
// holding a newline cannot forge a line.
function diagnosticLine(d: DiagnosticView): string {
  const head = safeLine(`${formatPlace(d)}: ${d.severity}: ${d.message}`);
  return d.hint ? `${head}\n      hint: ${safeLine(d.hint)}` : head;
}

function changes(sign: string, c: IdChanges): string | undefined {
  if (c.count === 0) return undefined;
  const more = c.count > c.sample.length ? `, ... ${c.count - c.sample.length} more` : '';
  return `${sign}${c.count} (${c.sample.join(', ')}${more})`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function ms(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n * 10) / 10} ms`;
}

/** One line: what an update did, for the daemon's log and MCP clients' log notifications. */
export function updateSummary(result: UpdateResult): string {
  if (result.configErrors.length > 0) return `update failed: the config has ${plural(result.configErrors.length, 'problem')}; nothing changed`;
  const parts: string[] = [];
  for (const s of result.specs) {
    if (s.state === 'unchanged') continue;
    if (s.state === 'failed') {
      parts.push(`${s.name} failed${s.keptPrevious ? ' (previous version kept)' : ''}`);
      continue;
    }
    const counts = [
      s.added.count ? `+${s.added.count}` : '',
      s.removed.count ? `-${s.removed.count}` : '',
      s.changed.count ? `~${s.changed.count}` : '',
    ].filter(Boolean);
    parts.push(`${s.name} ${s.state}${counts.length ? ` ${counts.join(' ')}` : ''}`);
  }
  const what = parts.length ? parts.join('; ') : 'nothing changed';
  return safeLine(`update: ${what} (${ms(result.ms)})`);
}

function specReport(s: SpecUpdateReport, checkCommand: string): string[] {
  const lines: string[] = [];
  const label =
    s.state === 'failed' ? `FAILED${s.keptPrevious ? ', previous version still serving' : ', not serving'}`
    : s.state;
  lines.push(safeLine(`  ${s.name}: ${label}${s.ms ? ` (${ms(s.ms)})` : ''}`));
  for (const c of [changes('added ', s.added), changes('removed ', s.removed), changes('changed ', s.changed)]) if (c) lines.push(safeLine(`    ${c}`));
  for (const e of s.errors) lines.push(`    ${diagnosticLine(e)}`);
  const shown = s.warnings.slice(0, 5);
  for (const w of shown) lines.push(`    ${diagnosticLine(w)}`);
  if (s.warnings.length > shown.length) lines.push(`    ... ${s.warnings.length - shown.length} more warnings (\`${checkCommand}\` shows all)`);
  return lines;
}

/**
 * The full report `svc update` prints for one daemon. `checkCommand` is the `svc check` that reads
 * the daemon's own config (a bare `svc check` reads ./svc.yaml, which may be another one).
 */
export function formatUpdate(result: UpdateResult, checkCommand = 'svc check'): string {
  const lines: string[] = [];
  if (result.configErrors.length > 0) {
    lines.push('  config not applied (everything keeps serving as before):');
    for (const e of result.configErrors) lines.push(`    ${diagnosticLine(e)}`);
  }
  if (result.restartNeeded && result.restartNeeded.length > 0) {
    lines.push(safeLine(`  not applied until svc serve restarts (how it listens): ${result.restartNeeded.join(', ')}`));
  }
  const changed = result.specs.filter((s) => s.state !== 'unchanged' || s.warnings.length > 0);
  const unchanged = result.specs.length - changed.length;
  for (const s of changed) lines.push(...specReport(s, checkCommand));
  if (unchanged > 0) lines.push(`  ${plural(unchanged, 'spec')} unchanged`);
  const failed = result.specs.filter((s) => s.state === 'failed').length;
  lines.push(`  ${failed ? `${failed} failed; ` : ''}${result.changed ? 'catalogue updated' : 'nothing to apply'} in ${ms(result.ms)}`);
  return lines.join('\n');
}

function bytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.round(n / 1024)} KB`;
}

function duration(msTotal: number): string {
  const s = Math.floor(msTotal / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h}h ${m % 60}m` : `${Math.floor(h / 24)}d ${h % 24}h`;
}

function when(t: number | undefined): string {
  // Stryker disable next-line Regex: toISOString ends with its only Z, so the anchor cannot change the match
  return t === undefined ? 'never' : new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** The API's own version (`info.version`) as status shows it: `v1.2` for a number, other words as written (`unversioned`). */
export function apiVersion(version: string): string {
  return /^\d/.test(version) ? `v${version}` : version;
}

/** `svc status` for one daemon. */
export function formatStatus(s: StatusResult): string {
  const lines: string[] = [];
  lines.push(`daemon pid ${s.pid}, svc ${s.version}, up ${duration(s.uptimeMs)}`);
  lines.push(`  transport ${s.transport}${s.url ? ` at ${s.url}` : ''}`);
  if (s.auth) lines.push(`  auth      ${s.auth}`);
  lines.push(`  socket    ${s.socket}`);
  lines.push(`  config    ${s.config}${s.pendingConfig ? ' (changed on disk, run svc update)' : ''}`);
  if (s.updating) {
    const u = s.updating;
    const where = u.total > 0 ? `${u.done} of ${u.total} imported${u.spec ? `, now ${u.spec}` : ''}` : 'checking what changed';
    lines.push(`  update in progress since ${when(u.startedAt)}: ${where}${u.waiting > 0 ? `; ${u.waiting} more update request(s) waiting` : ''}`);
  }
  lines.push(`  specs:${s.loading ? ' (first import still running)' : ''}`);
  for (const spec of s.specs) {
    const fmt = [spec.format, spec.version ? apiVersion(spec.version) : ''].filter(Boolean).join(' ');
    const state =
      spec.state === 'failed' ? `FAILED: ${spec.errors[0] ? `${formatPlace(spec.errors[0])}: ${spec.errors[0].message}` : 'unknown error'}`
      : spec.state === 'loading' ? 'loading'
      : 'ok';
    lines.push(
      `    ${spec.name} (${fmt || 'unknown format'}; collection ${spec.collection}): ${plural(spec.endpoints, 'endpoint')}, ${spec.deprecated} deprecated; indexed ${when(spec.indexedAt)}; ${state}`,
    );
    if (spec.state === 'failed' && spec.endpoints > 0) lines.push(`      the previous version keeps serving`);
    if (spec.pending.length > 0) lines.push(`      pending changes (run svc update): ${spec.pending.join(', ')}`);
    if (spec.snapshot) lines.push(`      ${spec.snapshot}`);
  }
  const t = s.totals;
  lines.push(`  totals: ${plural(t.specs, 'spec')}, ${plural(t.endpoints, 'endpoint')} (${t.deprecated} deprecated), ${t.failed} failed, ${t.pending} with pending changes`);
  lines.push(`  memory: rss ${bytes(s.memory.rss)}, heap ${bytes(s.memory.heapUsed)} of ${bytes(s.memory.heapTotal)}`);
  if (s.eventLoop) {
    const u = s.eventLoop.updates;
    lines.push(`  event loop delay: p99 ${s.eventLoop.p99Ms} ms, max ${s.eventLoop.maxMs} ms${u ? `; while updating: p99 ${u.p99Ms} ms, max ${u.maxMs} ms (${u.maxCpuMs} ms of CPU time)` : ''}`);
  }
  lines.push(`  MCP sessions: ${s.sessions}`);
  const c = s.toolCalls;
  lines.push(`  tool calls: ${c.count} (${c.errors} errors), p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms`);
  for (const [name, t] of Object.entries(c.byTool)) lines.push(`    ${name}: ${t.count}, p50 ${t.p50Ms} ms, p99 ${t.p99Ms} ms`);
  // Stryker disable next-line Regex: the summary starts with its only "update: " (a spec name holding it comes later, and replace takes the first)
  if (s.lastUpdate) lines.push(`  last update ${when(s.lastUpdate.startedAt)}: ${updateSummary(s.lastUpdate).replace(/^update: /, '')}${s.lastUpdate.ok ? '' : ' [failed]'}`);
  else lines.push('  last update: none since start');
  // Every status line is one line: a field holding a line break is flattened into it.
  return lines.map(safeLine).join('\n');
}
