// Golden-file support for importer scenarios: one folder per scenario under test/fixtures/import/,
// holding the input file(s), an optional scenario.json ({ root, options, resolve }) and expected.json,
// a compact, reviewable summary of the import outcome. Regenerate with UPDATE_GOLDEN=1.
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic, Endpoint, ImportOutcome, SchemaLink, Server } from '../../src/model/index.ts';
import { formatPlace } from '../../src/model/index.ts';
import { importSpec, type ImportOptions } from '../../src/import/index.ts';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/import');
export const UPDATE = process.env.UPDATE_GOLDEN === '1';

interface ScenarioFile {
  root?: string;
  options?: Partial<ImportOptions>;
  /** Also resolve every request/response schema (SchemaResolver.resolve) into the summary. */
  resolve?: boolean;
}

export function scenarios(): string[] {
  return readdirSync(FIXTURES)
    .filter((d) => statSync(path.join(FIXTURES, d)).isDirectory() && !d.startsWith('postman'))
    .sort();
}

export async function runScenario(name: string): Promise<{ actual: unknown; expectedFile: string; outcome: ImportOutcome }> {
  const dir = path.join(FIXTURES, name);
  const configFile = path.join(dir, 'scenario.json');
  const config: ScenarioFile = existsSync(configFile) ? JSON.parse(readFileSync(configFile, 'utf8')) : {};
  const root = config.root ?? readdirSync(dir).filter((f) => f !== 'expected.json' && f !== 'scenario.json' && statSync(path.join(dir, f)).isFile()).sort()[0];
  if (!root) throw new Error(`scenario ${name} has no input file`);
  const outcome = await importSpec(path.join(dir, root), { name, collection: 'fixtures', ...config.options });
  return { actual: summarize(outcome, dir, config.resolve === true), expectedFile: path.join(dir, 'expected.json'), outcome };
}

export function readExpected(file: string, actual: unknown): unknown {
  if (UPDATE) writeFileSync(file, JSON.stringify(actual, null, 2) + '\n');
  else if (!existsSync(file)) throw new Error(`${file} is missing: review the output and create it with UPDATE_GOLDEN=1`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The compact form stored in expected.json. Absolute paths become relative to the scenario folder. */
export function summarize(outcome: ImportOutcome, dir: string, resolve = false): unknown {
  const rel = (s: string) => s.split(dir + path.sep).join('').split(dir).join('.');
  const diag = (d: Diagnostic) => `${d.code} ${rel(formatPlace(d))}: ${rel(d.message)}${d.hint ? ` (hint: ${d.hint})` : ''}`;
  if (!outcome.ok) {
    return {
      ok: false,
      ...(outcome.format ? { format: outcome.format } : {}),
      errors: outcome.errors.map(diag),
      warnings: outcome.warnings.map(diag),
      files: outcome.files.map(rel),
    };
  }
  const spec = outcome.spec;
  const link = (l: SchemaLink | undefined) => {
    if (!l) return 'no schema';
    const ref = (l.node as { $ref?: unknown } | null)?.$ref;
    return typeof ref === 'string' ? `${ref} in ${rel(l.file)}` : `inline in ${rel(l.file)}`;
  };
  const endpoint = (e: Endpoint) => ({
    id: e.id,
    method: e.method,
    path: e.path,
    ...(e.summary !== undefined ? { summary: e.summary } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...(e.operationId !== undefined ? { operationId: e.operationId } : {}),
    ...(e.tags.length > 0 ? { tags: e.tags } : {}),
    ...(e.deprecated ? { deprecated: true } : {}),
    parameters: e.parameters.map(
      (p) =>
        `${p.in}:${p.name}:${p.type}${p.required ? ':required' : ''}` +
        (p.style !== undefined ? ` style=${p.style}` : '') +
        (p.explode !== undefined ? ` explode=${p.explode}` : '') +
        (p.example !== undefined ? ` example=${JSON.stringify(p.example)}` : '') +
        (p.description !== undefined ? ` "${p.description}"` : ''),
    ),
    ...(e.requestBody
      ? {
          requestBody: {
            required: e.requestBody.required,
            ...(e.requestBody.description !== undefined ? { description: e.requestBody.description } : {}),
            contents: e.requestBody.contents.map((c) => `${c.mediaType}: ${link(c.schema)}${c.encoding ? ' +encoding' : ''}`),
          },
        }
      : {}),
    responses: e.responses.map((r) => `${r.status} ${r.label}${r.contentTypes ? ` [${r.contentTypes.join(', ')}]` : ''}${r.schema ? ` -> ${link(r.schema)}` : ''}`),
    ...(e.servers !== spec.servers ? { servers: e.servers.map(server) } : {}),
    ...(e.security !== undefined ? { security: e.security } : {}),
    source: `${rel(e.source.file)}#${e.source.pointer}`,
    ...(resolve
      ? {
          resolved: {
            ...(e.requestBody?.contents[0]?.schema ? { requestBody: spec.schemas.resolve(e.requestBody.contents[0].schema) } : {}),
            responses: Object.fromEntries(e.responses.filter((r) => r.schema).map((r) => [r.status, spec.schemas.resolve(r.schema!)])),
          },
        }
      : {}),
  });
  return {
    ok: true,
    format: spec.format,
    ...(spec.title !== undefined ? { title: spec.title } : {}),
    ...(spec.version !== undefined ? { version: spec.version } : {}),
    ...(spec.formatVersion !== undefined ? { formatVersion: spec.formatVersion } : {}),
    webhooks: spec.webhooks,
    servers: spec.servers.map(server),
    securitySchemes: spec.securitySchemes,
    files: spec.files.map(rel),
    endpoints: spec.endpoints.map(endpoint),
    skipped: spec.skipped.map((s) => `${s.method} ${s.path} at ${s.pointer}: ${s.reason}`),
    warnings: spec.warnings.map(diag),
  };
}

function server(s: Server): string {
  const vars = s.variables ? Object.entries(s.variables).map(([k, v]) => `${k}=${v.default}${v.enum ? `(${v.enum.join('|')})` : ''}`) : [];
  return vars.length > 0 ? `${s.url} {${vars.join(', ')}}` : s.url;
}
