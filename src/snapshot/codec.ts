// A spec's built state as bytes, and back: what a worker thread hands the daemon and what a
// snapshot file stores. Three parts:
// - core: JSON (which parses several times faster than v8.deserialize reads the same data) in
//   chunks, so it decodes a piece at a time: the spec's metadata, its endpoints with every schema
//   link replaced by a small number, its search index (`IndexImage`), and the link table (one
//   JSON string, parsed on first need). Everything a spec needs to be served, and nothing that
//   only a snapshot file or `svc update` needs: the worker hands it over first (`encodeCore`);
// - prints: the endpoints' change fingerprints, for `svc update`'s report;
// - detail: the parsed documents as JSON text cut into segments (segments.ts), one part per file
//   with its length and the sha256 of its segment table, read only when inspect or invoke follows
//   a schema, a segment at a time (see `detail.ts`).
// The last two (`encodeLate`) are made after the core is handed over, off the first answer's path.
// The daemon keeps the core's objects and never the documents.
import { createHash } from 'node:crypto';
import { type EntryFacts, type IndexImage, type IndexSource, type LeanPostings, type MiniHead, leanPostings, postingsIndex } from '../catalog/catalog.ts';
import type { Endpoint, ImportedSpec, SchemaLink } from '../model/index.ts';
import { Expander, type Loose, type SpecMeta, Table, shrink } from './endpoint-image.ts';
import { isSha256Hex, sha256 } from './hash.ts';
import { collectPlaces, linkNodesByFile, mapLinks } from './link-places.ts';
import { postingParts, readPostings } from './posting-form.ts';
import { PostingBytes } from './postings.ts';
import { encodeSegmented, segmentTableBytes } from './segments.ts';
import { ColdTexts, deflateCold } from './stored.ts';
import { CODEC_VERSION } from './codec-version.ts';

export { CODEC_VERSION };

export type { SpecMeta } from './endpoint-image.ts';

/** A link row: [file index, pointer] for a node inside a document, [file index, null, node] for one made by the importer. */
export type LinkRow = readonly [number, string] | readonly [number, null, unknown];


export interface CoreData {
  readonly v: number;
  readonly meta: SpecMeta;
  /** Endpoints with each `SchemaLink` replaced by `{ $link: n }` (a row of `links`). */
  readonly endpoints: readonly Endpoint[];
  /**
   * The link table as JSON bytes, parsed when a schema is first followed: a view into the core's
   * bytes (copy it to keep it; a spec served from a snapshot file reads it from there instead).
   */
  readonly links: Buffer;
  /** Where the link table sits within the core's bytes. */
  readonly linksOffset: number;
  /** The core's length in bytes. */
  readonly coreBytes: number;
  /** The index; its postings stay undecoded bytes until the first search that needs them. */
  readonly index: IndexImage;
  /** Those bytes (see `PostingBytes.keepInFile`), and where they sit within the core's bytes. */
  readonly postings: PostingBytes;
  readonly postingsOffset: number;
  /** sha256 hex of each file's bytes as read (same order as `meta.files`). */
  readonly digests: readonly string[];
  /** The catalogue's entry facts, when the encoder had them (see `EntryFacts`). */
  readonly facts?: EntryFacts;
  /** sha256 hex of the link table and of the postings' bytes, when the encoder wrote them (see `Head`). */
  readonly linksSha256?: string;
  readonly postingsSha256?: string;
  /**
   * The endpoints' parameters, request body contents and responses that hold a schema link, each
   * once (see `Expander.linkHolders`).
   */
  readonly linkHolders: readonly object[];
}

export interface DetailPart {
  readonly bytes: number;
  readonly sha256: string;
}

/** What is made after the core: the change fingerprints and the detail. */
export interface Late {
  /** Change fingerprints per endpoint (same order) as JSON bytes, for `svc update`'s report. */
  readonly prints: Buffer;
  readonly detail: Buffer;
  /** Byte length and sha256 of each file's part of the detail, in the spec's `files` order. */
  readonly parts: readonly DetailPart[];
}

export interface Encoded extends Late {
  readonly core: Buffer;
}

/**
 * Bytes of JSON per chunk of the core (endpoints, index postings): each chunk parses in a few
 * milliseconds, and the daemon yields between chunks, so decoding a 20,000-endpoint spec never
 * holds its thread long.
 */
const CHUNK_BYTES = 128 * 1024;

/** The core's first part: everything but the endpoints and the index postings. */
interface Head {
  readonly v: number;
  readonly meta: SpecMeta;
  readonly endpointCount: number;
  readonly digests: readonly string[];
  /** Parts of shared values (see `shared`), endpoint chunks and posting chunks. */
  readonly sharedChunks: number;
  readonly endpointChunks: number;
  readonly postingChunks: number;
  /** Byte length of each deflated block of the endpoints' cold fields (see stored.ts). */
  readonly coldBlocks: readonly number[];
  /** Strings endpoints repeat (parameter names and descriptions, tags, statuses...), by number. */
  readonly strings: readonly string[];
  /** The index without its postings; summaries as term numbers (see `summariesAsNumbers`). */
  readonly index: Omit<IndexImage, 'mini' | 'summaries'> & {
    readonly summaries: readonly (readonly (number | string)[] | null)[];
    /** MiniSearch's serialized form without what comes with the postings (see `postingsReader`). */
    readonly mini: Omit<Exclude<IndexImage['mini'], () => unknown>, 'index' | 'documentIds' | 'fieldLength'>;
  };
  /** The catalogue's entry facts (absent: the daemon works them out from the endpoints). */
  readonly facts?: EntryFacts;
  /**
   * sha256 hex of the link table and of the postings' bytes (per-document data and posting chunks),
   * which a spec served from its snapshot file reads from there again later: taken here, so a
   * start need not hash them (the core's own checksum covers these values).
   */
  readonly linksSha256?: string;
  readonly postingsSha256?: string;
}

/** Core, prints and detail of a freshly imported spec at once (see `encodeCore`, `encodeLate`). */
export function encodeSpec(
  spec: ImportedSpec,
  documents: (file: string) => unknown,
  index: IndexImage,
  prints: readonly string[],
  digests: readonly string[],
): Encoded {
  return { core: encodeCore(spec, documents, index, digests), ...encodeLate(spec, documents, prints) };
}

/**
 * The detail (each file's document as JSON, with its part's length and sha256) and the change
 * fingerprints. Throws when a document cannot be written as JSON (cyclic YAML aliases, hostile
 * depth): the spec is then served without a snapshot, its schemas read from the source files.
 */
export function encodeLate(spec: ImportedSpec, documents: (file: string) => unknown, prints: readonly string[]): Late {
  const texts = spec.files.map((f) => encodeSegmented(documents(f) ?? null));
  // A part's checksum covers its table; each segment has its own, checked when it is parsed.
  return { prints: Buffer.from(JSON.stringify(prints)), detail: Buffer.concat(texts), parts: texts.map((t) => ({ bytes: t.length, sha256: sha256(segmentTableBytes(t)!) })) };
}

/**
 * The core of a freshly imported spec (its documents still parsed, in `documents`): all it needs
 * to be served. Throws when an importer-made schema cannot be written as JSON: the caller then
 * keeps the spec the old way.
 */
export function encodeCore(spec: ImportedSpec, documents: (file: string) => unknown, index: IndexImage, digests: readonly string[], facts?: EntryFacts): Buffer {
  const files = spec.files;
  const fileIndex = new Map(files.map((f, i) => [f, i]));
  const places = new Map<string, Map<object, string>>();
  const wanted = linkNodesByFile(spec.endpoints);
  const placeIn = (file: string): Map<object, string> => {
    let map = places.get(file);
    if (!map) {
      map = new Map();
      const doc = documents(file);
      if (doc !== null && typeof doc === 'object') collectPlaces(doc as object, wanted.get(file) ?? new Set(), map);
      places.set(file, map);
    }
    return map;
  };
  const rows: LinkRow[] = [];
  // One row per place (or per node the importer made): links to the same schema are the same
  // number, so the parameters and responses that hold them can be shared values (see `shrink`).
  const placeRows = new Map<string, number>();
  const nodeRows = new Map<unknown, number>();
  const rowOf = (link: SchemaLink): { $link: number } => {
    const f = fileIndex.get(link.file) ?? -1;
    const node = link.node;
    // The importer's own pointer where it gave one; else the place a walk of the document finds.
    const pointer = f < 0 ? undefined : (link.pointer ?? (node !== null && typeof node === 'object' ? placeIn(link.file).get(node) : undefined));
    const key = pointer !== undefined ? `${f}\0${pointer}` : undefined;
    let row = key !== undefined ? placeRows.get(key) : nodeRows.get(node);
    if (row === undefined) {
      row = rows.length;
      rows.push(pointer !== undefined ? [f, pointer] : [f, null, node]);
      if (key !== undefined) placeRows.set(key, row);
      else if (node !== null && typeof node === 'object') nodeRows.set(node, row);
    }
    return { $link: row };
  };
  // A value the endpoints share is copied with its links as numbers once, and stays shared (see `Table.once`).
  const copies = new Map<object, object>();
  const endpoints = spec.endpoints.map((e) => mapLinks(e, rowOf, copies));
  const { endpoints: _e, schemas: _s, ...meta } = spec;
  // Per-document data goes with the postings (parsed on the first search): most specs of a large
  // catalogue are never searched, and as objects these cost about 100 bytes per endpoint.
  // Lean postings as the index holds them when it has them (a fresh build, a snapshot's), else made from MiniSearch's form.
  const source = index.mini as IndexSource;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the lean postings the index holds, or the same made lean from MiniSearch's form below: the same bytes
  const lean = typeof source === 'function' ? source.lean?.() : undefined;
  const data = lean ? undefined : typeof source === 'function' ? source() : source;
  const { documentIds, fieldLength, ...miniHead }: MiniHead = lean ? lean.head : withoutIndex(data!);
  const table = new Table();
  const endpointChunks = chunks(endpoints.map((e) => shrink(e, table)));
  // Values endpoints share (parameters, responses, servers...), by number: parts of their own,
  // parsed a part at a time (a spec of 20,000 endpoints shares megabytes of them).
  const sharedChunks = textChunks(table.shared);
  // The postings in the lean form the daemon searches them in (catalog/lean-mini.ts): loading them
  // is a copy of three arrays, not a parse of an object per posting.
  const postingChunks = postingParts(lean?.postings ?? leanPostings(data!.index, Object.keys(miniHead.fieldIds).length, miniHead.documentCount));
  const cold = deflateCold(endpoints);
  const head: Head = {
    v: CODEC_VERSION,
    meta,
    endpointCount: endpoints.length,
    digests,
    sharedChunks: sharedChunks.length,
    endpointChunks: endpointChunks.length,
    postingChunks: postingChunks.length,
    coldBlocks: cold.blocks,
    strings: table.strings,
    index: { ...index, summaries: summariesAsNumbers(index), mini: miniHead },
    ...(facts ? { facts } : {}),
  };
  const links = Buffer.from(JSON.stringify(rows, (_k, v: unknown) => (v === undefined ? null : v)));
  const perDocument = Buffer.from(JSON.stringify({ documentIds, fieldLength }));
  const postingsHash = createHash('sha256').update(perDocument);
  for (const chunk of postingChunks) postingsHash.update(chunk);
  const hashed: Head = { ...head, linksSha256: sha256(links), postingsSha256: postingsHash.digest('hex') };
  const parts = [Buffer.from(JSON.stringify(hashed)), links, cold.bytes, ...sharedChunks, ...endpointChunks, perDocument, ...postingChunks];
  // Framing: part count, each part's length (u32 LE), then the parts.
  const frame = Buffer.alloc(4 * (parts.length + 1));
  frame.writeUInt32LE(parts.length, 0);
  parts.forEach((p, i) => frame.writeUInt32LE(p.length, 4 * (i + 1)));
  return Buffer.concat([frame, ...parts]);
}

function withoutIndex(data: MiniData): MiniHead {
  const { index: _index, ...head } = data;
  return head;
}

/** Items as JSON arrays of about `CHUNK_BYTES` each. */
function chunks(items: readonly unknown[]): Buffer[] {
  return textChunks(items.map((item) => JSON.stringify(item)));
}

/** Items already written as JSON, as JSON arrays of about `CHUNK_BYTES` each. */
function textChunks(texts: readonly string[]): Buffer[] {
  const out: Buffer[] = [];
  let open: string[] = [];
  let size = 0;
  for (const text of texts) {
    open.push(text);
    size += text.length;
    // Stryker disable next-line EqualityOperator: where a chunk ends: chunks of any size decode the same
    if (size >= CHUNK_BYTES) {
      out.push(Buffer.from(`[${open.join(',')}]`));
      open = [];
      size = 0;
    }
  }
  // Stryker disable next-line EqualityOperator: an empty last chunk ([]) decodes to nothing, as no chunk does
  if (open.length > 0) out.push(Buffer.from(`[${open.join(',')}]`));
  return out;
}

/** The head's link-table and postings hashes, when it has well-formed ones. */
function hashesOf(h: Head): { linksSha256?: string; postingsSha256?: string } {
  return {
    ...(isSha256Hex(h.linksSha256) ? { linksSha256: h.linksSha256 } : {}),
    ...(isSha256Hex(h.postingsSha256) ? { postingsSha256: h.postingsSha256 } : {}),
  };
}

/**
 * Decodes a core (throws on bytes that are not one of this version), part by part, calling
 * `pause` between parts (the daemon lets other work in there).
 */
export async function decodeCore(bytes: Uint8Array, pause: () => Promise<void> = async () => {}): Promise<CoreData> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 4) throw new Error('spec image too short');
  const count = buf.readUInt32LE(0);
  // Stryker disable next-line EqualityOperator: a core of three parts is refused either way (it needs four at least: head, links, cold blocks, per-document data)
  if (count < 3 || 4 * (count + 1) > buf.length) throw new Error('spec image framing is wrong');
  let at = 4 * (count + 1);
  /** Part `i`'s bytes, within the core's buffer. */
  const slice = (i: number): Buffer => {
    const length = buf.readUInt32LE(4 * (i + 1));
    if (at + length > buf.length) throw new Error('spec image is cut short');
    const out = buf.subarray(at, at + length);
    at += length;
    return out;
  };
  // Parsed parts are read in place: a copy of each would only make garbage.
  const part = (i: number): unknown => JSON.parse(slice(i).toString('utf8')) as unknown;
  const head = part(0) as Partial<Head> | null;
  if (!head || head.v !== CODEC_VERSION || !head.meta || !head.index || typeof head.endpointCount !== 'number') {
    throw new Error('not a spec image of this version');
  }
  const sharedChunks = head.sharedChunks ?? -1;
  if (![sharedChunks, head.endpointChunks, head.postingChunks].every((n) => Number.isInteger(n) && n! >= 0)) throw new Error('spec image parts do not agree');
  if (count !== 4 + sharedChunks + (head.endpointChunks ?? -1) + (head.postingChunks ?? -1) || !Array.isArray(head.digests) || head.digests.length !== head.meta.files?.length) {
    throw new Error('spec image parts do not agree');
  }
  const linksOffset = at;
  const links = slice(1);
  // The cold fields stay deflated: a copy, so the core's buffer can go.
  const cold = new ColdTexts(Buffer.from(slice(2)), head.coldBlocks ?? [], head.endpointCount);
  const shared: unknown[] = [];
  for (let i = 3; i < 3 + sharedChunks; i++) {
    await pause();
    const items = part(i);
    if (!Array.isArray(items)) throw new Error('spec image part is not a list');
    for (const item of items) shared.push(item);
  }
  const endpoints: Endpoint[] = [];
  const expander = new Expander(head.strings ?? [], shared, head.meta, cold);
  const firstEndpoints = 3 + sharedChunks;
  for (let i = firstEndpoints; i < firstEndpoints + head.endpointChunks!; i++) {
    await pause();
    const items = part(i);
    if (!Array.isArray(items)) throw new Error('spec image part is not a list');
    for (const item of items) endpoints.push(expander.endpoint(item as Loose, endpoints.length));
  }
  // The postings stay as bytes until the first search that needs them: one copy of them all.
  const lengths: number[] = [];
  const from = at;
  for (let i = firstEndpoints + head.endpointChunks!; i < count; i++) lengths.push(slice(i).length);
  // A buffer of their own (not a slice of Node's shared pool): dropped when kept in the file, they free their memory.
  const postingsCopy = Buffer.allocUnsafeSlow(at - from);
  buf.copy(postingsCopy, 0, from, at);
  const postings = new PostingBytes(postingsCopy);
  if (at !== buf.length) throw new Error('spec image has trailing bytes');
  if (head.endpointCount !== endpoints.length) throw new Error('spec image parts do not agree');
  const h = head as Head;
  const mini = postingsReader(h.index.mini, postings, lengths);
  const summaries = summariesAsTerms(h.index.summaries, h.index.terms);
  return {
    v: h.v,
    meta: h.meta,
    endpoints,
    links,
    linksOffset,
    coreBytes: buf.length,
    index: { ...h.index, summaries, mini },
    postings,
    postingsOffset: from,
    digests: h.digests,
    ...(h.facts ? { facts: h.facts } : {}),
    ...hashesOf(h),
    linkHolders: expander.linkHolders,
  };
}

type MiniData = Exclude<IndexImage['mini'], () => unknown>;

/**
 * The postings, with the documents' ids and field lengths (the first part), read when MiniSearch
 * is first loaded (the first search reaching this spec): in the lean form (`lean`), or as
 * MiniSearch's serialized form (the call itself, for what needs that form). A function of its own,
 * not a closure inside `decodeCore`: closures share their function's context, so one made there
 * would keep the whole core's buffer alive until that first search.
 */
function postingsReader(miniHead: Head['index']['mini'], postings: PostingBytes, lengths: readonly number[]): (() => MiniData) & { lean(): { head: MiniHead; postings: LeanPostings } | undefined } {
  const lean = (): { head: MiniHead; postings: LeanPostings } | undefined => {
    const bytes = postings.read();
    if (!bytes) return undefined;
    if (lengths.length !== 3) throw new Error('spec image postings do not agree');
    const [documents, terms, numbers] = lengths as [number, number, number];
    const perDocument = JSON.parse(bytes.toString('utf8', 0, documents)) as Pick<MiniData, 'documentIds' | 'fieldLength'>;
    const termList = JSON.parse(bytes.toString('utf8', documents, documents + terms)) as unknown;
    const lean = readPostings(termList, bytes.subarray(documents + terms, documents + terms + numbers));
    return { head: { ...miniHead, documentIds: perDocument.documentIds, fieldLength: perDocument.fieldLength } as MiniHead, postings: lean };
  };
  const whole = (): MiniData => {
    const read = lean();
    return read ? ({ ...read.head, index: postingsIndex(read.postings) } as MiniData) : postings.rebuild();
  };
  return Object.assign(whole, { lean });
}

/**
 * Each summary's terms as their number in the index's term list (a term the list lacks stays
 * text): decoded, every summary holds the term list's own strings, not a copy of each per summary.
 */
function summariesAsNumbers(index: IndexImage): (readonly (number | string)[] | null)[] {
  // Stryker disable next-line ArrayDeclaration: memory only: without the numbers every summary keeps its terms as text, decoded to the same strings
  const numbers = new Map(index.terms.map((t, i) => [t, i]));
  return index.summaries.map((s) => (s ? s.map((t) => numbers.get(t) ?? t) : null));
}

function summariesAsTerms(summaries: readonly (readonly (number | string)[] | null)[], terms: readonly string[]): (readonly string[] | null)[] {
  if (!Array.isArray(summaries) || !Array.isArray(terms)) throw new Error('spec image index is not shaped right');
  return summaries.map((s) => {
    if (s === null) return null;
    if (!Array.isArray(s)) throw new Error('spec image index is not shaped right');
    return s.map((t) => {
      const term = typeof t === 'number' ? terms[t] : t;
      if (typeof term !== 'string') throw new Error('spec image summary names a term it does not hold');
      return term;
    });
  });
}
