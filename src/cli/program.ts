// The `svc` program: parses argv with cac, runs the matched command, maps failures to exit codes.
// Only wiring lives here; each command's code is loaded on demand (see commands.ts).
// The executable entry is main.ts; this module has no side effects so tests can call `runCli`.
import { readFileSync } from 'node:fs';
import { cac, type CAC } from 'cac';
import { COMMANDS } from './commands.ts';
import { safeText } from '../model/safe-text.ts';
import type { CommandContext } from './types.ts';

/** Exit codes: 0 fine, 1 the command ran and found/raised a problem, 2 the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const DEFAULT_CONFIG = 'svc.yaml';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

interface Io {
  readonly stdout: CommandContext['stdout'];
  readonly stderr: CommandContext['stderr'];
  readonly env: NodeJS.ProcessEnv;
}

function buildCli(io: Io, setExit: (code: number) => void): CAC {
  const cli = cac('svc');
  cli.option('-c, --config <file>', `Config file (default: $SVC_CONFIG, else ${DEFAULT_CONFIG} in the working folder)`);
  for (const entry of COMMANDS) {
    const command = cli.command(entry.usage, entry.describe);
    for (const [rawName, description, config] of entry.options ?? []) command.option(rawName, description, config);
    for (const example of entry.examples ?? []) command.example(example);
    command.action(async (...actionArgs: unknown[]) => {
      const options = actionArgs.pop() as Record<string, unknown>;
      const flagConfig = typeof options['config'] === 'string' ? options['config'] : undefined;
      const envConfig = io.env['SVC_CONFIG'] || undefined;
      const ctx: CommandContext = {
        args: cli.args,
        options,
        configFile: flagConfig ?? envConfig ?? DEFAULT_CONFIG,
        configExplicit: flagConfig !== undefined || envConfig !== undefined,
        stdout: io.stdout,
        stderr: io.stderr,
      };
      const mod = await entry.load();
      const code = await mod.run(ctx);
      if (typeof code === 'number') setExit(code);
    });
  }
  cli.help();
  cli.version(packageVersion());
  return cli;
}

/** Message for the user: our errors carry a hint; cac's usage errors are CACError. */
function describeError(error: unknown): { message: string; usage: boolean } {
  if (error instanceof Error) {
    const hint = (error as { hint?: unknown }).hint;
    const message = typeof hint === 'string' ? `${error.message}\n  hint: ${hint}` : error.message;
    return { message, usage: error.name === 'CACError' };
  }
  return { message: String(error), usage: false };
}

/**
 * Runs the CLI on `argv` (as in process.argv: node, script, ...args) and resolves to the exit code.
 * Never calls process.exit, so output is flushed and tests can call it in-process.
 */
export async function runCli(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  let exitCode = EXIT_OK;
  const cli = buildCli(io, (code) => (exitCode = code));
  try {
    cli.parse([...argv], { run: false });
    if (cli.options['help'] || cli.options['version']) return EXIT_OK;
    if (!cli.matchedCommand) {
      if (cli.args[0] !== undefined) {
        io.stderr.write(`svc: unknown command \`${cli.args[0]}\`\n  hint: run \`svc --help\` for the list of commands\n`);
        return EXIT_USAGE;
      }
      cli.outputHelp();
      return EXIT_OK;
    }
    await cli.runMatchedCommand();
    return exitCode;
  } catch (error) {
    const { message, usage } = describeError(error);
    // Error messages can quote a daemon's answer or a spec: no terminal control sequences.
    io.stderr.write(`svc: ${safeText(message)}\n`);
    if (process.env['SVC_DEBUG'] && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}
