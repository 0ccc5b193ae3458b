// A parsed document as JSON in segments, so that following one schema parses only the pieces on
// its way rather than the whole document (Stripe's takes about 80 ms to parse whole: a stall for
// every other caller of the daemon). A subtree whose JSON passes 4 KB (or that would
// make its parent's piece pass 32 KB) is cut out into a segment of its own and left as a
// placeholder in its parent; reading the document back parses the root segment, and a cut-out
// subtree is parsed when its property is first read (a getter that then turns into the value), so
// code that walks the document (pointer look-ups, the schema resolver, spreads, JSON.stringify)
// sees the same data.
//
// Layout: u32 table length | table (JSON) | segments. The table lists per segment its byte length
// and a sha256 of its bytes (checked when it is read); the root is the last segment. A segment is
// one line of JSON saying where its cut-out children sit in it (`[child, ...tokens]`), then its
// text. Where the children sit is kept out of the text, so no key or value of a document can be
// taken for a placeholder.
import { createHash } from 'node:crypto';

/** Where subtrees are cut out (characters of JSON). */
export interface SegmentLimits {
  /** A subtree whose JSON is longer than this becomes a segment of its own. */
  readonly segment: number;
  /** A segment's own text stays about this size at most: past it, smaller children are cut out too. */
  readonly piece: number;
  /** Children shorter than this stay inline even in a large piece (a placeholder is not much shorter). */
  readonly tiny: number;
}

export const SEGMENT_LIMITS: SegmentLimits = { segment: 4 * 1024, piece: 32 * 1024, tiny: 48 };

type Tokens = readonly (string | number)[];
/** Per segment: byte length and sha256 (hex, first 32 digits). */
type TableRow = readonly [bytes: number, sha: string];
/** A cut-out child and where it sits in its segment. */
type Cut = readonly [number, ...Tokens];

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

/** What one subtree wrote: its text, with the children cut out of it and where they sit (relative to it). */
interface Written {
  readonly text: string;
  readonly cut: Cut[];
}

/**
 * `doc` as segmented JSON (see above). Throws as `JSON.stringify` would not, on a cycle (a YAML
 * alias that contains itself) and on nesting too deep for the stack: the caller keeps the
 * document some other way.
 */
export function encodeSegmented(doc: unknown, limits: SegmentLimits = SEGMENT_LIMITS): Buffer {
  const segments: Buffer[] = [];
  const rows: TableRow[] = [];
  const active = new Set<object>();
  const segment = (w: Written): number => {
    // JSON.stringify writes no line break: the first one ends the list of children.
    const bytes = Buffer.from(`${JSON.stringify(w.cut)}\n${w.text}`);
    segments.push(bytes);
    rows.push([bytes.length, digest(bytes)]);
    return rows.length - 1;
  };
  const write = (node: unknown): Written => {
    if (node === null || typeof node !== 'object') return { text: JSON.stringify(node) ?? 'null', cut: [] };
    // Stryker disable next-line ConditionalExpression,EqualityOperator: an object without a prototype or of a class is written as the same JSON whether walked or written whole (only where it could be cut differs)
    const plain = Array.isArray(node) || Object.getPrototypeOf(node) === Object.prototype || Object.getPrototypeOf(node) === null;
    if (!plain) return { text: JSON.stringify(node), cut: [] };
    // Most nodes hold only strings and numbers: JSON.stringify writes those whole, much faster.
    if (flat(node)) return { text: JSON.stringify(node), cut: [] };
    if (active.has(node)) throw new TypeError('Converting circular structure to JSON');
    active.add(node);
    const cut: Cut[] = [];
    const parts: string[] = [];
    let size = 0;
    const child = (key: string | number, value: unknown): string => {
      const w = write(value);
      const length = w.text.length;
      if (length > limits.segment || (size + length > limits.piece && length > limits.tiny)) {
        cut.push([segment(w), key]);
        return '0';
      }
      for (const [n, ...tokens] of w.cut) cut.push([n, key, ...tokens]);
      return w.text;
    };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const text = child(i, node[i] === undefined || typeof node[i] === 'function' ? null : node[i]);
        parts.push(text);
        size += text.length + 1;
      }
      active.delete(node);
      return { text: `[${parts.join(',')}]`, cut };
    }
    for (const key of Object.keys(node)) {
      const value = (node as Record<string, unknown>)[key];
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      const text = `${JSON.stringify(key)}:${child(key, value)}`;
      parts.push(text);
      size += text.length + 1;
    }
    active.delete(node);
    return { text: `{${parts.join(',')}}`, cut };
  };
  segment(write(doc));
  const table = Buffer.from(JSON.stringify(rows));
  const lead = Buffer.alloc(4);
  lead.writeUInt32LE(table.length);
  return Buffer.concat([lead, table, ...segments]);
}

/** Reads `length` bytes at `offset` of a part (undefined when they cannot be read). */
export type PartReader = (offset: number, length: number) => Buffer | undefined;

/** True when no value of `node` is an object (so it has nothing to cut out, and no cycle). */
function flat(node: object): boolean {
  if (Array.isArray(node)) {
    for (const v of node) if (v !== null && typeof v === 'object') return false;
    return true;
  }
  for (const key in node) if (Object.hasOwn(node, key)) {
    const v = (node as Record<string, unknown>)[key];
    if (v !== null && typeof v === 'object') return false;
  }
  return true;
}

/** The bytes that say how the rest is cut: the lead and the table (what a snapshot's part checksum covers). */
export function segmentTableBytes(read: PartReader | Buffer): Buffer | undefined {
  const at = typeof read === 'function' ? read : (offset: number, length: number) => (offset + length <= read.length ? read.subarray(offset, offset + length) : undefined);
  const lead = at(0, 4);
  if (!lead || lead.length < 4) return undefined;
  const table = at(4, lead.readUInt32LE(0));
  return table ? Buffer.concat([lead, table]) : undefined;
}

/**
 * The document in a part `partBytes` long (from `encodeSegmented`), read with `read`, its segments
 * read and parsed as they are reached. `table` is the part's lead and table (`segmentTableBytes`),
 * whose checksum the caller has checked. `damaged(tokens)` gives what stands at a place whose
 * segment cannot be read or does not match its checksum. Undefined when the table is not one.
 */
export function decodeSegmented(table: Buffer, partBytes: number, read: PartReader, damaged: (tokens: Tokens) => unknown): unknown {
  let rows: TableRow[];
  try {
    rows = JSON.parse(table.subarray(4).toString('utf8')) as TableRow[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(rows) || rows.length === 0) return undefined;
  const offsets: number[] = [];
  let at = table.length;
  for (const row of rows) {
    if (!Array.isArray(row) || !Number.isSafeInteger(row[0]) || row[0] < 0 || typeof row[1] !== 'string') return undefined;
    offsets.push(at);
    at += row[0];
  }
  if (at !== partBytes) return undefined;
  return new Segments(read, rows, offsets, damaged).read(rows.length - 1, []);
}

class Segments {
  readonly #readBytes: PartReader;
  readonly #rows: readonly TableRow[];
  readonly #offsets: readonly number[];
  readonly #damaged: (tokens: Tokens) => unknown;

  constructor(read: PartReader, rows: readonly TableRow[], offsets: readonly number[], damaged: (tokens: Tokens) => unknown) {
    this.#readBytes = read;
    this.#rows = rows;
    this.#offsets = offsets;
    this.#damaged = damaged;
  }

  /** Segment `n`, which stands at `place` in the document. */
  read(n: number, place: Tokens): unknown {
    const row = this.#rows[n];
    const from = this.#offsets[n];
    if (row === undefined || from === undefined) return this.#damaged(place);
    const bytes = this.#readBytes(from, row[0]);
    if (!bytes || digest(bytes) !== row[1]) return this.#damaged(place);
    let value: unknown;
    let cut: Cut[];
    try {
      const text = bytes.toString('utf8');
      const line = text.indexOf('\n');
      cut = JSON.parse(text.slice(0, line)) as Cut[];
      value = JSON.parse(text.slice(line + 1));
    }
    // Stryker disable next-line BlockStatement: unreachable: a segment that matches its checksum is the JSON the encoder wrote
    catch {
      return this.#damaged(place);
    }
    if (!Array.isArray(cut)) return this.#damaged(place);
    for (const [child, ...tokens] of cut) {
      if (tokens.length === 0 || !(child < n)) return this.#damaged(place);
      let holder: unknown = value;
      for (const t of tokens.slice(0, -1)) holder = holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[t] : undefined;
      const key = tokens[tokens.length - 1]!;
      if (holder === null || typeof holder !== 'object' || !Object.hasOwn(holder, key)) return this.#damaged(place);
      this.#defer(holder as Record<string | number, unknown>, key, child, [...place, ...tokens]);
    }
    return value;
  }

  /** `holder[key]` reads segment `n` when first read, and is that value from then on. */
  #defer(holder: Record<string | number, unknown>, key: string | number, n: number, place: Tokens): void {
    Object.defineProperty(holder, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        const value = this.read(n, place);
        Object.defineProperty(holder, key, { value, enumerable: true, configurable: true, writable: true });
        return value;
      },
    });
  }
}
