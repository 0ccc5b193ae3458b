// Collects the suite's figures: every reliability test appends one JSON line per measurement to
// .cache/reliability/figures.jsonl; test/reliability/report.ts turns the latest run into the
// figures section of RELIABILITY.md. Figures therefore always come from a real run.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT, SCALE } from './scale.ts';

export const FIGURES_FILE = process.env['SVC_RELIABILITY_FIGURES'] ?? join(REPO_ROOT, '.cache/reliability/figures.jsonl');

export type Figure = string | number | boolean;

export interface FigureLine {
  readonly test: string;
  readonly at: string;
  readonly scale: number;
  readonly node: string;
  readonly figures: Readonly<Record<string, Figure>>;
  /** Optional per-item rows (one per hostile case, say). */
  readonly rows?: readonly Readonly<Record<string, Figure>>[];
}

export function recordFigures(test: string, figures: Record<string, Figure>, rows?: Record<string, Figure>[]): void {
  const line: FigureLine = { test, at: new Date().toISOString(), scale: SCALE, node: process.version, figures, ...(rows ? { rows } : {}) };
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, JSON.stringify(line) + '\n');
}

/** p-th percentile (0..100) of `values` (sorted copy, nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
