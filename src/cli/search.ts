// `svc search QUERY [--spec S] [--collection C] [--tag T] [--method M] [--limit N] [--json]`
import { mirror, pick } from './mirror.ts';
import type { CommandContext } from './types.ts';

export async function run(ctx: CommandContext): Promise<number> {
  const query = ctx.args.join(' ');
  const method = typeof ctx.options['method'] === 'string' ? ctx.options['method'].toUpperCase() : undefined;
  return mirror(ctx, 'search', { query, ...pick(ctx.options, ['spec', 'collection', 'tag', 'limit']), ...(method ? { method } : {}) });
}
