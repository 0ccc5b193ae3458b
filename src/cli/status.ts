// `svc status [--json]`: what every daemon serving the config holds, how it is doing, and what
// changed on disk since the last `svc update`. Exit 2 when no daemon answers.
import { request } from '../ipc/client.ts';
import { formatStatus } from '../ipc/format.ts';
import type { StatusResult } from '../ipc/protocol.ts';
import { EXIT_NO_DAEMON, reachDaemons } from './daemons.ts';
import { safeLine } from '../model/safe-text.ts';
import type { CommandContext } from './types.ts';

export async function run(ctx: CommandContext): Promise<number> {
  const json = ctx.options['json'] === true;
  const reached = await reachDaemons(ctx);
  if (!reached) {
    if (json) ctx.stdout.write(`${JSON.stringify({ daemons: [], error: 'no-daemon' })}\n`);
    return EXIT_NO_DAEMON;
  }
  // A daemon whose socket accepts but that did not answer: listed, so that a script sees it too.
  const silent = reached.discovery.unresponsive.map((u) => ({ socket: u.socket, error: `did not answer: ${u.reason}` }));
  const answers = await Promise.all(
    reached.discovery.live.map(async (d) => {
      try {
        return { socket: d.socket, pid: d.ping.pid, status: await request(d.socket, 'status', {}, { timeoutMs: 10_000 }) };
      } catch (error) {
        return { socket: d.socket, pid: d.ping.pid, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  if (json) {
    ctx.stdout.write(`${JSON.stringify({ daemons: [...answers, ...silent] })}\n`);
  } else {
    const blocks = answers.map((a) => ('status' in a && a.status ? formatStatus(a.status as StatusResult) : safeLine(`daemon pid ${a.pid} (${a.socket}): no status: ${'error' in a ? a.error : ''}`)));
    for (const s of silent) blocks.push(safeLine(`daemon at ${s.socket}: no status: ${s.error}`));
    ctx.stdout.write(`${blocks.join('\n\n')}\n`);
  }
  return silent.length === 0 && answers.every((a) => 'status' in a) ? 0 : 1;
}
