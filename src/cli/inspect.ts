// `svc inspect ID [--depth N]`: the endpoint as the inspect tool shows it.
import type { CommandContext } from './types.ts';
import { mirror } from './mirror.ts';

export async function run(ctx: CommandContext): Promise<number> {
  const depth = ctx.options['depth'];
  // A number the tool checks (1-6); anything else goes as given so the tool's own message names it.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,Regex: cac reads a number of digits as a number already, so a string here holds a non-digit; an undefined depth goes nowhere (JSON drops it)
  const asked = depth === undefined ? {} : { depth: typeof depth === 'string' && /^\d+$/.test(depth) ? Number(depth) : depth };
  return mirror(ctx, 'inspect', { endpointId: ctx.args[0] ?? '', ...asked });
}
