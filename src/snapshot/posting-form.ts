// The byte form of an index's lean postings in a snapshot: the terms as a JSON list, then the
// numbers little-endian whatever the machine's byte order, read back into typed arrays of their own.
import type { LeanPostings } from '../catalog/catalog.ts';

/**
 * Lean postings as two parts: the terms (a JSON list, in MiniSearch's order), then the numbers:
 * a header (u32 LE: fields, terms, postings, bytes per document id, bytes per count), the starts
 * (u32 LE), the document ids and the counts (u16 or u32 LE each).
 */
export function postingParts(p: LeanPostings): Buffer[] {
  const docBytes = p.docs.BYTES_PER_ELEMENT;
  const countBytes = p.counts.BYTES_PER_ELEMENT;
  const n = p.docs.length;
  const out = Buffer.alloc(4 * 5 + 4 * p.starts.length + docBytes * n + countBytes * n);
  [p.fields, p.terms.length, n, docBytes, countBytes].forEach((v, i) => out.writeUInt32LE(v, 4 * i));
  let at = 20;
  for (const array of [p.starts, p.docs, p.counts]) {
    const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    // Typed arrays hold the machine's byte order: written little-endian whatever it is.
    // Stryker disable all: both ways write the same little-endian bytes; the tests run on a little-endian machine, and the loop is for big-endian ones
    if (LITTLE_ENDIAN) bytes.copy(out, at);
    else for (let i = 0; i < array.length; i++) writeLE(out, at + i * array.BYTES_PER_ELEMENT, array.BYTES_PER_ELEMENT, array[i]!);
    // Stryker restore all
    at += bytes.length;
  }
  return [Buffer.from(JSON.stringify(p.terms)), out];
}

// Stryker disable next-line all: both ways write and read the same little-endian bytes, and the tests run on a little-endian machine (the other way is for big-endian ones)
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// Stryker disable all: big-endian machines only (the tests run on a little-endian one)
function writeLE(out: Buffer, at: number, width: number, value: number): void {
  if (width === 2) out.writeUInt16LE(value, at);
  else out.writeUInt32LE(value, at);
}
// Stryker restore all

/** `postingParts` read back (throws on numbers that do not agree with each other). */
export function readPostings(terms: unknown, bytes: Buffer): LeanPostings {
  if (!Array.isArray(terms) || !terms.every((t) => typeof t === 'string')) throw new Error('spec image postings: terms are not a list of strings');
  if (bytes.length < 20) throw new Error('spec image postings are cut short');
  const [fields, termCount, n, docBytes, countBytes] = [0, 1, 2, 3, 4].map((i) => bytes.readUInt32LE(4 * i)) as [number, number, number, number, number];
  const startCount = termCount * fields + 1;
  if (termCount !== terms.length || fields < 1 || ![2, 4].includes(docBytes) || ![2, 4].includes(countBytes) || bytes.length !== 20 + 4 * startCount + (docBytes + countBytes) * n) {
    throw new Error('spec image postings do not agree');
  }
  // Copies into arrays of their own (aligned, and the file's buffer can go).
  const read = <T extends Uint16Array | Uint32Array>(make: (length: number) => T, at: number, length: number): T => {
    const array = make(length);
    const end = at + array.BYTES_PER_ELEMENT * length;
    // Stryker disable all: both ways read the same little-endian bytes; the tests run on a little-endian machine, and the loop is for big-endian ones
    if (LITTLE_ENDIAN) bytes.copy(Buffer.from(array.buffer), 0, at, end);
    else for (let i = 0; i < length; i++) array[i] = array.BYTES_PER_ELEMENT === 2 ? bytes.readUInt16LE(at + 2 * i) : bytes.readUInt32LE(at + 4 * i);
    // Stryker restore all
    return array;
  };
  const starts = read((l) => new Uint32Array(l), 20, startCount);
  const docsAt = 20 + 4 * startCount;
  const docs = read((l) => (docBytes === 2 ? new Uint16Array(l) : new Uint32Array(l)), docsAt, n);
  const counts = read((l) => (countBytes === 2 ? new Uint16Array(l) : new Uint32Array(l)), docsAt + docBytes * n, n);
  for (let i = 1; i < startCount; i++) if (starts[i]! < starts[i - 1]!) throw new Error('spec image postings do not agree');
  if (starts[0] !== 0 || starts[startCount - 1] !== n) throw new Error('spec image postings do not agree');
  return { terms: terms as string[], fields, docs, counts, starts };
}
