// Errors raised while preparing or sending a request. Each one says what went wrong, where,
// and what to do, so an LLM (or a person) can correct the call in one step.
import { SvcError } from '../model/errors.ts';

export type InvokeErrorCode =
  | 'invoke-invalid-args'
  | 'invoke-base-url'
  | 'invoke-write-refused'
  | 'invoke-origin-refused'
  | 'invoke-unsafe-value'
  | 'invoke-auth'
  | 'invoke-network'
  | 'invoke-timeout'
  | 'invoke-aborted';

export class InvokeError extends SvcError {
  declare readonly code: InvokeErrorCode;
  constructor(code: InvokeErrorCode, message: string, options?: { cause?: unknown; hint?: string }) {
    super(code, message, options);
  }
}

/** Arguments that do not fit the endpoint: missing, mistyped or unknown. */
export class InvalidArgumentsError extends InvokeError {
  readonly problems: readonly string[];
  constructor(message: string, problems: readonly string[]) {
    super('invoke-invalid-args', message);
    this.problems = problems;
  }
}

/** A write (non GET/HEAD/OPTIONS) that the spec's `writes` policy does not allow. */
export class WriteRefusedError extends InvokeError {
  constructor(message: string, hint?: string) {
    super('invoke-write-refused', message, { hint });
  }
}

/** A URL whose origin is not the spec's base URL origin nor one listed in svc.yaml. */
export class OriginRefusedError extends InvokeError {
  constructor(message: string, hint?: string) {
    super('invoke-origin-refused', message, { hint });
  }
}
