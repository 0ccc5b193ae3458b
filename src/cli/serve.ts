// `svc serve [FILE...] [--transport stdio|http] [--host H] [--port N]`: the long-running MCP server.
// Flags override svc.yaml's `serve` keys. In stdio mode stdout carries MCP only; every human
// message goes to stderr.
import module from 'node:module';
import { configFromFiles, loadConfig, type Config } from '../config/index.ts';
import { bareHost } from '../model/host.ts';
import { SvcError } from '../model/errors.ts';
import { checkPortFree } from './port-check.ts';
import { safeText } from '../model/safe-text.ts';
import { handleShutdownSignals } from '../daemon/signals.ts';
import { removeSocketFile } from '../ipc/socket-file.ts';
import type { CommandContext } from './types.ts';
import { traceStep } from '../daemon/start-trace.ts';
import { saveCodeCache } from './code-cache.ts';

/** `--transport`, `--host` and `--port` over the config's serve section; bad values are usage errors. */
export function applyServeFlags(config: Config, options: Readonly<Record<string, unknown>>): Config {
  const serve = { ...config.serve };
  const transport = options['transport'];
  if (transport !== undefined) {
    if (transport !== 'stdio' && transport !== 'http' && transport !== 'sse') {
      throw new SvcError('bad-flag', `--transport must be stdio or http (sse is the older name of http), not "${String(transport)}"`);
    }
    serve.transport = transport === 'sse' ? 'http' : transport;
  }
  const host = options['host'];
  if (host !== undefined) {
    if (typeof host !== 'string' || host === '') throw new SvcError('bad-flag', '--host needs an address, e.g. 127.0.0.1');
    serve.host = bareHost(host);
  }
  const port = options['port'];
  if (port !== undefined) {
    // Digits only: Number() would read an empty value as 0 (any free port) and `0x50` as 80.
    const n = typeof port === 'number' ? port : typeof port === 'string' && /^\d+$/.test(port) ? Number(port) : Number.NaN;
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new SvcError('bad-flag', `--port must be a whole number from 0 to 65535, not "${String(port)}"`);
    serve.port = n;
  }
  return { ...config, serve };
}

export async function run(ctx: CommandContext): Promise<number> {
  traceStep('serve command loaded');
  // A log line that cannot be written (stderr on a full disk, a closed pipe) is dropped: without a
  // listener the stream's 'error' event would be thrown and take the daemon down with it.
  ctx.stderr.on('error', () => {});
  // `svc update` re-reads the config the same way it was first read (svc.yaml, or the FILE
  // arguments), svc.yaml with the daemon's reader (a large file off the main thread).
  const read = async (load: (file: string) => Promise<Config> = loadConfig): Promise<Config> =>
    applyServeFlags(ctx.args.length > 0 ? await configFromFiles(ctx.args) : await load(ctx.configFile), ctx.options);
  const config = await read();
  traceStep('config read');
  // Over HTTP, a port in use is said now, before the daemon's modules load and the specs import.
  if (config.serve.transport !== 'stdio') await checkPortFree(config.serve.host, config.serve.port);
  // The specs start loading now (the first one without a snapshot goes to the import worker), before
  // the rest of the daemon's modules load; startServe takes over what this began.
  const { beginStart } = await import('../daemon/start-early.ts');
  const early = beginStart(config);
  let startServe: typeof import('../daemon/serve.ts').startServe;
  try {
    ({ startServe } = await import('../daemon/serve.ts'));
  } catch (error) {
    await early.coldStart.pool.close();
    throw error;
  }
  const socket = typeof ctx.options['socket'] === 'string' ? ctx.options['socket'] : undefined;
  const daemon = await startServe({ config, early, reload: read, ...(socket !== undefined ? { socket } : {}), log: (line) => void ctx.stderr.write(`svc: ${safeText(line)}\n`) });
  // Node's compile cache (bin/svc.js) is written at exit; a daemon that is killed rather than
  // stopped would leave none, so write it once everything start-up needs is loaded: after the tool
  // calls that waited for the catalogue are answered (a cold start writes a few MB of it). The
  // installed script's code cache likewise, which also holds the functions those calls compiled.
  void daemon.ready.then(() =>
    setImmediate(() => {
      module.flushCompileCache?.();
      saveCodeCache();
    }),
  );
  // SIGTERM/SIGINT end the daemon within a second, also in the middle of an import.
  const socketPath = daemon.services?.socketPath;
  const unhandle = handleShutdownSignals({ close: () => daemon.close(), ...(socketPath ? { onForcedExit: () => removeSocketFile(socketPath) } : {}) });
  await daemon.closed;
  unhandle();
  // A stray handle (a keep-alive socket, a timer in a dependency) must not keep a finished server alive.
  setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
  return 0;
}
