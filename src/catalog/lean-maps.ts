// MiniSearch's Maps over flat typed arrays, read side only: an index's postings (document ids and
// counts, term by term, field by field, documents ascending as loadJS iterates them), its document
// ids and its field lengths, behind objects with the few Map methods MiniSearch's search and toJSON
// call (`get`, `size`, `keys`, iteration). `Map`s of every posting were most of an index's heap
// (about 50 bytes per posting); lean-mini.ts loads an index with these in their place.
import type { MiniIndexData } from './lean-postings.ts';

type Ids = Uint16Array | Uint32Array;

/** The postings of one index: document ids and counts, term by term, field by field. */
export interface Store {
  readonly docs: Ids;
  readonly counts: Uint16Array | Uint32Array;
  /** Per term and field, where its postings start (`term * fields + field`); one more at the end. */
  readonly starts: Uint32Array;
  readonly fields: number;
}

/** One field's postings of one term, as the `Map<documentId, count>` MiniSearch expects (read side only). */
export class FieldPostings {
  readonly #store: Store;
  readonly #from: number;
  readonly #to: number;

  constructor(store: Store, from: number, to: number) {
    this.#store = store;
    this.#from = from;
    this.#to = to;
  }

  get size(): number {
    return this.#to - this.#from;
  }

  keys(): IterableIterator<number> {
    return this.#store.docs.subarray(this.#from, this.#to).values();
  }

  /** The count for `doc` (binary search: documents are ascending). */
  get(doc: number): number | undefined {
    const docs = this.#store.docs;
    let lo = this.#from;
    let hi = this.#to - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const d = docs[mid]!;
      if (d === doc) return this.#store.counts[mid];
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  has(doc: number): boolean {
    return this.get(doc) !== undefined;
  }

  /** Each document and its count, documents ascending (text-scores.ts: no iterator, no look-up per document). */
  scan(each: (doc: number, count: number) => void): void {
    const { docs, counts } = this.#store;
    for (let i = this.#from; i < this.#to; i++) each(docs[i]!, counts[i]!);
  }

  *entries(): IterableIterator<[number, number]> {
    const { docs, counts } = this.#store;
    for (let i = this.#from; i < this.#to; i++) yield [docs[i]!, counts[i]!];
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }
}

/** One term's postings, as the `Map<fieldId, Map<documentId, count>>` MiniSearch keeps in its radix tree. */
export class TermPostings {
  readonly #store: Store;
  readonly #term: number;

  constructor(store: Store, term: number) {
    this.#store = store;
    this.#term = term;
  }

  get(field: number): FieldPostings | undefined {
    const { starts, fields } = this.#store;
    if (!(field >= 0 && field < fields)) return undefined;
    const at = this.#term * fields + field;
    const from = starts[at]!;
    const to = starts[at + 1]!;
    return to > from ? new FieldPostings(this.#store, from, to) : undefined;
  }

  has(field: number): boolean {
    return this.get(field) !== undefined;
  }

  get size(): number {
    let n = 0;
    for (let f = 0; f < this.#store.fields; f++) if (this.get(f)) n++;
    return n;
  }

  *entries(): IterableIterator<[number, FieldPostings]> {
    for (let f = 0; f < this.#store.fields; f++) {
      const postings = this.get(f);
      if (postings) yield [f, postings];
    }
  }

  [Symbol.iterator](): IterableIterator<[number, FieldPostings]> {
    return this.entries();
  }
}

/** Short document ids 0..n-1 -> document ids, as the Map MiniSearch reads (`has`, `get`, iteration). */
export class DenseMap<V> {
  readonly #values: readonly V[];

  constructor(values: readonly V[]) {
    this.#values = values;
  }

  get size(): number {
    return this.#values.length;
  }

  has(key: number): boolean {
    return key >= 0 && key < this.#values.length;
  }

  get(key: number): V | undefined {
    return this.#values[key];
  }

  *keys(): IterableIterator<number> {
    for (let i = 0; i < this.#values.length; i++) yield i;
  }

  *values(): IterableIterator<V> {
    yield* this.#values;
  }

  *entries(): IterableIterator<[number, V]> {
    for (let i = 0; i < this.#values.length; i++) yield [i, this.#values[i]!];
  }

  [Symbol.iterator](): IterableIterator<[number, V]> {
    return this.entries();
  }
}

/**
 * Per short id, the document's field lengths, packed in one typed array (2 bytes a length where
 * an array per document took about 80 bytes). MiniSearch's search reads `get(id)[field]` at once
 * and keeps nothing, so `get` hands out one row it fills in place; iteration (`toJSON`) gets
 * copies.
 */
export class FieldLengths {
  readonly #lengths: Uint16Array | Uint32Array;
  readonly #fields: number;
  readonly #row: number[];

  private constructor(lengths: Uint16Array | Uint32Array, fields: number) {
    this.#lengths = lengths;
    this.#fields = fields;
    this.#row = new Array<number>(fields).fill(0);
  }

  /** From MiniSearch's serialized form (short ids 0..n-1, each row `fields` long). */
  static of(rows: MiniIndexData['fieldLength'], n: number, fields: number): FieldLengths {
    let max = 0;
    for (let i = 0; i < n; i++) for (const length of rows[i]!) max = Math.max(max, length);
    const lengths = max <= 0xffff ? new Uint16Array(n * fields) : new Uint32Array(n * fields);
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      for (let f = 0; f < fields; f++) lengths[i * fields + f] = row[f] ?? 0;
    }
    return new FieldLengths(lengths, fields);
  }

  get size(): number {
    return this.#lengths.length / this.#fields;
  }

  has(id: number): boolean {
    return id >= 0 && id < this.size;
  }

  /** Document `id`'s length of field `field` (both in range). */
  lengthOf(id: number, field: number): number {
    return this.#lengths[id * this.#fields + field]!;
  }

  /** Document `id`'s row: valid until the next `get` (see above). */
  get(id: number): readonly number[] | undefined {
    if (!this.has(id)) return undefined;
    const row = this.#row;
    const from = id * this.#fields;
    for (let f = 0; f < this.#fields; f++) row[f] = this.#lengths[from + f]!;
    return row;
  }

  *entries(): IterableIterator<[number, number[]]> {
    for (let i = 0; i < this.size; i++) yield [i, Array.from(this.#lengths.subarray(i * this.#fields, (i + 1) * this.#fields))];
  }

  [Symbol.iterator](): IterableIterator<[number, number[]]> {
    return this.entries();
  }
}

/** Document id -> short id, built on first use (search never asks; `has(id)` and stored fields do). */
export class ReverseIds {
  readonly #ids: DenseMap<unknown>;
  #map: Map<unknown, number> | undefined;

  constructor(ids: DenseMap<unknown>) {
    this.#ids = ids;
  }

  #built(): Map<unknown, number> {
    if (!this.#map) {
      this.#map = new Map();
      for (const [short, id] of this.#ids) this.#map.set(id, short);
    }
    return this.#map;
  }

  has(id: unknown): boolean {
    return this.#built().has(id);
  }

  get(id: unknown): number | undefined {
    return this.#built().get(id);
  }
}
