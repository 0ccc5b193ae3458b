// `svc inspect ID`: the endpoint as the inspect tool shows it.
import type { CommandContext } from './types.ts';
import { mirror } from './mirror.ts';

export async function run(ctx: CommandContext): Promise<number> {
  return mirror(ctx, 'inspect', { endpointId: ctx.args[0] ?? '' });
}
