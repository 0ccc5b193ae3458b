// `svc check [FILE...]`: import every spec offline (no daemon) and report what svc would serve.
// Exit 1 when any spec has an error, so it fits in CI before `svc update`.
import { relative } from 'node:path';
import * as importer from '../import/index.ts';
import { configFromFiles, loadConfig, type Config, type SecretRef, type SpecConfig } from '../config/index.ts';
import { ConfigError } from '../model/errors.ts';
import { safeLine } from '../model/safe-text.ts';
import { formatDiagnostic, formatPlace, type Diagnostic, type SkippedOperation } from '../model/diagnostic.ts';
import type { ImportOutcome, SpecFormat } from '../model/index.ts';
import { configFindings, type Note } from './check-config.ts';
import { Progress } from './progress.ts';
import type { CommandContext } from './types.ts';

/** One spec's line in `svc check --json` (these keys are a stable interface). */
export interface CheckReport {
  readonly file: string;
  readonly name: string;
  readonly collection: string;
  readonly format: SpecFormat | null;
  readonly formatVersion: string | null;
  readonly title: string | null;
  readonly endpoints: number;
  readonly webhooks: number;
  readonly skipped: readonly SkippedOperation[];
  readonly warnings: readonly Diagnostic[];
  readonly errors: readonly Diagnostic[];
  /** What svc applies on its own reading of svc.yaml (a bearer token for an apiKey scheme in the Authorization header). */
  readonly notes: readonly Note[];
  readonly ms: number;
}

/**
 * Specs imported at once. Imports are CPU-bound (one big JSON.parse / YAML parse), so more only raises
 * peak memory; each outcome is reduced to its summary at once so a large run keeps memory flat.
 */
const CONCURRENCY = 1;

export async function run(ctx: CommandContext): Promise<number> {
  const json = ctx.options['json'] === true;
  let config: Config;
  try {
    config = ctx.args.length > 0 ? await configFromFiles(ctx.args) : await loadConfig(ctx.configFile);
  } catch (error) {
    if (json && error instanceof ConfigError) {
      ctx.stdout.write(`${JSON.stringify({ specs: [], config: { file: error.file, problems: error.problems } })}\n`);
    }
    throw error;
  }
  const reports = (await checkSpecs(config, ctx)).map((report, i) => withEnvWarnings(report, config.specs[i]!, config.file));
  if (json) ctx.stdout.write(`${JSON.stringify({ specs: reports })}\n`);
  else ctx.stdout.write(renderText(reports));
  return reports.some((r) => r.errors.length > 0) ? 1 : 0;
}

/** Imports every spec of `config` (in config order) and summarizes each; never throws for bad specs. */
export async function checkSpecs(config: Config, ctx: Pick<CommandContext, 'stderr'>): Promise<CheckReport[]> {
  const importSpec = (importer as Partial<typeof importer>).importSpec;
  // Stryker disable next-line ConditionalExpression,StringLiteral: every build of svc exports importSpec; the check is for a broken build only
  if (typeof importSpec !== 'function') throw new Error('the importer is not available in this build (src/import exports no importSpec)');
  const progress = new Progress(ctx.stderr, config.specs.length);
  // Stryker disable next-line ArrayDeclaration: every report is set by its index below; the length given only sizes the array at once
  const reports: CheckReport[] = new Array(config.specs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < config.specs.length) {
      const index = next++;
      const spec = config.specs[index]!;
      progress.start(spec.path);
      const started = performance.now();
      let outcome: ImportOutcome;
      try {
        outcome = await importSpec(spec.path, {
          name: spec.name,
          collection: spec.collection,
          allowRemoteRefs: spec.allowRemoteRefs,
          allowRefsFrom: spec.allowRefsFrom,
          maxSpecBytes: config.limits.maxSpecBytes,
        });
      } catch (error) {
        // importSpec promises not to throw; if it does, that is our bug, reported against the spec, not a crash.
        outcome = crashOutcome(spec, error);
      }
      const report = summarize(spec, outcome, Math.round(performance.now() - started));
      // Config against spec, while the imported spec is at hand (only its summary is kept).
      const findings = outcome.ok ? configFindings(spec, index, outcome.spec, config.file) : undefined;
      reports[index] = findings ? { ...report, warnings: [...report.warnings, ...findings.warnings], notes: findings.notes } : report;
      progress.done();
    }
  };
  // Stryker disable next-line MethodExpression: more workers take the same specs from the shared index, each report at its own place: memory only
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, config.specs.length) }, worker));
  progress.finish();
  return reports;
}

/** Every `${VAR}` a spec's settings name, with the key path it stands at. */
function secretRefs(spec: SpecConfig): { env: string; key: string }[] {
  const refs: { env: string; key: string }[] = [];
  spec.auth.forEach((auth, i) => {
    for (const [key, value] of Object.entries(auth)) {
      if (value && typeof value === 'object' && 'env' in value) refs.push({ env: (value as SecretRef).env, key: `auth[${i}].${key}` });
    }
  });
  for (const [name, value] of Object.entries(spec.headers)) if (typeof value === 'object') refs.push({ env: value.env, key: `headers.${name}` });
  return refs;
}

/** A credential whose variable is unset would make every invoke of that spec fail: say so now (never the value). */
function withEnvWarnings(report: CheckReport, spec: SpecConfig, configFile: string): CheckReport {
  const unset = secretRefs(spec).filter((ref) => !process.env[ref.env]);
  // Stryker disable next-line ConditionalExpression: speed only (no unset variable adds no warning)
  if (unset.length === 0) return report;
  const warnings: Diagnostic[] = unset.map((ref) => ({
    severity: 'warning',
    code: 'env-unset',
    message: `environment variable ${ref.env} (${ref.key} of spec ${spec.name}) is not set; invoke will fail without it`,
    file: configFile,
    // Stryker disable next-line ConditionalExpression: a line that is undefined is no line, in the JSON and in the text place alike
    ...(spec.line !== undefined ? { line: spec.line } : {}),
    hint: `set ${ref.env} in the environment svc runs in`,
  }));
  return { ...report, warnings: [...report.warnings, ...warnings] };
}

function crashOutcome(spec: SpecConfig, error: unknown): ImportOutcome {
  return {
    ok: false,
    name: spec.name,
    collection: spec.collection,
    file: spec.path,
    errors: [
      {
        severity: 'error',
        code: 'import-crashed',
        message: `the importer failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        file: spec.path,
        hint: 'this is a bug in svc; please report it with the file',
      },
    ],
    warnings: [],
    files: [spec.path],
  };
}

function summarize(spec: SpecConfig, outcome: ImportOutcome, ms: number): CheckReport {
  if (outcome.ok) {
    const s = outcome.spec;
    return {
      file: spec.path,
      name: s.name,
      collection: s.collection,
      format: s.format,
      formatVersion: s.formatVersion ?? null,
      title: s.title ?? null,
      endpoints: s.endpoints.length,
      webhooks: s.webhooks,
      skipped: s.skipped,
      warnings: s.warnings,
      errors: [],
      // Stryker disable next-line ArrayDeclaration: a spec that imported gets the notes of configFindings in place of these
      notes: [],
      ms,
    };
  }
  return {
    file: spec.path,
    name: outcome.name,
    collection: outcome.collection,
    format: outcome.format ?? null,
    formatVersion: null,
    title: null,
    endpoints: 0,
    webhooks: 0,
    skipped: [],
    warnings: outcome.warnings,
    errors: outcome.errors,
    notes: [],
    ms,
  };
}

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** Shorter paths on screen: relative to the working folder when inside it. */
function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

export function renderText(reports: readonly CheckReport[]): string {
  const out: string[] = [];
  for (const r of reports) {
    const format = r.format ? `${r.format}${r.formatVersion ? ` (${r.formatVersion})` : ''}` : 'unknown format';
    const status = r.errors.length > 0 ? 'FAILED' : 'ok';
    out.push(safeLine(`${r.name} [${r.collection}] ${shown(r.file)}: ${status}, ${format}`));
    const counts = [plural(r.endpoints, 'endpoint'), plural(r.webhooks, 'webhook')];
    if (r.skipped.length > 0) counts.push(`${r.skipped.length} skipped`);
    if (r.warnings.length > 0) counts.push(plural(r.warnings.length, 'warning'));
    if (r.errors.length > 0) counts.push(plural(r.errors.length, 'error'));
    out.push(`  ${counts.join(', ')} (${r.ms} ms)`);
    // Importers usually also warn about a skipped operation at the same place: say it once.
    const warned = new Set(r.warnings.map((w) => w.pointer));
    for (const s of r.skipped) {
      if (!warned.has(s.pointer)) out.push(safeLine(`  skipped ${s.method} ${s.path}: ${s.reason} (${shown(r.file)}#${s.pointer})`));
    }
    for (const d of [...r.errors, ...r.warnings]) {
      out.push(...formatDiagnostic({ ...d, file: shown(d.file) }).split('\n').map((line) => `  ${line}`));
    }
    for (const n of r.notes) {
      out.push(`  ${formatPlace({ ...n, file: shown(n.file) })}: note: ${n.message}`, ...(n.hint ? [`    hint: ${n.hint}`] : []));
    }
  }
  const failed = reports.filter((r) => r.errors.length > 0).length;
  const endpoints = reports.reduce((sum, r) => sum + r.endpoints, 0);
  out.push(
    `${plural(reports.length, 'spec')}: ${reports.length - failed} ok, ${failed} with errors; ${plural(endpoints, 'endpoint')} in all`,
  );
  return `${out.join('\n')}\n`;
}
