// Temp folders with a svc.yaml and the spec files it names, for config tests.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import type { ConfigError, ConfigProblem } from '../../src/model/errors.ts';

export interface TempProject {
  readonly dir: string;
  readonly config: string;
  cleanup(): Promise<void>;
}

/** Writes `files` (relative path -> content) into a fresh temp folder; `svc.yaml` among them is the config. */
export async function tempProject(files: Record<string, string>): Promise<TempProject> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-config-'));
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, rel)), { recursive: true });
    await writeFile(join(dir, rel), content);
  }
  return { dir, config: join(dir, 'svc.yaml'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const SPEC = 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\n';

/** A project holding `specs/pets.yaml` for a whole test file: made before its tests, removed after. */
export function petsProject(): { config(): string } {
  let project: TempProject | undefined;
  before(async () => {
    project = await tempProject({ 'specs/pets.yaml': SPEC });
  });
  after(() => project?.cleanup());
  return {
    /** The project's svc.yaml path (to parse a text as if it were that file). */
    config: () => project!.config,
  };
}

/** The problems of a ConfigError, or a failure when something else was thrown. */
export function problemsOf(error: unknown): readonly ConfigProblem[] {
  if (!(error instanceof Error) || error.name !== 'ConfigError') throw error;
  return (error as ConfigError).problems;
}
