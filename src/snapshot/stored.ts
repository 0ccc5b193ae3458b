// Endpoints as a decoded core holds them. What no listing or search needs in memory, an endpoint's
// description (about 450 bytes of the 2.5 KB an endpoint cost) and where it sits in its file, is
// kept deflated, 16 endpoints to a block (about a fifth of the text's size), and inflated when
// asked for: by inspect, by a listing line of an endpoint without a summary, by a search that
// checks a candidate's description. Recently inflated blocks are kept, up to a bound.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type Endpoint, type HttpMethod, type Parameter, type RequestBody, type Response, type SecurityRequirement, type Server, type SourceLocation, endpointId } from '../model/index.ts';

/** Endpoints per block: one inflate (tens of microseconds) serves the block's neighbours too. */
export const COLD_BLOCK = 16;

/** An endpoint's cold fields: description, JSON pointer of its operation, line (null when absent). */
export type ColdRow = readonly [description: string | null, pointer: string, line: number | null];

/** A block inflates to at most this many bytes (a damaged core must not inflate without bound). */
const MAX_BLOCK_BYTES = 64 * 1024 * 1024;

/** Inflated blocks kept, across all specs (each about 16 descriptions). */
const KEPT_BLOCKS = 256;
const kept = new Map<string, readonly ColdRow[]>();
let nextId = 0;

/** The cold fields of `endpoints`, deflated in blocks: the bytes, and each block's length. */
export function deflateCold(endpoints: readonly Endpoint[]): { bytes: Buffer; blocks: number[] } {
  const parts: Buffer[] = [];
  for (let i = 0; i < endpoints.length; i += COLD_BLOCK) {
    const rows = endpoints.slice(i, i + COLD_BLOCK).map((e): ColdRow => [e.description ?? null, e.source.pointer, e.source.line ?? null]);
    parts.push(deflateRawSync(JSON.stringify(rows)));
  }
  return { bytes: Buffer.concat(parts), blocks: parts.map((p) => p.length) };
}

/** One spec's cold fields, deflated; rows are inflated a block at a time when asked for. */
export class ColdTexts {
  readonly #id = nextId++;
  readonly #bytes: Buffer;
  /** Where each block starts in `#bytes`; one more at the end. */
  readonly #starts: Uint32Array;
  readonly #count: number;

  /** `bytes`: the deflated blocks (kept: pass a copy of a larger buffer's part). */
  constructor(bytes: Buffer, blocks: readonly number[], count: number) {
    if (!Array.isArray(blocks) || blocks.length !== Math.ceil(count / COLD_BLOCK)) throw new Error('spec image cold blocks do not agree');
    const starts = new Uint32Array(blocks.length + 1);
    for (let b = 0; b < blocks.length; b++) {
      const length = blocks[b];
      if (!Number.isSafeInteger(length) || length! < 0) throw new Error('spec image cold blocks do not agree');
      starts[b + 1] = starts[b]! + length!;
    }
    if (starts[blocks.length] !== bytes.length) throw new Error('spec image cold blocks do not agree');
    this.#bytes = bytes;
    this.#starts = starts;
    this.#count = count;
  }

  /** Endpoint `n`'s cold fields. Throws when the block cannot be read (a damaged core). */
  row(n: number): ColdRow {
    if (!(n >= 0 && n < this.#count)) throw new Error(`no cold fields for endpoint ${n}`);
    const block = Math.floor(n / COLD_BLOCK);
    const key = `${this.#id}:${block}`;
    let rows = kept.get(key);
    if (rows) {
      // Most recently used last, so the first key is the one to drop.
      kept.delete(key);
    } else {
      rows = this.#inflate(block);
      if (kept.size >= KEPT_BLOCKS) kept.delete(kept.keys().next().value!);
    }
    kept.set(key, rows);
    return rows[n - block * COLD_BLOCK]!;
  }

  #inflate(block: number): readonly ColdRow[] {
    const bytes = this.#bytes.subarray(this.#starts[block], this.#starts[block + 1]);
    const rows = JSON.parse(inflateRawSync(bytes, { maxOutputLength: MAX_BLOCK_BYTES }).toString('utf8')) as unknown;
    const want = Math.min(COLD_BLOCK, this.#count - block * COLD_BLOCK);
    if (!Array.isArray(rows) || rows.length !== want || !rows.every(isColdRow)) throw new Error('spec image cold block is not shaped right');
    return rows as ColdRow[];
  }
}

function isColdRow(row: unknown): boolean {
  return (
    Array.isArray(row) &&
    row.length === 3 &&
    (row[0] === null || typeof row[0] === 'string') &&
    typeof row[1] === 'string' &&
    (row[2] === null || typeof row[2] === 'number')
  );
}

/** What a decoded endpoint holds itself: everything but its cold fields and its id. */
export type HotFields = Omit<Endpoint, 'description' | 'source' | 'id'>;

/**
 * An endpoint of a decoded core. Its description and source location are read from the spec's
 * cold blocks on access, and its id is made from its spec, method and path (as the importer made
 * it) unless it is another (a repeated method and path: `#2`); prototype getters, so an object
 * spread or `JSON.stringify` of it leaves them out: take them by name.
 */
export class StoredEndpoint implements Endpoint {
  spec: string;
  collection: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary?: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly parameters: readonly Parameter[];
  readonly requestBody?: RequestBody;
  readonly responses: readonly Response[];
  readonly servers: readonly Server[];
  readonly security?: readonly SecurityRequirement[];
  /** The id when it is not `spec:METHOD:path`. */
  readonly #id: string | undefined;
  readonly #file: string;
  readonly #cold: ColdTexts;
  readonly #n: number;

  constructor(hot: HotFields, id: string | undefined, file: string, cold: ColdTexts, n: number) {
    this.#id = id;
    this.spec = hot.spec;
    this.collection = hot.collection;
    this.method = hot.method;
    this.path = hot.path;
    this.summary = hot.summary;
    this.operationId = hot.operationId;
    this.tags = hot.tags;
    this.deprecated = hot.deprecated;
    this.parameters = hot.parameters;
    this.requestBody = hot.requestBody;
    this.responses = hot.responses;
    this.servers = hot.servers;
    this.security = hot.security;
    this.#file = file;
    this.#cold = cold;
    this.#n = n;
  }

  get id(): string {
    return this.#id ?? endpointId(this.spec, this.method, this.path);
  }

  get description(): string | undefined {
    return this.#cold.row(this.#n)[0] ?? undefined;
  }

  get source(): SourceLocation {
    const [, pointer, line] = this.#cold.row(this.#n);
    return line === null ? { file: this.#file, pointer } : { file: this.#file, pointer, line };
  }
}
