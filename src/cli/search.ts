// `svc search QUERY [--spec S] [--collection C] [--tag T] [--method M] [--limit N] [--json]`
import { mirror, pick } from './mirror.ts';
import type { CommandContext } from './types.ts';

export async function run(ctx: CommandContext): Promise<number> {
  const query = ctx.args.join(' ');
  // Stryker disable next-line MethodExpression: the search tool takes a method in any case (src/tools/search.ts upper-cases it too)
  const method = typeof ctx.options['method'] === 'string' ? ctx.options['method'].toUpperCase() : undefined;
  return mirror(ctx, 'search', { query, ...pick(ctx.options, ['spec', 'collection', 'tag', 'limit']), ...(method ? { method } : {}) });
}
