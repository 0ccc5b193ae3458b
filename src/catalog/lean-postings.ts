// An index's postings in the lean form: per term and field, where its documents and counts start
// in two flat typed arrays. The index build makes them (index-build.ts), a snapshot stores them
// (snapshot/codec.ts), and lean-mini.ts puts them behind MiniSearch's tree of terms. Also here:
// the conversions to and from MiniSearch's serialized form, for what needs that form.
import type MiniSearch from 'minisearch';

/** MiniSearch's serialized form (what `toJSON` writes and `loadJS` reads), version 2. */
export type MiniIndexData = Parameters<typeof MiniSearch.loadJS>[0];

/** Yields about every this many postings when converting in steps (a few milliseconds of work). */
const POSTINGS_PER_STEP = 25_000;

/**
 * An index's postings in the lean form: per term (in MiniSearch's serialized order) and field,
 * where its documents (ascending) and counts start. A snapshot stores them so (snapshot/codec.ts):
 * loading is then a copy of three arrays and the terms put in MiniSearch's tree, not a walk over
 * an object per posting.
 */
export interface LeanPostings {
  readonly terms: readonly string[];
  readonly fields: number;
  readonly docs: Uint16Array | Uint32Array;
  readonly counts: Uint16Array | Uint32Array;
  /** `terms.length * fields + 1` offsets into `docs` and `counts`. */
  readonly starts: Uint32Array;
}

/** MiniSearch's serialized form without its postings (`index`): what goes with `LeanPostings`. */
export type MiniHead = Omit<MiniIndexData, 'index'>;

/** `index` (MiniSearch's serialized postings) in the lean form, yielding now and then. */
export function* postingsOf(index: MiniIndexData['index'], fields: number, documents: number): Generator<void, LeanPostings> {
  let total = 0;
  let maxCount = 0;
  let maxDoc = 0;
  let step = POSTINGS_PER_STEP;
  for (const [, byField] of index) {
    for (const f in byField) {
      const postings = byField[f]!;
      for (const d in postings) {
        total++;
        maxCount = Math.max(maxCount, postings[d]!);
        maxDoc = Math.max(maxDoc, Number(d));
      }
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,BlockStatement: when to yield changes no result (a pause for the thread)
    if (total >= step) {
      // Stryker disable next-line ArithmeticOperator: when to yield changes no result
      step = total + POSTINGS_PER_STEP;
      yield;
    }
  }
  step = POSTINGS_PER_STEP;
  const docs = Math.max(documents, maxDoc + 1) <= 0xffff ? new Uint16Array(total) : new Uint32Array(total);
  const counts = maxCount <= 0xffff ? new Uint16Array(total) : new Uint32Array(total);
  const starts = new Uint32Array(index.length * fields + 1);
  // Stryker disable next-line ArrayDeclaration: every place is set below; the length is only a hint
  const terms: string[] = new Array<string>(index.length);
  let at = 0;
  for (let t = 0; t < index.length; t++) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: when to yield changes no result (a pause for the thread)
    if (at >= step) {
      // Stryker disable next-line ArithmeticOperator: when to yield changes no result
      step = at + POSTINGS_PER_STEP;
      yield;
    }
    const [term, byField] = index[t]!;
    terms[t] = term;
    for (let f = 0; f < fields; f++) {
      starts[t * fields + f] = at;
      const postings = byField[f];
      // Stryker disable next-line ConditionalExpression: a field without postings enumerates nothing either way
      if (!postings) continue;
      // Integer keys enumerate ascending, as loadJS's Maps hold them.
      for (const d in postings) {
        docs[at] = Number(d);
        counts[at] = postings[d]!;
        at++;
      }
    }
  }
  starts[index.length * fields] = at;
  return { terms, fields, docs, counts, starts };
}

/** `index` (MiniSearch's serialized postings) in the lean form (for a snapshot to store). */
export function leanPostings(index: MiniIndexData['index'], fields: number, documents: number): LeanPostings {
  const steps = postingsOf(index, fields, documents);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** The lean postings as MiniSearch's serialized `index` again (for what needs that form: loadJS, toJSON). */
export function postingsIndex(p: LeanPostings): MiniIndexData['index'] {
  const out: MiniIndexData['index'] = [];
  for (let t = 0; t < p.terms.length; t++) {
    const byField: Record<number, Record<number, number>> = {};
    for (let f = 0; f < p.fields; f++) {
      const from = p.starts[t * p.fields + f]!;
      const to = p.starts[t * p.fields + f + 1]!;
      if (to === from) continue;
      const postings: Record<number, number> = {};
      for (let i = from; i < to; i++) postings[p.docs[i]!] = p.counts[i]!;
      byField[f] = postings;
    }
    out.push([p.terms[t]!, byField]);
  }
  return out;
}

