// MiniSearch, loaded lean. `MiniSearch.loadJS` gives every term a Map of fields and every field a
// Map of document -> count (about 50 bytes per posting, most of an index's heap) and builds a radix
// tree of every term (most of the time to load one). Here the postings, document ids and field
// lengths live in flat typed arrays behind the Map methods MiniSearch calls (lean-maps.ts), and the
// terms behind `LeanTerms`, which answers a term or a prefix as MiniSearch's tree would and builds
// that tree only for what needs it whole. MiniSearch's search and scoring stay its own: the same
// postings in the same order give the same results, score for score (test/catalog/lean-mini.test.ts
// holds the two side by side). The index is read-only once loaded (svc builds a new index for a
// changed spec): add, remove and discard are not supported on it.
import { setImmediate as nextTurn } from 'node:timers/promises';
import MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import type { Doc } from './document.ts';
import { MINI_OPTIONS } from './index-build.ts';
import { DenseMap, FieldLengths, ReverseIds, type Store, TermPostings } from './lean-maps.ts';
import { type LeanPostings, type MiniHead, type MiniIndexData, postingsIndex, postingsOf } from './lean-postings.ts';

export type { LeanPostings, MiniHead } from './lean-postings.ts';
export { leanPostings, postingsIndex } from './lean-postings.ts';

/** Prefix look-ups remembered per index before its memory starts again (queries bring new words without end). */
const PREFIXES_KEPT = 256;

/**
 * MiniSearch's tree of terms (`SearchableMap`) for an index loaded lean, without the tree: a term
 * is looked up by a Map of term -> number, and a prefix in a tree of only the terms it begins
 * (found by a binary search in the terms sorted, a native sort at load), put in as MiniSearch's
 * tree has them (term order). Below a prefix, MiniSearch's tree holds
 * exactly those terms, shaped by them alone in the order they came (a term that does not begin
 * with the prefix parts from it above it), so its prefix look-up walks the same terms in the same
 * order (test/catalog/lean-terms.test.ts holds the two side by side). Building the whole tree
 * (thousands of nested Maps) was most of loading an index, paid by the first search reaching it;
 * it is built only for what needs it whole: fuzzy search (a rare fallback), iteration (`toJSON`)
 * and changes, which the lean index does not expect but leaves to the tree.
 */
export class LeanTerms {
  readonly #terms: readonly string[];
  readonly #store: Store;
  readonly #numbers = new Map<string, number>();
  /** The terms in code-unit order (`Array.prototype.sort` without a comparator, as `<` compares). */
  readonly #sorted: readonly string[];
  readonly #postings: (TermPostings | undefined)[] = [];
  readonly #prefixes = new Map<string, SearchableMap<TermPostings>>();
  /** MiniSearch's own tree of every term, once something needs it (then it answers everything). */
  #whole: SearchableMap<TermPostings> | undefined;

  constructor(terms: readonly string[], store: Store) {
    this.#terms = terms;
    this.#store = store;
    // Stryker disable next-line EqualityOperator: past the last term there is none to number
    for (let t = 0; t < terms.length; t++) this.#numbers.set(terms[t]!, t);
    this.#sorted = terms.slice().sort();
  }

  /** The numbers of the terms `prefix` begins, ascending (term order). */
  #numbersAt(prefix: string): Uint32Array {
    const sorted = this.#sorted;
    // The first term not below `prefix`: the terms it begins follow it, together.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
    const out = new Uint32Array(end - lo);
    for (let i = lo; i < end; i++) out[i - lo] = this.#numbers.get(sorted[i]!)!;
    return out.sort();
  }

  #postingsOf(t: number): TermPostings {
    return (this.#postings[t] ??= new TermPostings(this.#store, t));
  }

  /** MiniSearch's tree of every term, as `loadJS` would have built it (the terms in their order). */
  #tree(): SearchableMap<TermPostings> {
    if (!this.#whole) {
      const tree = new SearchableMap<TermPostings>();
      for (let t = 0; t < this.#terms.length; t++) tree.set(this.#terms[t]!, this.#postingsOf(t));
      this.#whole = tree;
    }
    return this.#whole;
  }

  get size(): number {
    return this.#whole ? this.#whole.size : this.#terms.length;
  }

  get(term: string): TermPostings | undefined {
    if (this.#whole) return this.#whole.get(term);
    const t = this.#numbers.get(term);
    return t === undefined ? undefined : this.#postingsOf(t);
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  /** The terms `prefix` begins, as MiniSearch's `atPrefix` gives them (its tree of just those terms). */
  atPrefix(prefix: string): SearchableMap<TermPostings> {
    if (this.#whole) return this.#whole.atPrefix(prefix);
    let found = this.#prefixes.get(prefix);
    if (!found) {
      const tree = new SearchableMap<TermPostings>();
      for (const t of this.#numbersAt(prefix)) tree.set(this.#terms[t]!, this.#postingsOf(t));
      found = tree.atPrefix(prefix);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a memory bound only (a forgotten prefix is looked up again, the same)
      if (this.#prefixes.size >= PREFIXES_KEPT) this.#prefixes.clear();
      this.#prefixes.set(prefix, found);
    }
    return found;
  }

  fuzzyGet(term: string, maxEditDistance: number): Map<string, [TermPostings, number]> {
    return this.#tree().fuzzyGet(term, maxEditDistance);
  }

  entries(): IterableIterator<[string, TermPostings]> {
    return this.#tree().entries();
  }

  keys(): IterableIterator<string> {
    return this.#tree().keys();
  }

  values(): IterableIterator<TermPostings> {
    return this.#tree().values();
  }

  forEach(fn: (term: string, postings: TermPostings, map: SearchableMap<TermPostings>) => void): void {
    this.#tree().forEach(fn);
  }

  [Symbol.iterator](): IterableIterator<[string, TermPostings]> {
    return this.entries();
  }

  // Changes go to the whole tree, which answers from then on.
  set(term: string, value: TermPostings): this {
    this.#tree().set(term, value);
    return this;
  }

  delete(term: string): void {
    this.#tree().delete(term);
  }

  fetch(term: string, initial: () => TermPostings): TermPostings {
    return this.#tree().fetch(term, initial);
  }

  update(term: string, fn: (value: TermPostings | undefined) => TermPostings): this {
    this.#tree().update(term, fn);
    return this;
  }

  clear(): void {
    this.#tree().clear();
  }
}

/** MiniSearch's private fields this module fills in (named as in MiniSearch 7). */
interface Internals {
  _documentIds: unknown;
  _idToShortId: unknown;
  _fieldLength: unknown;
  _index: unknown;
}

/** Short ids 0..n-1 in `documentIds` and `fieldLength`, and field ids 0..fields-1: what the lean form needs. */
function dense(data: MiniIndexData, fields: number): boolean {
  const n = data.documentCount;
  if (data.nextId !== n || Object.keys(data.documentIds).length !== n || Object.keys(data.fieldLength).length !== n) return false;
  for (let i = 0; i < n; i++) if (!(i in data.documentIds) || !Array.isArray(data.fieldLength[i])) return false;
  const ids = Object.values(data.fieldIds);
  return ids.length === fields && ids.every((f) => Number.isInteger(f) && f >= 0 && f < fields) && Object.keys(data.storedFields).length === 0;
}

function* load(data: MiniIndexData): Generator<void, MiniSearch<Doc>> {
  const fields = Object.keys(data.fieldIds).length;
  if (data.serializationVersion !== 2 || !dense(data, fields)) return MiniSearch.loadJS(data, MINI_OPTIONS);
  const { index, ...head } = data;
  return yield* loadPostings(head, yield* postingsOf(index, fields, data.documentCount));
}

/** MiniSearch over `head` and `postings`, the postings held lean (MiniSearch's own tree of terms). */
function* loadPostings(head: MiniHead, postings: LeanPostings): Generator<void, MiniSearch<Doc>> {
  const fields = Object.keys(head.fieldIds).length;
  if (head.serializationVersion !== 2 || postings.fields !== fields || !dense({ ...head, index: [] }, fields)) {
    return MiniSearch.loadJS({ ...head, index: postingsIndex(postings) }, MINI_OPTIONS);
  }
  const mini = MiniSearch.loadJS({ ...head, index: [], documentIds: {}, fieldLength: {}, storedFields: {} }, MINI_OPTIONS);
  const inner = mini as unknown as Internals;
  const n = head.documentCount;
  const ids = new DenseMap<unknown>(Array.from({ length: n }, (_, i) => head.documentIds[i]));
  inner._documentIds = ids;
  inner._idToShortId = new ReverseIds(ids);
  inner._fieldLength = FieldLengths.of(head.fieldLength, n, fields);
  const { terms, docs, counts, starts } = postings;
  yield;
  inner._index = new LeanTerms(terms, { docs, counts, starts, fields });
  return mini;
}

/** A generator's result, run to the end at once. */
function run<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** MiniSearch over a snapshot's `head` and lean `postings`, at once. */
export function loadLeanPostings(head: MiniHead, postings: LeanPostings): MiniSearch<Doc> {
  return run(loadPostings(head, postings));
}

/** `loadLeanPostings`, yielding the thread between batches of terms. */
export async function loadLeanPostingsAsync(head: MiniHead, postings: LeanPostings): Promise<MiniSearch<Doc>> {
  const steps = loadPostings(head, postings);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}

/** `MiniSearch.loadJS(data, MINI_OPTIONS)`, with the postings held lean (falls back to loadJS for data not shaped as svc builds it). */
export function loadLean(data: MiniIndexData): MiniSearch<Doc> {
  return run(load(data));
}

/** Where an index comes from: MiniSearch's serialized form, a function making it, or (a snapshot's) lean postings too. */
export type IndexSource = MiniIndexData | ((() => MiniIndexData) & { lean?: () => { head: MiniHead; postings: LeanPostings } | undefined });

/** MiniSearch over `source`, postings held lean: from lean postings when the source has them. */
export function loadSource(source: IndexSource): MiniSearch<Doc> {
  const lean = typeof source === 'function' ? source.lean?.() : undefined;
  if (lean) return loadLeanPostings(lean.head, lean.postings);
  return loadLean(typeof source === 'function' ? source() : source);
}

/** `loadSource`, yielding the thread between batches of terms. */
export async function loadSourceAsync(source: IndexSource): Promise<MiniSearch<Doc>> {
  const lean = typeof source === 'function' ? source.lean?.() : undefined;
  if (lean) return loadLeanPostingsAsync(lean.head, lean.postings);
  return loadLeanAsync(typeof source === 'function' ? source() : source);
}

/** `loadLean`, yielding the thread between batches of terms. */
export async function loadLeanAsync(data: MiniIndexData): Promise<MiniSearch<Doc>> {
  const steps = load(data);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}
