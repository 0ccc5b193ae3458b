// `svc check`: placeholder until the implementation lands (next commit).
import type { CommandContext } from './types.ts';

export async function run(ctx: CommandContext): Promise<number> {
  ctx.stderr.write('svc: check is not implemented yet\n');
  return 1;
}
