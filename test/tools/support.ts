// Test support for the tool handlers called in process: a real catalogue over real descriptions
// (small YAML or JSON texts written by the test, imported by the real importer, or the hand-made
// specs of test/catalog/fixtures.ts), the real config and invoker, and `runTool` as the front ends call it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../../src/catalog/index.ts';
import { configFromFiles, loadConfig } from '../../src/config/index.ts';
import { importConfigured, loadedSpecs } from '../../src/daemon/start-load.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { runTool, toolByName, type ToolContext, type ToolResult } from '../../src/tools/index.ts';

export interface Bench {
  readonly ctx: ToolContext;
  /** Calls the tool named `name` through `runTool`, as MCP and the IPC mirrors do. */
  run(name: string, input?: Record<string, unknown>): Promise<ToolResult>;
  /** The same with more of the session: its way to confirm a write, its cancel signal. */
  runWith(more: Pick<ToolContext, 'confirm' | 'signal'>, name: string, input?: Record<string, unknown>): Promise<ToolResult>;
  cleanup(): Promise<void>;
}

function benchFor(ctx: ToolContext, cleanup: () => Promise<void> = async () => {}): Bench {
  const runWith = (more: Pick<ToolContext, 'confirm' | 'signal'>, name: string, input: Record<string, unknown> = {}): Promise<ToolResult> => {
    const tool = toolByName(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return runTool(tool, input, { ...ctx, ...more });
  };
  return { ctx, run: (name, input) => runWith({}, name, input), runWith, cleanup };
}

/** Hand-made specs (test/catalog/fixtures.ts) in a real catalogue; the config names no spec. */
export async function benchOfSpecs(specs: readonly ImportedSpec[]): Promise<Bench> {
  const config = await configFromFiles([]);
  return benchFor({ catalog: new Catalog(specs), config, invoker: createInvoker(config) });
}

export interface SpecSource {
  /** File name, which also names the spec (`pets.yaml` -> `pets`). */
  readonly file: string;
  readonly text: string;
  /** svc.yaml lines under the spec's entry (`collection: park`, `parameters: ...`), unindented. */
  readonly entry?: string;
}

/** Descriptions written to a temp folder, an svc.yaml over them, imported as the daemon does. */
export async function benchOfSources(sources: readonly SpecSource[]): Promise<Bench> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-tools-'));
  const lines = ['specs:'];
  for (const s of sources) {
    const file = join(dir, s.file);
    await writeFile(file, s.text);
    lines.push(`  - path: ${JSON.stringify(file)}`);
    for (const l of (s.entry ?? '').split('\n').filter(Boolean)) lines.push(`    ${l}`);
  }
  const configFile = join(dir, 'svc.yaml');
  await writeFile(configFile, `${lines.join('\n')}\n`);
  const config = await loadConfig(configFile);
  const outcomes = await importConfigured(config);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length) throw new Error(`import failed: ${JSON.stringify(failed)}`);
  const catalog = new Catalog(loadedSpecs(outcomes));
  return benchFor({ catalog, config, invoker: createInvoker(config) }, () => rm(dir, { recursive: true, force: true }));
}

/** An OpenAPI 3.0 document in JSON text around `paths` (and `components`, when given). */
export function openapi(paths: Record<string, unknown>, components?: Record<string, unknown>, title = 'Test API'): string {
  return JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, paths, ...(components ? { components } : {}) });
}
