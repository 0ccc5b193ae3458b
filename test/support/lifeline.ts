// Node flags that make a spawned process end with the test process that started it (lifeline.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** `--import` of the lifeline check: put it before the script in a spawned node's arguments. */
export function lifelineArgs(): string[] {
  return ['--import', pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'lifeline.mjs')).href];
}
