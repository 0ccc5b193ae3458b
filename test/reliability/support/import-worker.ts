// Worker thread that imports one file per message and reports what came out, so the parent can
// time it out (terminate), cap its heap (resourceLimits) and survive whatever the importer does.
// The checks that need the live objects (resolving schemas, id uniqueness) run here.
import { parentPort } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import type { ImportOutcome, SchemaLink } from '../../../src/model/index.ts';

export interface ImportJob {
  readonly id: number;
  readonly file: string;
  readonly options: Record<string, unknown>;
  readonly forbid?: readonly string[];
  readonly descriptionLengths?: Readonly<Record<string, number>>;
  /** Resolve the schemas of at most this many endpoints (0: none). */
  readonly resolveEndpoints?: number;
}

export interface ImportReport {
  readonly id: number;
  readonly unavailable?: string;
  readonly threw?: string;
  readonly ok?: boolean;
  readonly endpoints?: number;
  readonly errorCodes?: readonly string[];
  readonly firstError?: string;
  readonly warnings?: number;
  /** Broken promises of the contract, each a sentence. Empty when all is well. */
  readonly problems: readonly string[];
  readonly ms: number;
  readonly heapUsedMb: number;
  readonly schemasResolved: number;
}

type ImportSpec = (file: string, options: Record<string, unknown>) => Promise<ImportOutcome>;
let importSpec: ImportSpec | undefined;
let unavailable: string | undefined;
try {
  const mod = (await import('../../../src/import/index.ts')) as unknown as { importSpec?: ImportSpec };
  if (typeof mod.importSpec === 'function') importSpec = mod.importSpec;
  else unavailable = 'src/import/index.ts does not export importSpec yet';
} catch (error) {
  unavailable = `src/import/index.ts failed to load: ${(error as Error).message}`;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}${(error as { code?: unknown }).code ? `[${String((error as { code?: unknown }).code)}]` : ''}: ${error.message.slice(0, 300)}`;
  return String(error).slice(0, 300);
}

/** True when any string (key or value) reachable from `root` contains `needle`; skips the resolver. */
function containsString(root: unknown, needle: string): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes(needle)) return true;
    } else if (v !== null && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      for (const [k, child] of Object.entries(v)) {
        if (k === 'schemas') continue;
        if (k.includes(needle)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

function checkOutcome(outcome: ImportOutcome, job: ImportJob, problems: string[]): number {
  let resolved = 0;
  if (outcome === null || typeof outcome !== 'object' || typeof outcome.ok !== 'boolean') {
    problems.push(`importSpec resolved to something that is not an ImportOutcome: ${String(outcome).slice(0, 100)}`);
    return 0;
  }
  // Raw schema nodes may legitimately be nested 100,000 deep: walk iteratively, not with JSON.stringify.
  for (const marker of job.forbid ?? []) {
    if (containsString(outcome, marker)) problems.push(`the outcome contains ${JSON.stringify(marker)}, read from a file the importer must not read`);
  }
  if (!outcome.ok) {
    if (!Array.isArray(outcome.errors) || outcome.errors.length === 0) problems.push('a failed import carries no error diagnostics');
    for (const d of outcome.errors ?? []) {
      if (typeof d.code !== 'string' || d.code === '') problems.push('an error diagnostic has no code');
      if (typeof d.message !== 'string' || d.message === '') problems.push('an error diagnostic has no message');
      if (typeof d.file !== 'string' || d.file === '') problems.push('an error diagnostic names no file');
      if (typeof d.message === 'string' && / at .+:\d+:\d+\)?$/m.test(d.message)) problems.push(`an error message carries a stack trace: ${d.message.slice(0, 200)}`);
    }
    return 0;
  }
  const spec = outcome.spec;
  const ids = new Set<string>();
  for (const e of spec.endpoints) {
    if (ids.has(e.id)) problems.push(`duplicate endpoint id ${JSON.stringify(e.id)}`);
    ids.add(e.id);
    if (!METHODS.has(e.method)) problems.push(`endpoint ${e.id} has method ${JSON.stringify(e.method)}`);
    if (typeof e.path !== 'string') problems.push(`endpoint ${e.id} has a path that is not a string`);
    if (!Array.isArray(e.parameters) || !Array.isArray(e.responses) || !Array.isArray(e.tags)) problems.push(`endpoint ${e.id} lacks parameters/responses/tags arrays`);
  }
  for (const [key, length] of Object.entries(job.descriptionLengths ?? {})) {
    const [method, path] = key.split(' ');
    const e = spec.endpoints.find((x) => x.method === method && x.path === path);
    if (!e) problems.push(`endpoint ${key} is missing`);
    else if (e.description?.length !== length) problems.push(`endpoint ${key} description has ${e.description?.length} characters, the source ${length}`);
  }
  // Resolve schemas the way inspect and invoke will: hostile $refs must stay harmless there too.
  const limit = job.resolveEndpoints ?? 50;
  for (const e of spec.endpoints.slice(0, limit)) {
    const links: SchemaLink[] = [];
    for (const p of e.parameters) if (p.schema) links.push(p.schema);
    for (const c of e.requestBody?.contents ?? []) if (c.schema) links.push(c.schema);
    for (const r of e.responses) if (r.schema) links.push(r.schema);
    for (const link of links.slice(0, 20)) {
      try {
        const value = spec.schemas.resolve(link, { maxDepth: 50 });
        const json = JSON.stringify(value) ?? '';
        resolved++;
        for (const marker of job.forbid ?? []) {
          if (json.includes(marker)) problems.push(`resolving a schema of ${e.id} returned ${JSON.stringify(marker)} from a file that must not be read`);
        }
      } catch (error) {
        // A structured refusal is fine; a TypeError, RangeError (stack overflow) and the like are not.
        if (!(error instanceof Error && typeof (error as { code?: unknown }).code === 'string' && error.name !== 'Error')) {
          problems.push(`resolving a schema of ${e.id} threw ${describe(error)}`);
        }
      }
    }
  }
  return resolved;
}

parentPort!.on('message', async (job: ImportJob) => {
  const started = performance.now();
  if (!importSpec) {
    parentPort!.postMessage({ id: job.id, unavailable, problems: [], ms: 0, heapUsedMb: 0, schemasResolved: 0 } satisfies ImportReport);
    return;
  }
  const problems: string[] = [];
  let report: ImportReport;
  try {
    const outcome = await importSpec(job.file, job.options);
    const ms = performance.now() - started;
    let schemasResolved = 0;
    try {
      schemasResolved = checkOutcome(outcome, job, problems);
    } catch (error) {
      problems.push(`checking the outcome threw ${describe(error)}`);
    }
    report = {
      id: job.id,
      ok: outcome.ok,
      endpoints: outcome.ok ? outcome.spec.endpoints.length : 0,
      errorCodes: outcome.ok ? [] : outcome.errors.map((d) => d.code),
      firstError: outcome.ok ? undefined : outcome.errors[0]?.message.slice(0, 300),
      warnings: outcome.ok ? outcome.spec.warnings.length : outcome.warnings.length,
      problems,
      ms,
      heapUsedMb: getHeapStatistics().used_heap_size / 1048576,
      schemasResolved,
    };
  } catch (error) {
    report = { id: job.id, threw: describe(error), problems: [`importSpec threw instead of returning { ok: false }: ${describe(error)}`], ms: performance.now() - started, heapUsedMb: getHeapStatistics().used_heap_size / 1048576, schemasResolved: 0 };
  }
  parentPort!.postMessage(report);
});
