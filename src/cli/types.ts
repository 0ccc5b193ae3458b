// What every command receives and returns. Kept free of heavy imports: main.ts loads it eagerly.

/** Everything a command needs from the command line, already parsed. */
export interface CommandContext {
  /** Positional arguments after the command name. */
  readonly args: readonly string[];
  /** Options, camelCased by cac (`--max-bytes` -> `maxBytes`). */
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * The config file to use: `--config`, else `$SVC_CONFIG`, else `svc.yaml` in the working folder.
   * Not checked for existence: commands decide whether a missing file is an error.
   */
  readonly configFile: string;
  /** True when the user named the config (flag or env), so a missing file is an error rather than "no config". */
  readonly configExplicit: boolean;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * A command's implementation module (loaded lazily, only when that command runs).
 * Returns the process exit code; `undefined` means 0 (or: leave it to the command, e.g. a server that keeps running).
 */
export interface CommandModule {
  run(ctx: CommandContext): Promise<number | void>;
}

/** `[rawName, description, config?]`, as cac's `command.option` takes them. */
export type OptionSpec = readonly [rawName: string, description: string, config?: { default?: unknown; type?: unknown[] }];

/** One line in the command table (src/cli/commands.ts). */
export interface CommandEntry {
  /** cac usage: `name <required> [optional] [...variadic]`. */
  readonly usage: string;
  readonly describe: string;
  readonly options?: readonly OptionSpec[];
  readonly examples?: readonly string[];
  /** Dynamic import of the implementation, so other commands never pay for (or load) it. */
  readonly load: () => Promise<CommandModule>;
}
