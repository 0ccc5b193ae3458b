// Finding the daemons a command talks to: the ones serving the config (`--config`, SVC_CONFIG or
// ./svc.yaml), or the one on `--socket` / SVC_SOCKET. Light on purpose: only src/ipc is loaded.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { discover, type Discovery } from '../ipc/client.ts';
import { socketTarget, type SocketTarget } from '../ipc/paths.ts';
import { safeLine } from '../model/safe-text.ts';
import type { CommandContext } from './types.ts';

/** Exit status when no daemon answers (update, status and the mirrors). */
export const EXIT_NO_DAEMON = 2;

export interface Reached {
  readonly target: SocketTarget;
  readonly discovery: Discovery;
}

/**
 * `socket:` from svc.yaml, read with a line match rather than the full config loader: the file may
 * be mid-edit (that is when people run `svc update`), and a broken config must not hide the daemon.
 */
function configSocket(configFile: string): string | undefined {
  try {
    // Stryker disable next-line StringLiteral: the expression reads a Buffer as its UTF-8 text all the same
    const text = readFileSync(configFile, 'utf8');
    // A bare value is words separated by blanks; a `#` starts a comment only after a blank (YAML's rule); CRLF line ends.
    const m = /^socket:[ \t]*(?:"([^"]+)"|'([^']+)'|([^#\s]\S*(?:[ \t]+[^#\s]\S*)*))[ \t]*(?:#.*)?\r?$/m.exec(text);
    // Stryker disable next-line OptionalChaining: no match throws here instead, and the catch below answers undefined as well
    const value = m?.[1] ?? m?.[2] ?? m?.[3];
    return value ? resolve(dirname(configFile), value) : undefined;
  } catch {
    return undefined;
  }
}

export function targetFor(ctx: CommandContext): SocketTarget {
  const configFile = resolve(ctx.configFile);
  const socket = typeof ctx.options['socket'] === 'string' ? ctx.options['socket'] : undefined;
  const fromConfig = existsSync(configFile) ? configSocket(configFile) : undefined;
  return socketTarget({
    configFile,
    // Stryker disable next-line ConditionalExpression: socketTarget reads an undefined socket as none
    ...(socket !== undefined ? { socket } : {}),
    // Stryker disable next-line ConditionalExpression: and an undefined configSocket as none
    ...(fromConfig !== undefined ? { configSocket: fromConfig } : {}),
  });
}

/** The command that starts a daemon this command would find. */
export function startCommand(ctx: CommandContext, target: SocketTarget): string {
  const parts = ['svc serve'];
  if (ctx.configExplicit || ctx.configFile !== 'svc.yaml') parts.push(`--config ${quote(ctx.configFile)}`);
  if (target.kind === 'explicit' && target.source === '--socket') parts.push(`--socket ${quote(target.path)}`);
  return parts.join(' ');
}

/** A path as a shell word: bare when safe, else single-quoted. */
export function quote(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Finds the live daemons; on none, says so (with the command that starts one) and returns undefined. */
export async function reachDaemons(ctx: CommandContext): Promise<Reached | undefined> {
  const target = targetFor(ctx);
  const discovery = await discover(target);
  for (const removed of discovery.removed) ctx.stderr.write(`svc: removed stale socket ${removed} (its daemon is gone)\n`);
  for (const u of discovery.unresponsive) ctx.stderr.write(`svc: ${safeLine(`${u.socket}: a daemon is there but did not answer (${u.reason})`)}\n`);
  if (discovery.live.length === 0 && discovery.unresponsive.length > 0) {
    // A daemon is there: starting another would not help, and "no daemon" would mislead.
    ctx.stderr.write(
      `svc: no daemon serving ${resolve(ctx.configFile)} answered; ${discovery.unresponsive.length} did not (above)\n` +
        '  hint: a daemon busy for seconds is stuck or starved of CPU; if it stays so, stop it (its pid names its socket) and start another\n',
    );
    return undefined;
  }
  if (discovery.live.length === 0) {
    const where = target.kind === 'explicit' ? target.path : target.dir;
    ctx.stderr.write(
      `svc: no daemon is serving ${resolve(ctx.configFile)} (looked in ${where})\n` +
        `  hint: start one with \`${startCommand(ctx, target)}\` (or let your MCP client start it), then run this again\n`,
    );
    return undefined;
  }
  return { target, discovery };
}
