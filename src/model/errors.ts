// One error base class with string codes, `cause` kept, messages that name the thing and the place.

export class SvcError extends Error {
  readonly code: string;
  readonly hint?: string;
  constructor(code: string, message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = code;
    if (options?.hint !== undefined) this.hint = options.hint;
  }
}

/** A problem with svc.yaml; `key` is the dotted key path, `line` where it stands. */
export class ConfigError extends SvcError {
  readonly file: string;
  readonly problems: readonly ConfigProblem[];
  constructor(file: string, problems: readonly ConfigProblem[]) {
    super(
      'config-invalid',
      `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the config:\n` +
        problems.map((p) => `  ${p.line !== undefined ? `line ${p.line}, ` : ''}${p.key || '(top)'}: ${p.message}`).join('\n'),
    );
    this.file = file;
    this.problems = problems;
  }
}

export interface ConfigProblem {
  readonly key: string;
  readonly line?: number;
  readonly message: string;
}
