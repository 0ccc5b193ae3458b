// Problems found while reading input: where they are and what to do about them.
import { safeLine } from './safe-text.ts';

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  readonly severity: Severity;
  /** Stable machine-readable code, e.g. `yaml-syntax`, `ref-missing`, `method-skipped`. */
  readonly code: string;
  readonly message: string;
  /** Absolute path of the file the problem is in. */
  readonly file: string;
  /** JSON pointer inside that file (`/paths/~1users/get`), when known. */
  readonly pointer?: string;
  /** 1-based line, when known. */
  readonly line?: number;
  readonly column?: number;
  /** What the user can do about it. */
  readonly hint?: string;
}

/** An operation the importer saw but did not turn into an endpoint (e.g. TRACE, custom Postman methods). */
export interface SkippedOperation {
  readonly method: string;
  readonly path: string;
  readonly reason: string;
  readonly pointer: string;
}

/** `file:line` or `file#/pointer`: how every diagnostic names its place. */
/** `file:line:column` or `file#pointer`, on one line (file names and pointers come from specs). */
export function formatPlace(d: Pick<Diagnostic, 'file' | 'pointer' | 'line' | 'column'>): string {
  if (d.line !== undefined) return safeLine(`${d.file}:${d.line}${d.column !== undefined ? `:${d.column}` : ''}`);
  if (d.pointer !== undefined) return safeLine(`${d.file}#${d.pointer}`);
  return safeLine(d.file);
}

/** A diagnostic as one line, and its hint as a second one; messages may quote spec text, so each is made safe. */
export function formatDiagnostic(d: Diagnostic): string {
  const head = `${formatPlace(d)}: ${d.severity}: ${safeLine(d.message)}`;
  return d.hint ? `${head}\n  hint: ${safeLine(d.hint)}` : head;
}
