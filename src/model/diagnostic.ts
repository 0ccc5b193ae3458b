// Problems found while reading input: where they are and what to do about them.

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
export function formatPlace(d: Pick<Diagnostic, 'file' | 'pointer' | 'line' | 'column'>): string {
  if (d.line !== undefined) return `${d.file}:${d.line}${d.column !== undefined ? `:${d.column}` : ''}`;
  if (d.pointer !== undefined) return `${d.file}#${d.pointer}`;
  return d.file;
}

export function formatDiagnostic(d: Diagnostic): string {
  const head = `${formatPlace(d)}: ${d.severity}: ${d.message}`;
  return d.hint ? `${head}\n  hint: ${d.hint}` : head;
}
