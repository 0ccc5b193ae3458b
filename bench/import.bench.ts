// Import speed and retained memory on the largest real descriptions, beside the bare parse of
// the same file: GitHub's REST description (fetched from npm into .cache/ on first run), Stripe's
// YAML, Kubernetes (Swagger 2.0) and Jira platform from the corpus (../shared/specs).
// Stages: the bare parse, importSpec, and importSpec plus catalogue indexing (what the daemon does).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../src/catalog/index.ts';
import { importSpec } from '../src/import/index.ts';
import { parseText } from '../src/import/read.ts';
import type { ImportOutcome } from '../src/model/index.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(REPO, '../shared/specs');
const CACHE = path.join(REPO, '.cache', 'octokit-openapi');
/** Pinned so figures stay comparable between runs. */
export const OCTOKIT_OPENAPI = '23.0.2';
const GITHUB_FILE = path.join(CACHE, OCTOKIT_OPENAPI, 'package', 'generated', 'api.github.com.json');

interface Subject {
  readonly name: string;
  readonly file: string;
}

/** One measured stage: returns something to keep alive while memory is measured. */
interface Stage {
  readonly name: string;
  readonly run: (file: string) => Promise<unknown>;
}

/** Every file a multi-file spec is made of, by root file (filled by one import before measuring). */
const specFiles = new Map<string, readonly string[]>();

/**
 * The baseline: read the file and parse it (JSON.parse, or the same YAML settings import uses),
 * nothing else. For a multi-file spec: every file the import reads, so YAML parsing is the floor.
 */
const parseStage: Stage = {
  name: 'read + parse',
  run: async (file) => {
    const values: unknown[] = [];
    for (const f of specFiles.get(file) ?? [file]) {
      const parsed = parseText(readFileSync(f, 'utf8'));
      if (!parsed.ok) throw new Error(`${f}: ${parsed.problem.message}`);
      values.push(parsed.value);
    }
    return values.length === 1 ? values[0] : values;
  },
};

const importStage: Stage = {
  name: 'importSpec',
  run: async (file) => {
    const outcome: ImportOutcome = await importSpec(file, { name: 'bench', collection: 'bench' });
    if (!outcome.ok) throw new Error(`${file}: ${outcome.errors[0]?.message}`);
    return outcome;
  },
};

/** What the daemon does per spec: import, then index in the catalogue (the issue's "import plus index"). */
const indexStage: Stage = {
  name: 'import + index',
  run: async (file) => {
    const outcome = (await importStage.run(file)) as Extract<ImportOutcome, { ok: true }>;
    return { outcome, catalog: new Catalog([outcome.spec]) };
  },
};

/** Stages measured for every subject; the first is the baseline, the last the one ratios are taken of. */
export const STAGES: Stage[] = [parseStage, importStage, indexStage];

/** GitHub's REST description, fetched with `npm pack` into .cache/ on first use (shared with bench/mcp.bench.ts). */
export function githubDescription(): string | undefined {
  if (existsSync(GITHUB_FILE)) return GITHUB_FILE;
  const dir = path.join(CACHE, OCTOKIT_OPENAPI);
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['pack', `@octokit/openapi@${OCTOKIT_OPENAPI}`, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!tgz) return undefined;
    execFileSync('tar', ['-xzf', path.join(dir, tgz), '-C', dir, 'package/generated/api.github.com.json']);
    return existsSync(GITHUB_FILE) ? GITHUB_FILE : undefined;
  } catch (err) {
    process.stderr.write(`bench: could not fetch @octokit/openapi@${OCTOKIT_OPENAPI}: ${(err as Error).message}\n`);
    return undefined;
  }
}

function subjects(): { list: Subject[]; missing: string[] } {
  const list: Subject[] = [];
  const missing: string[] = [];
  const github = githubDescription();
  if (github) list.push({ name: `GitHub REST (@octokit/openapi ${OCTOKIT_OPENAPI})`, file: github });
  else missing.push('GitHub REST (npm pack failed)');
  const corpus: [string, string][] = [
    ['Stripe 2023 (YAML)', 'openapi-3.0/stripe/2023-09-12/spec3.yaml'],
    ['Kubernetes (Swagger 2.0)', 'swagger-2.0/kubernetes/swagger.json'],
    ['Jira platform', 'openapi-3.0/atlassian-jira/platform-swagger.v3.json'],
    ['DigitalOcean (YAML, multi-file)', 'openapi-3.0/digitalocean/specification/DigitalOcean-public.v2.yaml'],
  ];
  for (const [name, rel] of corpus) {
    const file = path.join(CORPUS, rel);
    if (existsSync(file)) list.push({ name, file });
    else missing.push(`${name} (corpus ../shared/specs absent)`);
  }
  return { list, missing };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time(stage: Stage, file: string, runs: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t = performance.now();
    await stage.run(file);
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** Full collections until the heap settles (weak maps and finalizers need more than one pass). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Heap and RSS growth while the stage's result is alive, after full collections. */
async function retained(stage: Stage, file: string): Promise<{ heap: number; rss: number; keep: unknown }> {
  await settle();
  const before = process.memoryUsage();
  const keep = await stage.run(file);
  await settle();
  const after = process.memoryUsage();
  return { heap: after.heapUsed - before.heapUsed, rss: after.rss - before.rss, keep };
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

export async function run(): Promise<string> {
  const { list, missing } = subjects();
  const lines: string[] = [
    '## Import (bench/import.bench.ts)',
    '',
    'Median wall time of each stage (file read included) and memory retained while its result is alive',
    '(heap after a full GC; RSS delta is indicative only, since freed pages are not always returned).',
    'Ratios = import + index / read + parse. Targets: import plus index within 2x of the parse time, retained heap within 1.5x of the parsed document.',
    '',
    `| Document | Size | Endpoints | ${STAGES.map((s) => `${s.name} ms`).join(' | ')} | time ratio | ${STAGES.map((s) => `${s.name} heap`).join(' | ')} | heap ratio | ${STAGES.map((s) => `${s.name} RSS`).join(' | ')} |`,
    `|---|---:|---:|${STAGES.map(() => '---:').join('|')}|---:|${STAGES.map(() => '---:').join('|')}|---:|${STAGES.map(() => '---:').join('|')}|`,
  ];
  for (const subject of list) {
    const yaml = /\.ya?ml$/i.test(subject.file);
    const runs = yaml ? 3 : 5;
    const first = await importStage.run(subject.file);
    const files = (first as { spec: { files: readonly string[] } }).spec.files;
    if (files.length > 1) specFiles.set(subject.file, files);
    const size = files.reduce((sum, f) => sum + statSync(f).size, 0);
    const label = files.length > 1 ? `${subject.name}, ${files.length} files` : subject.name;
    // Memory first, one stage at a time, so earlier garbage does not count against a later stage.
    // One untimed run of every stage first, so lazy module loading and first-call compilation
    // count against neither the memory nor the time figures.
    for (const stage of STAGES) await stage.run(subject.file);
    const memory: { heap: number; rss: number }[] = [];
    let endpoints = 0;
    for (const stage of STAGES) {
      const m = await retained(stage, subject.file);
      if (stage === importStage) endpoints = (m.keep as { spec: { endpoints: unknown[] } }).spec.endpoints.length;
      memory.push({ heap: m.heap, rss: m.rss });
    }
    const times: number[] = [];
    for (const stage of STAGES) times.push(await time(stage, subject.file, runs));
    const base = times[0]!;
    const last = times[times.length - 1]!;
    lines.push(
      `| ${label} | ${mb(size)} | ${endpoints} | ${times.map((t) => t.toFixed(0)).join(' | ')} | ${(last / base).toFixed(2)}x | ` +
        `${memory.map((m) => mb(m.heap)).join(' | ')} | ${(memory[memory.length - 1]!.heap / memory[0]!.heap).toFixed(2)}x | ${memory.map((m) => mb(m.rss)).join(' | ')} |`,
    );
  }
  if (missing.length > 0) lines.push('', `Not measured: ${missing.join('; ')}.`);
  return lines.join('\n');
}
