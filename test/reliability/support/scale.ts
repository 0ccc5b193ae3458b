// How big the reliability suite runs. The default fits a CI budget of a few minutes on 2 cores;
// SVC_RELIABILITY_SCALE=N multiplies counts (fuzz runs, load calls, concurrent clients, soak length),
// and SVC_SOAK=1 is shorthand for scale 10.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function readScale(): number {
  const raw = process.env['SVC_RELIABILITY_SCALE'];
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (Number.isFinite(n) && n > 0) return n;
    throw new Error(`SVC_RELIABILITY_SCALE must be a positive number, got ${JSON.stringify(raw)}`);
  }
  return process.env['SVC_SOAK'] === '1' ? 10 : 1;
}

export const SCALE = readScale();

/** `n` times the scale, at least 1, rounded. */
export function scaled(n: number): number {
  return Math.max(1, Math.round(n * SCALE));
}

/** The repository root (this file is test/reliability/support/scale.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Third-party corpus, next to the repository; absent on some machines (tests then skip). */
export const CORPUS_DIR = resolve(REPO_ROOT, '../shared/specs');
export const CORPUS_PRESENT = existsSync(join(CORPUS_DIR, 'MANIFEST.tsv'));
export const CORPUS_SKIP = CORPUS_PRESENT ? false : `corpus folder ../shared/specs (relative to the repo root) is absent`;

/** GitHub's REST description, fetched by the import bench into .cache/octokit-openapi/<version>/ (npm pack @octokit/openapi). */
export function githubDescription(): string | undefined {
  const base = join(REPO_ROOT, '.cache/octokit-openapi');
  let versions: string[] = [];
  try {
    versions = readdirSync(base).sort().reverse();
  } catch {
    return undefined;
  }
  return versions.map((v) => join(base, v, 'package/generated/api.github.com.json')).find((p) => existsSync(p));
}
