// A spec rebuilt from its core (codec.ts), with schemas read lazily. The daemon holds endpoints
// and the index; the documents a schema link points into are read from the snapshot file (or a
// buffer when no snapshot could be written) when inspect or invoke first follows a link, each a
// segment at a time (segments.ts: one schema never parses a whole document), and only a few
// specs' documents are kept at a time.
// A detail part whose bytes do not match the digest its snapshot recorded is not used: the source
// file is read instead, if it still holds the bytes the spec was imported from. Otherwise the link
// says what is missing rather than serve something else. A spec fresh from the import worker is
// served before its detail is made (`settleDetail` gives it when it comes); a schema followed in
// between is read from the source files the same way.
import { closeSync, readFileSync } from 'node:fs';
import { type IndexImage, indexImage } from '../catalog/catalog.ts';
import type { Endpoint, ImportedSpec, SchemaLink } from '../model/index.ts';
import type { ResolvedSchema, SchemaResolver } from '../model/spec.ts';
import { DocumentSet } from '../import/documents.ts';
import { joinPointer, lookupPointer } from '../import/pointer.ts';
import { decodeUtf8, parseText } from '../import/read.ts';
import { DocumentSchemaResolver } from '../import/schemas.ts';
import type { CoreData, DetailPart, LinkRow } from './codec.ts';
import { sha256, sha256Steps } from './hash.ts';
import { readAt, tryOpen } from './file-region.ts';
import { type PartReader, decodeSegmented, segmentTableBytes } from './segments.ts';

/**
 * Where a spec's detail bytes are, with each file's part: a snapshot file (whose core starts at
 * `coreOffset`), or memory (no snapshot file could be written).
 */
export type DetailSource =
  | { readonly file: string; readonly coreOffset: number; readonly detailOffset: number; readonly parts: readonly DetailPart[] }
  | { readonly bytes: Buffer; readonly parts: readonly DetailPart[] };

/** How many specs keep their documents parsed (most recently used first). */
const KEPT_PARSED = 3;
const parsed: SpecDetail[] = [];

/**
 * The link table: in memory, or (a spec served from a snapshot file) where it sits in that file,
 * with the sha256 its bytes had when the spec was loaded.
 */
type LinkSource = { readonly bytes: Buffer } | { readonly file: string; readonly offset: number; readonly length: number; readonly sha256: string };

/** What a link reads as when the link table cannot be read again (the snapshot file changed or went). */
const LINKS_GONE: LinkRow = [0, null, { $unresolved: '', reason: 'the snapshot file changed since this spec was loaded; run svc update' }];

class SpecDetail {
  readonly #digests: readonly string[];
  #links: LinkSource;
  readonly #files: readonly string[];
  /** Undefined until the worker has made the detail (see `settle`). */
  #source: DetailSource | undefined;
  /** Parsed link table; null when it could not be read again. */
  #rows: readonly LinkRow[] | null | undefined;
  #docs: Map<string, unknown> | undefined;
  #resolver: DocumentSchemaResolver | undefined;

  /** `linksSha256`: the link table's, when served from a snapshot file (see `specSteps`). */
  constructor(core: CoreData, source: DetailSource | undefined, linksSha256?: string) {
    this.#digests = core.digests;
    // Served from a snapshot file, the link table stays there (inside the core) and is read when
    // a schema is first followed; otherwise a copy stays in memory.
    this.#links =
      source && 'file' in source
        ? // Stryker disable next-line LogicalOperator: specSteps always passes the hash for a file source (the core's, or one it made), the same as hashing here
          { file: source.file, offset: source.coreOffset + core.linksOffset, length: core.links.length, sha256: linksSha256 ?? sha256(core.links) }
        : { bytes: Buffer.from(core.links) };
    this.#linksOffset = core.linksOffset;
    this.#files = core.meta.files;
    this.#source = source;
  }

  readonly #linksOffset: number;

  /**
   * The detail, made after the spec was served. Saved in a snapshot file, the link table is read
   * from there from now on (the copy in memory goes); the spec's postings likewise (`keepPostings`).
   */
  settle(source: DetailSource): void {
    this.#source = source;
    const links = this.#links;
    if ('file' in source && 'bytes' in links) {
      this.#links = { file: source.file, offset: source.coreOffset + this.#linksOffset, length: links.bytes.length, sha256: sha256(links.bytes) };
      this.#rows = undefined;
    }
  }

  fileOf(row: number): string {
    const f = this.#row(row)[0];
    return this.#files[f] ?? this.#files[0] ?? '';
  }

  nodeOf(row: number): unknown {
    const r = this.#row(row);
    if (r[1] === null) return r[2];
    const docs = this.#documents();
    const doc = docs.get(this.#files[r[0]]!);
    if (doc === undefined) return { $unresolved: r[1], reason: 'the document could not be read again; run svc update' };
    const found = lookupPointer(doc, r[1]);
    return found.found ? found.value : { $unresolved: r[1], reason: 'not found in the document; run svc update' };
  }

  resolver(): DocumentSchemaResolver {
    this.#documents();
    return this.#resolver!;
  }

  #row(row: number): LinkRow {
    if (this.#rows === undefined) {
      const links = this.#links;
      let bytes: Buffer | undefined;
      if ('bytes' in links) bytes = links.bytes;
      else {
        const fd = tryOpen(links.file);
        try {
          bytes = readAt(fd, links.offset, links.length);
        } finally {
          if (fd !== undefined) closeSync(fd);
        }
        if (bytes && sha256(bytes) !== links.sha256) bytes = undefined;
      }
      this.#rows = bytes ? (JSON.parse(bytes.toString('utf8')) as LinkRow[]) : null;
    }
    if (this.#rows === null) return LINKS_GONE;
    return this.#rows[row] ?? [0, null, null];
  }

  #documents(): Map<string, unknown> {
    const at = parsed.indexOf(this);
    // Stryker disable next-line EqualityOperator,BlockStatement: which spec is dropped first (least or first used): a dropped spec reads its documents again, the same
    if (at > 0) {
      parsed.splice(at, 1);
      parsed.unshift(this);
    }
    if (this.#docs) return this.#docs;
    const docs = new Map<string, unknown>();
    const source = this.#source;
    let offset = source && 'file' in source ? source.detailOffset : 0;
    this.#files.forEach((file, i) => {
      const part = source?.parts[i];
      let doc: unknown;
      if (source && part) {
        const from = offset;
        const read: PartReader =
          'bytes' in source
            ? (at, length) => (at + length <= part.bytes ? source.bytes.subarray(from + at, from + at + length) : undefined)
            : (at, length) => (at + length <= part.bytes ? this.#readFile(source.file, from + at, length) : undefined);
        doc = segmented(read, part, file, this.#digests[i]);
        offset += part.bytes;
      } else doc = fromSource(file, this.#digests[i]);
      if (doc !== undefined) docs.set(file, doc);
    });
    this.#docs = docs;
    this.#resolver = new DocumentSchemaResolver(docs.size > 0 ? DocumentSet.fromDocs(docs) : DocumentSet.fromDocs(new Map([[this.#files[0] ?? '', {}]])));
    parsed.unshift(this);
    // Only a few specs keep their documents parsed: the rest are read again when next needed.
    for (const old of parsed.splice(KEPT_PARSED)) old.#drop();
    return docs;
  }

  /**
   * Reads the snapshot file through one descriptor, open while the documents are kept (a schema
   * reads tens of segments): a file replaced since reads as the one opened, whose segments'
   * checksums still hold.
   */
  #readFile(file: string, offset: number, length: number): Buffer | undefined {
    this.#fd ??= tryOpen(file);
    try {
      return readAt(this.#fd, offset, length);
    }
    // Stryker disable next-line BlockStatement: an empty catch returns undefined all the same
    catch {
      return undefined;
    }
  }

  #fd: number | undefined;

  #drop(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#docs = undefined;
    this.#resolver = undefined;
    // A link table on disk is read again when next needed.
    if (!('bytes' in this.#links)) this.#rows = undefined;
  }
}

/**
 * A file's document from its detail part, each segment parsed when first reached (see
 * segments.ts). A part whose table does not match its checksum is not used, nor is a segment
 * that does not match its own: the source file stands in for it, if it still holds the bytes the
 * spec was built from, else the place says what is missing.
 */
function segmented(read: PartReader, part: DetailPart, file: string, digest: string | undefined): unknown {
  const table = segmentTableBytes(read);
  const whole = table && sha256(table) === part.sha256 ? decodeSegmented(table, part.bytes, read, damagedPlace(file, digest)) : undefined;
  return whole === undefined ? fromSource(file, digest) : whole;
}

/** What stands at a place whose segment is damaged: the source file's node there (the file parsed once), or a note. */
function damagedPlace(file: string, digest: string | undefined): (tokens: readonly (string | number)[]) => unknown {
  let source: { doc: unknown } | undefined;
  return (tokens) => {
    source ??= { doc: fromSource(file, digest) };
    let node = source.doc;
    for (const t of tokens) {
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, t)) {
        return { $unresolved: joinPointer('', ...tokens), reason: 'the snapshot is damaged and the file changed since; run svc update' };
      }
      node = (node as Record<string | number, unknown>)[t];
    }
    return node;
  };
}

/** The source file parsed again, if it still holds the bytes the spec was built from. */
function fromSource(file: string, digest: string | undefined): unknown {
  try {
    const bytes = readFileSync(file);
    if (digest === undefined || sha256(bytes) !== digest) return undefined;
    const result = parseText(decodeUtf8(bytes));
    return result.ok ? result.value : undefined;
  }
  // Stryker disable next-line BlockStatement: an empty catch returns undefined all the same
  catch {
    return undefined;
  }
}

/** A schema link whose node is read when first asked for. */
class LazyLink implements SchemaLink {
  readonly #detail: SpecDetail;
  readonly #row: number;

  constructor(detail: SpecDetail, row: number) {
    this.#detail = detail;
    this.#row = row;
  }

  get file(): string {
    return this.#detail.fileOf(this.#row);
  }

  get node(): unknown {
    return this.#detail.nodeOf(this.#row);
  }
}

class LazySchemas implements SchemaResolver {
  readonly #detail: SpecDetail;

  constructor(detail: SpecDetail) {
    this.#detail = detail;
  }

  resolve(link: SchemaLink, options?: { maxDepth?: number }): ResolvedSchema {
    return this.#detail.resolver().resolve(link, options);
  }

  shallow(link: SchemaLink): SchemaLink {
    return this.#detail.resolver().shallow(link);
  }
}

/**
 * The spec a core describes. The spec name, collection and source file every endpoint repeats
 * are shared (see codec.ts), and so are equal parameters, responses and request bodies (one
 * object each, read-only like every endpoint).
 */
export function specFromCore(core: CoreData, source: DetailSource | undefined): ImportedSpec {
  const steps = specSteps(core, source);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** `specFromCore`, awaiting `pause` every few thousand endpoints (the daemon answers others meanwhile). */
export async function specFromCoreInSteps(core: CoreData, source: DetailSource | undefined, pause: () => Promise<void>): Promise<ImportedSpec> {
  const steps = specSteps(core, source);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await pause();
  }
}

/** Link holders linked per step of `specSteps`. */
const LINK_STEP = 2000;

function* specSteps(core: CoreData, source: DetailSource | undefined): Generator<void, ImportedSpec> {
  // Served from a snapshot file, the link table and the postings are read from there again when
  // first needed, checked against their sha256 now: hashed a megabyte per step (a large spec's are megabytes).
  const inFile = source !== undefined && 'file' in source;
  // A core that holds their hashes (see codec.ts `Head`) saves hashing them here.
  const linksSha = inFile ? (core.linksSha256 ?? (yield* sha256Steps(core.links))) : undefined;
  const postingsBytes = inFile && core.postingsSha256 === undefined ? core.postings.read() : undefined;
  const postingsSha = inFile ? (core.postingsSha256 ?? (postingsBytes ? yield* sha256Steps(postingsBytes) : undefined)) : undefined;
  const detail = new SpecDetail(core, source, linksSha);
  // Parameters and responses are shared between endpoints (see codec.ts): the first endpoint that
  // holds one swaps its link, the next ones find it done. One link object per row.
  const lazy = new Map<number, LazyLink>();
  const link = (x: unknown): SchemaLink => {
    if (x instanceof LazyLink) return x;
    const row = (x as { $link: number }).$link;
    let made = lazy.get(row);
    if (!made) lazy.set(row, (made = new LazyLink(detail, row)));
    return made;
  };
  const meta = core.meta;
  const endpoints = core.endpoints as Endpoint[];
  let n = 0;
  // The decoder kept each holder once (see `CoreData.linkHolders`).
  for (const h of core.linkHolders as { schema: unknown }[]) {
    if (++n % LINK_STEP === 0) yield;
    h.schema = link(h.schema);
  }
  const spec: ImportedSpec = { ...meta, endpoints, schemas: new LazySchemas(detail) };
  // Served from a snapshot file, the index's postings stay there until a first search needs them.
  if (source && 'file' in source) core.postings.keepInFile(source.file, source.coreOffset + core.postingsOffset, rebuilder(spec), postingsSha);
  else if (!source) PENDING.set(spec, { detail, postings: core.postings, postingsOffset: core.postingsOffset, ...(core.postingsSha256 ? { postingsSha256: core.postingsSha256 } : {}) });
  return spec;
}

/** Specs served before their detail was made (`specFromCore` without a source), until `settleDetail`. */
const PENDING = new WeakMap<ImportedSpec, { detail: SpecDetail; postings: CoreData['postings']; postingsOffset: number; postingsSha256?: string }>();

/**
 * Gives a spec served before its detail was made (`specFromCore` without a source) that detail.
 * Saved in a snapshot file, its link table and index postings are read from there from now on.
 * Does nothing for any other spec.
 */
export function settleDetail(spec: ImportedSpec, source: DetailSource): void {
  const pending = PENDING.get(spec);
  if (!pending) return;
  PENDING.delete(spec);
  pending.detail.settle(source);
  if ('file' in source) pending.postings.keepInFile(source.file, source.coreOffset + pending.postingsOffset, rebuilder(spec), pending.postingsSha256);
}

/**
 * The index of `spec` made again from its endpoints. A function of its own: a closure made in
 * `specFromCore` would share its context, and keep the link map made there alive with the spec.
 */
function rebuilder(spec: ImportedSpec): () => MiniIndexData {
  return () => {
    const mini = indexImage(spec).mini;
    return typeof mini === 'function' ? mini() : mini;
  };
}

type MiniIndexData = Exclude<IndexImage['mini'], () => unknown>;
