// Tool errors: bad arguments or unknown names. They become `isError` results whose text says
// what was wrong and what to pass instead, so the model can correct itself on the next call.
import { SvcError } from '../model/errors.ts';

export class ToolInputError extends SvcError {
  constructor(code: string, message: string, hint?: string) {
    super(code, message, hint !== undefined ? { hint } : undefined);
  }
}
