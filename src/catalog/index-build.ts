// Building one spec's index: endpoint entries -> MiniSearch's serialized form (what `loadJS`
// reads), counted in one pass, plus per term its document frequency and an upper bound of the
// score one document can get for it. The serialized form is what a snapshot would store.
import MiniSearch, { type Options } from 'minisearch';
import { type Doc, EMPTY_FIELD, type Entry, type PathCache, documentsOf } from './document.ts';
import { FIELD_KEYS, WEIGHTS } from './weights.ts';

/** How each index's MiniSearch is set up; `MiniSearch.loadJS` must be given the same options. */
export const MINI_OPTIONS: Options<Doc> = {
  idField: 'i',
  fields: FIELD_KEYS,
  storeFields: [],
  // Documents arrive tokenized (each field an array of terms, see `documentOf`): MiniSearch takes
  // the arrays as they are instead of a joined string it would split again.
  stringifyField: (terms) => terms,
  tokenize: (terms) => terms as unknown as string[],
  processTerm: (term) => term || null,
  // Queries arrive as normalized terms joined by spaces.
  searchOptions: { boost: { ...WEIGHTS.fields }, bm25: WEIGHTS.bm25, tokenize: (text) => text.split(' ') },
};

import { type LeanPostings, type MiniHead, type MiniIndexData, postingsIndex } from './lean-postings.ts';

export type { MiniIndexData } from './lean-postings.ts';

/** A built index as plain data: what a snapshot stores (`SearchIndex.image()` / `SearchIndex.restore`). */
export interface IndexImage {
  /** MiniSearch's serialized form, or how to get it (a snapshot keeps it undecoded until the first search). */
  readonly mini: MiniIndexData | (() => MiniIndexData);
  readonly terms: readonly string[];
  readonly df: readonly number[];
  readonly best: readonly number[];
  /** Per document id: its summary's distinct terms, or null. */
  readonly summaries: readonly (readonly string[] | null)[];
}

/** One spec's index, built: what `SearchIndex` loads. */
export interface BuiltIndex {
  readonly docs: readonly Doc[];
  /** The index: its lean postings (`lean`), or MiniSearch's serialized form (the call). */
  readonly data: BuiltData;
  /** Documents per term (any field). */
  readonly df: Map<string, number>;
  /** Per term, the highest score MiniSearch can give one document for it at weight 1. */
  readonly best: Map<string, number>;
}

/** A built index: MiniSearch's serialized form when called, its lean postings from `lean` (what loading and snapshots read). */
export type BuiltData = (() => MiniIndexData) & { lean(): { head: MiniHead; postings: LeanPostings } };

/** Build the index of one spec's entries (document ids are `entry.doc`). */
export function buildIndex(entries: readonly Entry[], paths: PathCache = new Map()): BuiltIndex {
  const docs = documentsOf(entries, paths);
  return { docs, ...countPostings(docs) };
}

/**
 * MiniSearch's index of `docs` in its serialized form, built in one pass, plus per term its
 * document frequency (any field) and an upper bound of the BM25 score MiniSearch gives one
 * document for it: per field, its boost times the field's inverse document frequency times the
 * term-frequency part at the field's highest count and shortest length. A search over many
 * indexes uses the bound to skip indexes that cannot reach its top hits.
 *
 * Why not `addAll`: it looks every token up in MiniSearch's radix tree and bumps a Map entry,
 * most of an index build's time. Here each distinct term is inserted once, when MiniSearch loads
 * the result; the data is what `addAll` would have built (a test compares the two).
 */
function countPostings(docs: readonly Doc[]): Omit<BuiltIndex, 'docs'> {
  const dfs = new Map<string, number>();
  const bests = new Map<string, number>();
  const nf = FIELD_KEYS.length;
  // Terms get small integer ids; per id and field: documents, highest count, shortest field length.
  // Typed arrays indexed by id instead of a Map and an array per term: one pass, little garbage.
  const ids = new Map<string, number>();
  const terms: string[] = [];
  let capacity = 1024;
  let stats = new Float64Array(capacity * 3 * nf);
  let lastDoc = new Int32Array(capacity).fill(-1);
  let df = new Int32Array(capacity);
  /** Count of the term in the current field, valid while `stamp` says the current field. */
  let tf = new Int32Array(capacity);
  let stamp = new Int32Array(capacity).fill(-1);
  const grow = () => {
    const more = capacity * 2;
    const s2 = new Float64Array(more * 3 * nf);
    s2.set(stats);
    stats = s2;
    const widen = (a: Int32Array, fill: number) => {
      const b = new Int32Array(more).fill(fill);
      b.set(a);
      return b;
    };
    lastDoc = widen(lastDoc, -1);
    df = widen(df, 0);
    tf = widen(tf, 0);
    stamp = widen(stamp, -1);
    capacity = more;
  };
  const totalLength = new Float64Array(nf);
  // Stryker disable next-line ArrayDeclaration: emptied (length 0) before each field's use
  const fieldIds: number[] = [];
  // Postings as they come (documents in order): slot (term id x fields + field), document, count.
  let slots = new Int32Array(4096);
  let postingDocs = new Int32Array(4096);
  let postingCounts = new Int32Array(4096);
  let posted = 0;
  let maxCount = 0;
  const post = (slot: number, di: number, count: number) => {
    if (posted === slots.length) {
      const wider = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      slots = wider(slots);
      postingDocs = wider(postingDocs);
      postingCounts = wider(postingCounts);
    }
    slots[posted] = slot;
    postingDocs[posted] = di;
    postingCounts[posted] = count;
    maxCount = Math.max(maxCount, count);
    posted++;
  };
  const documentIds: Record<number, number> = {};
  const fieldLength: Record<number, number[]> = {};
  // MiniSearch's running mean, computed as it does (same rounding, so the same scores).
  const averageFieldLength: number[] = new Array<number>(nf).fill(0);
  for (let di = 0; di < docs.length; di++) {
    const doc = docs[di]!;
    documentIds[di] = doc.i;
    // Stryker disable next-line ArrayDeclaration: every slot is written below before it is read
    const lengths = new Array<number>(nf);
    fieldLength[di] = lengths;
    for (let f = 0; f < nf; f++) {
      const tokens = doc[FIELD_KEYS[f]!];
      // MiniSearch's field length: distinct tokens, the empty one of an empty field included.
      if (tokens === EMPTY_FIELD) {
        totalLength[f]! += 1;
        lengths[f] = 1;
        averageFieldLength[f] = (averageFieldLength[f]! * di + 1) / (di + 1);
        continue;
      }
      const key = di * nf + f;
      fieldIds.length = 0;
      for (const t of tokens) {
        let id = ids.get(t);
        if (id === undefined) {
          id = terms.length;
          if (id === capacity) grow();
          ids.set(t, id);
          terms.push(t);
          const row = id * 3 * nf;
          stats.fill(Infinity, row + 2 * nf, row + 3 * nf);
        }
        if (stamp[id] !== key) {
          stamp[id] = key;
          tf[id] = 0;
          fieldIds.push(id);
        }
        // `+= 1`, not `!++`: Stryker's instrumenter fails on an increment of a non-null expression.
        tf[id]! += 1;
      }
      const length = fieldIds.length;
      totalLength[f]! += length;
      lengths[f] = length;
      averageFieldLength[f] = (averageFieldLength[f]! * di + length) / (di + 1);
      for (const id of fieldIds) {
        post(id * nf + f, di, tf[id]!);
        const row = id * 3 * nf;
        stats[row + f]! += 1;
        stats[row + nf + f] = Math.max(stats[row + nf + f]!, tf[id]!);
        stats[row + 2 * nf + f] = Math.min(stats[row + 2 * nf + f]!, length);
        if (lastDoc[id] !== di) {
          lastDoc[id] = di;
          df[id]! += 1;
        }
      }
    }
  }
  const n = docs.length;
  const { k, b, d } = WEIGHTS.bm25;
  for (let id = 0; id < terms.length; id++) {
    const row = id * 3 * nf;
    let best = 0;
    for (let f = 0; f < nf; f++) {
      const matching = stats[row + f]!;
      if (matching === 0) continue;
      const tf = stats[row + nf + f]!;
      const relative = stats[row + 2 * nf + f]! / (totalLength[f]! / n);
      const idf = Math.log(1 + (n - matching + 0.5) / (matching + 0.5));
      best += WEIGHTS.fields[FIELD_KEYS[f]!] * idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + b * relative)));
    }
    dfs.set(terms[id]!, df[id]!);
    bests.set(terms[id]!, best);
  }
  // The lean postings: terms in first-seen order, per term and field its documents ascending (they
  // came in document order). A slot (term id x fields + field) is the term's place in them. (No term
  // is the empty token: an empty field comes as EMPTY_FIELD itself, counted above and not indexed.)
  const starts = new Uint32Array(terms.length * nf + 1);
  for (let i = 0; i < posted; i++) {
    const place = slots[i]! + 1;
    starts[place] = starts[place]! + 1;
  }
  for (let i = 1; i < starts.length; i++) starts[i] = starts[i]! + starts[i - 1]!;
  const leanDocs = n <= 0xffff ? new Uint16Array(posted) : new Uint32Array(posted);
  const leanCounts = maxCount <= 0xffff ? new Uint16Array(posted) : new Uint32Array(posted);
  const next = starts.slice(0, starts.length - 1);
  for (let i = 0; i < posted; i++) {
    const place = slots[i]!;
    const at = next[place]!;
    next[place] = at + 1;
    leanDocs[at] = postingDocs[i]!;
    leanCounts[at] = postingCounts[i]!;
  }
  const postings: LeanPostings = { terms, fields: nf, docs: leanDocs, counts: leanCounts, starts };
  const fieldIdsByName: Record<string, number> = {};
  FIELD_KEYS.forEach((key, f) => (fieldIdsByName[key] = f));
  const head: MiniHead = {
    documentCount: n,
    nextId: n,
    documentIds,
    fieldIds: fieldIdsByName,
    fieldLength,
    averageFieldLength,
    storedFields: {},
    dirtCount: 0,
    serializationVersion: 2,
  };
  const data = Object.assign((): MiniIndexData => ({ ...head, index: postingsIndex(postings) }), { lean: () => ({ head, postings }) });
  return { data, df: dfs, best: bests };
}
