// `svc list [--spec S] [--tag T] [--collection C] [--cursor X] [--limit N]`: the browsing tools
// (endpoint_by_spec / _by_tag / _by_collection); without filters, the specs with their counts.
import { mirror, pick } from './mirror.ts';
import type { CommandContext } from './types.ts';

export async function run(ctx: CommandContext): Promise<number> {
  return mirror(ctx, 'list', pick(ctx.options, ['spec', 'tag', 'collection', 'cursor', 'limit']));
}
