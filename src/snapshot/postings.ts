// An index's postings until the first search that reaches its spec: most specs of a large
// catalogue are never searched, and their postings (about 200 bytes per endpoint as JSON) need
// not stay in memory when the snapshot file holds them. Read from there when first needed,
// checked against the sha256 they had at load; when the file no longer holds them (replaced by a
// later run), the index is built again from the spec's endpoints, which gives the same index.
import { createHash } from 'node:crypto';
import type { IndexImage } from '../catalog/catalog.ts';
import { readRegion } from './file-region.ts';

type MiniIndexData = Exclude<IndexImage['mini'], () => unknown>;

export class PostingBytes {
  #bytes: Buffer | undefined;
  #region: { readonly file: string; readonly offset: number; readonly length: number; readonly sha256: string } | undefined;
  #rebuild: (() => MiniIndexData) | undefined;

  /** `bytes`: the postings' own copy (the core's buffer must be free to go). */
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  get length(): number {
    return this.#bytes?.length ?? this.#region?.length ?? 0;
  }

  /**
   * The same bytes sit at `offset` in `file`: remember where (and their sha256) instead of the
   * bytes. `rebuild` makes them again, for when the file no longer holds them. `sha256`: theirs,
   * when the caller has it already.
   */
  keepInFile(file: string, offset: number, rebuild: () => MiniIndexData, sha256?: string): void {
    const bytes = this.#bytes;
    if (!bytes) return;
    this.#region = { file, offset, length: bytes.length, sha256: sha256 ?? createHash('sha256').update(bytes).digest('hex') };
    this.#rebuild = rebuild;
    this.#bytes = undefined;
  }

  /** The postings' bytes, from memory or from the snapshot file; undefined when the file no longer holds them. */
  read(): Buffer | undefined {
    if (this.#bytes) return this.#bytes;
    const region = this.#region!;
    const bytes = readRegion(region.file, region.offset, region.length);
    return bytes && createHash('sha256').update(bytes).digest('hex') === region.sha256 ? bytes : undefined;
  }

  /** The index made again from the spec (when `read` finds nothing). */
  rebuild(): MiniIndexData {
    if (!this.#rebuild) throw new Error('postings are gone and cannot be made again');
    return this.#rebuild();
  }
}
