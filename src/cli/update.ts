// `svc update [--json]`: every daemon serving the config re-reads svc.yaml and the spec files and
// re-imports what changed. Exit 0 all imported, 1 some spec (or the config) failed and the old
// version keeps serving, or a daemon did not answer (not updated), 2 no daemon reachable.
import { request } from '../ipc/client.ts';
import { formatUpdate } from '../ipc/format.ts';
import type { UpdateProgress, UpdateResult } from '../ipc/protocol.ts';
import { EXIT_NO_DAEMON, quote, reachDaemons } from './daemons.ts';
import { Progress } from './progress.ts';
import { safeLine } from '../model/safe-text.ts';
import type { CommandContext } from './types.ts';

/** Big specs take a while to import; a daemon that stays silent this long is reported, not waited on. */
const UPDATE_TIMEOUT_MS = 10 * 60_000;

interface DaemonUpdate {
  readonly pid: number;
  readonly socket: string;
  /** The config the daemon serves (absolute). */
  readonly config: string;
  readonly result?: UpdateResult;
  readonly error?: { code: string; message: string };
}

export async function run(ctx: CommandContext): Promise<number> {
  const json = ctx.options['json'] === true;
  const started = performance.now();
  const reached = await reachDaemons(ctx);
  if (!reached) {
    if (json) ctx.stdout.write(`${JSON.stringify({ daemons: [], error: 'no-daemon' })}\n`);
    return EXIT_NO_DAEMON;
  }
  // Progress from the first daemon only: every daemon imports the same files.
  let progress: Progress | undefined;
  let doneSoFar = 0;
  const onProgress = (p: UpdateProgress): void => {
    if (json) return;
    progress ??= new Progress(ctx.stderr, p.total);
    if (p.file !== undefined) progress.start(safeLine(String(p.file)));
    else progress.finish();
    for (let i = 0; i < p.done - doneSoFar; i++) progress.done();
    doneSoFar = p.done;
  };
  const updates = await Promise.all(
    reached.discovery.live.map(async (d, i): Promise<DaemonUpdate> => {
      try {
        const result = await request(d.socket, 'update', {}, { timeoutMs: UPDATE_TIMEOUT_MS, ...(i === 0 ? { onProgress } : {}) });
        return { pid: d.ping.pid, socket: d.socket, config: d.ping.config, result };
      } catch (error) {
        const e = error as { code?: string; message?: string };
        return { pid: d.ping.pid, socket: d.socket, config: d.ping.config, error: { code: e.code ?? 'error', message: e.message ?? String(error) } };
      }
    }),
  );
  progress?.finish();
  const wallMs = Math.round((performance.now() - started) * 10) / 10;
  // A daemon whose socket accepts but that did not answer was not updated: listed, so that a script sees it.
  const silent = reached.discovery.unresponsive.map((u) => ({ socket: u.socket, error: { code: 'no-answer', message: `did not answer: ${u.reason}` } }));

  if (json) {
    ctx.stdout.write(`${JSON.stringify({ daemons: [...updates, ...silent], wallMs })}\n`);
  } else {
    const out: string[] = [];
    for (const u of updates) {
      out.push(`daemon pid ${u.pid}:`);
      if (u.result) out.push(formatUpdate(u.result, `svc check --config ${quote(u.config)}`));
      else out.push(safeLine(`  update failed: ${u.error?.message ?? 'unknown error'}`));
    }
    for (const s of silent) out.push(safeLine(`daemon at ${s.socket}: not updated: ${s.error.message}`));
    ctx.stdout.write(`${out.join('\n')}\n`);
  }
  return silent.length === 0 && updates.every((u) => u.result?.ok === true) ? 0 : 1;
}
