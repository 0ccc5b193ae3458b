// Public surface of the importers: files -> ImportOutcome. (Contract; implementation in progress.)
import type { ImportOutcome } from '../model/index.ts';

export interface ImportOptions {
  /** Spec name (already decided by the config). */
  readonly name: string;
  readonly collection: string;
  /** Allow http(s) `$ref`s. Default false. */
  readonly allowRemoteRefs?: boolean;
  /** Absolute folders besides the root file's folder tree that `$ref`s may read. */
  readonly allowRefsFrom?: readonly string[];
  /** Refuse files above this size before reading them whole. */
  readonly maxSpecBytes?: number;
}

/** Import one API description file. Never throws for bad input: failures come back as `{ ok: false }`. */
export declare function importSpec(file: string, options: ImportOptions): Promise<ImportOutcome>;
