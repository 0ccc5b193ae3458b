// The contract between the import dispatcher (src/import/index.ts) and each format's importer.
// An importer gets an already parsed document and returns endpoints; it never reads files itself
// except through what the dispatcher hands it, and reports problems through `warn`.
import type { Endpoint, Server } from '../model/endpoint.ts';
import type { SkippedOperation } from '../model/diagnostic.ts';
import type { SecurityScheme } from '../model/spec.ts';

export interface FormatContext {
  /** Absolute path of the root document. */
  readonly file: string;
  /** Spec name (for endpoint ids). */
  readonly spec: string;
  readonly collection: string;
  /** Report a non-fatal problem; `file` defaults to the root document. */
  warn(d: { code: string; message: string; pointer?: string; hint?: string; file?: string }): void;
}

export interface FormatResult {
  endpoints: Endpoint[];
  skipped: SkippedOperation[];
  webhooks: number;
  title?: string;
  version?: string;
  formatVersion?: string;
  servers: Server[];
  securitySchemes: Record<string, SecurityScheme>;
}
