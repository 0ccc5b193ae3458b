// The read-only tools for people at a terminal (`svc search`, `svc inspect`, `svc list`): the same
// handlers and text an MCP client gets, asked of a running daemon over IPC.
import { IpcRemoteError, request } from '../ipc/client.ts';
import type { ToolMirrorResult } from '../ipc/protocol.ts';
import { safeLine, safeText } from '../model/safe-text.ts';
import { EXIT_NO_DAEMON, reachDaemons } from './daemons.ts';
import type { CommandContext } from './types.ts';

export async function mirror(ctx: CommandContext, method: 'search' | 'inspect' | 'list', params: Record<string, unknown>): Promise<number> {
  const reached = await reachDaemons(ctx);
  if (!reached) return EXIT_NO_DAEMON;
  // Every daemon of one config serves the same catalogue: ask the first.
  const daemon = reached.discovery.live[0]!;
  let result: ToolMirrorResult;
  try {
    result = await request(daemon.socket, method, params, { timeoutMs: 30_000 });
  } catch (error) {
    if (error instanceof IpcRemoteError) {
      ctx.stderr.write(`svc: ${safeLine(error.message)}${error.hint ? `\n  hint: ${safeLine(error.hint)}` : ''}\n`);
      return 1;
    }
    throw error;
  }
  if (ctx.options['json'] === true) ctx.stdout.write(`${JSON.stringify(result.structured ?? { text: result.text, isError: result.isError === true })}\n`);
  // The text came over the socket and quotes spec files: no terminal control sequences get through
  // (one-line fields are already one line; inspect's descriptions keep their line breaks).
  else (result.isError ? ctx.stderr : ctx.stdout).write(`${safeText(String(result.text))}\n`);
  return result.isError ? 1 : 0;
}

/** Options cac parsed, kept only when given, numbers as numbers. */
export function pick(options: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const v = options[name];
    if (v === undefined || v === false) continue;
    out[name] = name === 'limit' && typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'number' && name !== 'limit' ? String(v) : v;
  }
  return out;
}
