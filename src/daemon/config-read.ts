// `svc update` reads svc.yaml again. A large one (a catalogue of thousands of specs) is parsed in
// the import worker: the YAML parse and the checks of 2,639 entries (360 KB) took 80-130 ms of the
// main thread when warm, over 200 ms the first time, and MCP calls and `svc status` waited that
// long. A small one is read here: a worker's start would cost more than its parse.
import { stat } from 'node:fs/promises';
import { loadConfig } from '../config/load.ts';
import type { Config } from '../config/types.ts';
import { ConfigError } from '../model/errors.ts';
import type { ImportPool } from './import-pool.ts';

/** From this size svc.yaml is read in the worker: about 470 spec entries, some 20 ms of parsing. */
export const OFF_THREAD_CONFIG_BYTES = 64 * 1024;

/**
 * loadConfig(file), in `pool`'s worker when the file is `offThreadFrom` bytes or more (on this
 * thread when the worker cannot be had). Throws what loadConfig throws: a ConfigError with every
 * problem and its line.
 */
export async function rereadConfig(file: string, pool: ImportPool, offThreadFrom: number = OFF_THREAD_CONFIG_BYTES): Promise<Config> {
  const size = await stat(file).then(
    (s) => s.size,
    // Stryker disable next-line ArrowFunction: a file that cannot be stat'ed is read in the worker instead, with the same error
    () => 0,
  );
  if (size < offThreadFrom) return loadConfig(file);
  const reply = await pool.readConfig(file);
  // A reply not taken is read again on this thread, with the same outcome: what tells the two apart is
  // the thread's time (test/daemon/never-stalled.alone.ts), which a mutation run does not measure.
  // Stryker disable next-line ConditionalExpression,StringLiteral: as above
  if (reply.kind === 'config') return reply.config;
  // Stryker disable next-line ConditionalExpression,StringLiteral,LogicalOperator: as above; loadConfig throws only ConfigErrors, so the plain Error is for what it never throws
  if (reply.kind === 'config-failed') throw reply.file !== undefined && reply.problems ? new ConfigError(reply.file, reply.problems) : new Error(reply.message);
  return loadConfig(file);
}
