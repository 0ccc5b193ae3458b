// Public surface of the importers: files -> ImportOutcome. Reads, parses, detects the format,
// loads external files only when the text has external refs, and dispatches to one importer.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Diagnostic, ImportedSpec, ImportOutcome, SpecFormat } from '../model/index.ts';
import { DEFAULTS, type LimitsConfig, type SpecConfig } from '../config/types.ts';
import { DocumentSet } from './documents.ts';
import { type Detection, detectFormat } from './detect.ts';
import type { FormatContext, FormatResult } from './format.ts';
import { importOpenApi } from './openapi.ts';
import { importSwagger } from './swagger.ts';
import { hasExternalRefs, parseText, type ReadProblem, readSpecFile, releaseBytes } from './read.ts';
import { DocumentSchemaResolver } from './schemas.ts';

export type { FormatContext, FormatResult } from './format.ts';
export { EndpointIds, uniqueIds } from './ids.ts';

export interface ImportOptions {
  /** Spec name (already decided by the config). */
  readonly name: string;
  readonly collection: string;
  /** Allow http(s) `$ref`s. Default false. */
  readonly allowRemoteRefs?: boolean;
  /** Absolute folders besides the root file's folder tree that `$ref`s may read. */
  readonly allowRefsFrom?: readonly string[];
  /** Refuse files above this size before reading them whole. */
  readonly maxSpecBytes?: number;
}

/** Import one API description file. Never throws for bad input: failures come back as `{ ok: false }`. */
export async function importSpec(file: string, options: ImportOptions): Promise<ImportOutcome> {
  const started = performance.now();
  const abs = path.resolve(file);
  const warnings: Diagnostic[] = [];
  const warningAt = new Map<string, number>();
  let files: string[] = [];
  let format: SpecFormat | undefined;
  const fail = (error: Omit<Diagnostic, 'severity' | 'file'> & { file?: string }): ImportOutcome => ({
    ok: false,
    name: options.name,
    collection: options.collection,
    file: abs,
    ...(format ? { format } : {}),
    errors: [{ severity: 'error', file: abs, ...error }],
    warnings,
    files,
  });

  try {
    const root = await readRoot(abs, options.maxSpecBytes ?? DEFAULTS.maxSpecBytes);
    if (!root.ok) {
      if (root.read) files = [abs];
      return fail(root.problem);
    }
    files = [abs];
    const { parsed, detected, docs, external } = root;
    for (const w of parsed.warnings) warnings.push({ severity: 'warning', file: abs, ...w });
    format = detected.format;
    if (detected.warning) warnings.push({ severity: 'warning', code: 'format-version', message: detected.warning, file: abs });

    const ctx: FormatContext = {
      file: abs,
      spec: options.name,
      collection: options.collection,
      warn(d) {
        // The external-ref loader and the walker can both report one broken $ref at one place:
        // keep one warning per (code, file, pointer), the later one, which says what was dropped.
        const file = d.file ?? abs;
        const key = d.pointer !== undefined ? `${d.code} ${file}#${d.pointer}` : undefined;
        const previous = key !== undefined ? warningAt.get(key) : undefined;
        const warning: Diagnostic = {
          severity: 'warning',
          code: d.code,
          message: d.message,
          file,
          ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
          ...(d.hint !== undefined ? { hint: d.hint } : {}),
        };
        if (previous !== undefined) warnings[previous] = warning;
        else {
          if (key !== undefined) warningAt.set(key, warnings.length);
          warnings.push(warning);
        }
      },
    };

    let result: FormatResult;
    if (format === 'postman-2.0' || format === 'postman-2.1') {
      const postman = await loadPostmanImporter();
      if (!postman) return fail({ code: 'format-unavailable', message: 'the Postman importer is not available in this build' });
      result = postman(parsed.value as Record<string, unknown>, format, ctx);
    } else {
      if (external) {
        const problems = await docs.loadExternal({
          allowRemoteRefs: options.allowRemoteRefs ?? false,
          allowRefsFrom: (options.allowRefsFrom ?? []).map((d) => path.resolve(d)),
          maxBytes: options.maxSpecBytes ?? DEFAULTS.maxSpecBytes,
        });
        for (const p of problems) {
          if (p.pointer !== undefined) warningAt.set(`${p.code} ${p.file}#${p.pointer}`, warnings.length);
          warnings.push({ severity: 'warning', ...p });
        }
        files = docs.files;
      }
      result = format === 'swagger-2.0' ? await importSwagger(docs, ctx) : await importOpenApi(docs, format, ctx);
    }

    const importedAt = Date.now();
    const spec: ImportedSpec = {
      name: options.name,
      collection: options.collection,
      file: abs,
      format,
      ...(result.title !== undefined ? { title: result.title } : {}),
      ...(result.version !== undefined ? { version: result.version } : {}),
      ...((result.formatVersion ?? detected.formatVersion) !== undefined ? { formatVersion: result.formatVersion ?? detected.formatVersion } : {}),
      endpoints: result.endpoints,
      webhooks: result.webhooks,
      skipped: result.skipped,
      warnings,
      servers: result.servers,
      securitySchemes: result.securitySchemes,
      files: docs.files,
      hash: docs.hash,
      schemas: new DocumentSchemaResolver(docs),
      importedAt,
      importMs: Math.round((performance.now() - started) * 10) / 10,
    };
    return { ok: true, spec };
  } catch (err) {
    // A bug in an importer must not take the daemon down: report it like bad input, with the cause.
    return fail({
      code: 'import-failed',
      message: `import failed unexpectedly: ${(err as Error)?.message ?? String(err)}`,
      hint: 'This is a bug in svc; please report it with the file.',
    });
  }
}

type RootRead =
  | { readonly ok: false; readonly problem: ReadProblem; /** The file was read (its problem is its content). */ readonly read: boolean }
  | { readonly ok: true; readonly parsed: { readonly value: unknown; readonly warnings: readonly ReadProblem[] }; readonly detected: Detection & { readonly ok: true }; readonly docs: DocumentSet; readonly external: boolean };

/**
 * Reads, parses and recognises the root file. A function of its own so that the file's text is
 * garbage once it returns instead of living through the import that follows: the text of a file
 * with any non-ASCII character takes two bytes a character (26 MB for GitHub's 13 MB description).
 */
async function readRoot(abs: string, maxBytes: number): Promise<RootRead> {
  const read = await readSpecFile(abs, maxBytes);
  if (!read.ok) return { ok: false, problem: read.problem, read: false };
  const parsed = parseText(read.text);
  if (!parsed.ok) return { ok: false, problem: parsed.problem, read: true };
  const detected = detectFormat(parsed.value);
  if (!detected.ok) return { ok: false, problem: { code: detected.code, message: detected.message, hint: detected.hint }, read: true };
  const postman = detected.format === 'postman-2.0' || detected.format === 'postman-2.1';
  const docs = new DocumentSet(abs, parsed.value, read.bytes);
  // The bytes' last use was their digest (the text is a copy): their memory goes now. (Emptied
  // before the parse instead, the import took about 14 ms more CPU of a worker, measured.)
  releaseBytes(read.bytes);
  // Only documents whose text names another file pay for the external-ref crawl.
  return { ok: true, parsed, detected, docs, external: !postman && hasExternalRefs(read.text) };
}

type PostmanImporter = (doc: Record<string, unknown>, format: 'postman-2.0' | 'postman-2.1', ctx: FormatContext) => FormatResult;
let postmanImporter: Promise<PostmanImporter | undefined> | undefined;

/** The Postman importer, loaded on first use (specs without Postman collections never load it). */
function loadPostmanImporter(): Promise<PostmanImporter | undefined> {
  postmanImporter ??= import('./postman/index.ts').then(
    (m) => m.importPostman as PostmanImporter,
    () => undefined,
  );
  return postmanImporter;
}

export interface ImportProgress {
  /** 0-based position of the spec in the config. */
  readonly index: number;
  readonly total: number;
  readonly spec: SpecConfig;
  readonly outcome: ImportOutcome;
}

/**
 * Imports every configured spec in config order (one at a time: imports are CPU-bound and a
 * 13 MB document parses in one go, so running several at once only raises peak memory).
 */
export async function importAll(
  specs: readonly SpecConfig[],
  limits: Pick<LimitsConfig, 'maxSpecBytes'>,
  onProgress?: (progress: ImportProgress) => void,
): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const outcome = await importSpec(spec.path, {
      name: spec.name,
      collection: spec.collection,
      allowRemoteRefs: spec.allowRemoteRefs,
      allowRefsFrom: spec.allowRefsFrom,
      maxSpecBytes: limits.maxSpecBytes,
    });
    outcomes.push(outcome);
    onProgress?.({ index: i, total: specs.length, spec, outcome });
  }
  return outcomes;
}
