// Reading and parsing one description file: size check before reading, BOM, JSON fast path, YAML
// with line:column errors. Shared by the root document and every externally referenced file.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { parseDocument, visit, type Document } from 'yaml';
import { fastYaml } from './fast-yaml.ts';
import { jsonErrorOffset } from './json-place.ts';

/** A problem reading or parsing one file, with the place when known. */
export interface ReadProblem {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint?: string;
}

export type ReadResult =
  | { readonly ok: true; readonly bytes: Buffer; readonly text: string }
  | { readonly ok: false; readonly problem: ReadProblem };

export type ParseResult =
  | { readonly ok: true; readonly value: unknown; readonly warnings: readonly ReadProblem[] }
  | { readonly ok: false; readonly problem: ReadProblem };

/** What to do about a file that is not there (the spec itself, or a file a `$ref` names). */
export const FILE_MISSING_HINT = 'Check the path (relative paths resolve against the folder of the file that names them).';

/** Anchors/aliases beyond this count are refused: a "billion laughs" document would expand without end. */
const MAX_ALIAS_COUNT = 1000;

/** Reads a file as UTF-8, refusing it (by `stat`, before reading) when larger than `maxBytes`. */
export async function readSpecFile(file: string, maxBytes: number): Promise<ReadResult> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // stat before open: opening a FIFO or device could block, and size is checked before reading.
    const info = await stat(file);
    const refused = refusal(info.isFile(), info.size, maxBytes);
    if (refused) return refused;
    handle = await open(file, 'r');
    // One read of the known size (fs.readFile reads in 512 KB chunks, one thread-pool trip each).
    const bytes = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < info.size) {
      const { bytesRead } = await handle.read(bytes, filled, info.size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const data = filled === info.size ? bytes : bytes.subarray(0, filled);
    return { ok: true, bytes: data, text: decodeUtf8(data) };
  } catch (err) {
    return { ok: false, problem: readProblem(err) };
  } finally {
    await handle?.close();
  }
}

/**
 * readSpecFile, synchronously: for the many small files of a multi-file spec, where four thread-pool
 * round trips per file (stat, open, read, close) cost more than the reads themselves. Same checks,
 * same problems; `text` is not decoded (the parser decodes).
 */
export function readSpecFileSync(file: string, maxBytes: number): ReadResult {
  let fd: number | undefined;
  try {
    const info = statSync(file);
    const refused = refusal(info.isFile(), info.size, maxBytes);
    if (refused) return refused;
    fd = openSync(file, 'r');
    // At most the size stat saw: a file that grew meanwhile cannot pass the limit.
    const size = info.size;
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const n = readSync(fd, bytes, filled, size - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { ok: true, bytes: filled === size ? bytes : bytes.subarray(0, filled), text: '' };
  } catch (err) {
    return { ok: false, problem: readProblem(err) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function refusal(isFile: boolean, size: number, maxBytes: number): ReadResult | undefined {
  if (!isFile) return { ok: false, problem: { code: 'file-not-regular', message: 'not a regular file', hint: 'Point the spec path at a file.' } };
  if (size > maxBytes) {
    return {
      ok: false,
      problem: {
        code: 'file-too-large',
        message: `file is ${size} bytes, above the limit of ${maxBytes} bytes`,
        hint: 'Raise limits.maxSpecBytes in svc.yaml if the file is trusted.',
      },
    };
  }
  return undefined;
}

function readProblem(err: unknown): ReadProblem {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return { code: 'file-missing', message: 'file not found', hint: FILE_MISSING_HINT };
  }
  if (code === 'EISDIR') return { code: 'file-not-regular', message: 'not a regular file', hint: 'Point the spec path at a file.' };
  return { code: 'file-unreadable', message: `cannot read file: ${(err as Error).message}` };
}

/** UTF-8 text without a leading byte-order mark. */
export function decodeUtf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses JSON (fast path when the text starts with `{` or `[`) or YAML. Never throws. */
export function parseText(text: string): ParseResult {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const first = firstNonSpace(text);
  if (first === '{' || first === '[') {
    try {
      return { ok: true, value: JSON.parse(text), warnings: [] };
    } catch (err) {
      return { ok: false, problem: jsonProblem(text, err as Error) };
    }
  }
  const fast = fastYaml(text);
  return fast ? { ok: true, value: fast.value, warnings: [] } : parseYaml(text);
}

function parseYaml(text: string): ParseResult {
  try {
    // `merge` keeps `<<:` keys working as many hand-written specs expect; duplicate keys are tolerated
    // (last wins, like most YAML readers) but reported.
    const doc = parseDocument(text, { merge: true, uniqueKeys: false, prettyErrors: true, strict: false });
    const fatal = doc.errors[0];
    if (fatal) {
      const pos = fatal.linePos?.[0];
      return {
        ok: false,
        problem: {
          code: 'yaml-syntax',
          message: `YAML syntax error: ${firstLine(fatal.message).replace(/ at line \d+, column \d+:?$/, '')}`,
          ...(pos ? { line: pos.line, column: pos.col } : {}),
          hint: 'Fix the YAML at that place (a validator or editor with YAML support shows it).',
        },
      };
    }
    const warnings: ReadProblem[] = doc.warnings.map((w) => {
      const pos = w.linePos?.[0];
      return { code: 'yaml-warning', message: firstLine(w.message).replace(/ at line \d+, column \d+:?$/, ''), ...(pos ? { line: pos.line, column: pos.col } : {}) };
    });
    try {
      return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), warnings };
    } catch (err) {
      return { ok: false, problem: aliasProblem(text, doc, err as Error) };
    }
  } catch (err) {
    return { ok: false, problem: { code: 'yaml-invalid', message: `YAML cannot be loaded: ${firstLine((err as Error).message)}`, hint: 'Fix the document.' } };
  }
}

/**
 * toJS fails on aliases only: one whose anchor is not defined before it, or more alias expansions
 * than MAX_ALIAS_COUNT (a "billion laughs" document). The place is that alias (the first one for
 * too many), so the message can name its line like any syntax error.
 */
function aliasProblem(text: string, doc: Document, err: Error): ReadProblem {
  const message = firstLine(err.message);
  const unresolved = /Unresolved alias[^:]*: (.+)$/.exec(message)?.[1];
  let at: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (unresolved !== undefined && node.source !== unresolved) return undefined;
      at = node.range?.[0];
      return visit.BREAK;
    },
  });
  const place = at !== undefined ? lineColumn(text, at) : undefined;
  return {
    code: 'yaml-invalid',
    message: `YAML cannot be loaded: ${message}`,
    ...(place ? { line: place.line, column: place.column } : {}),
    hint: unresolved !== undefined ? `Define the anchor &${unresolved} before the alias *${unresolved} that uses it.` : 'Reduce aliases or fix the document.',
  };
}

function jsonProblem(text: string, err: Error): ReadProblem {
  // V8 names the position for most mistakes but not all ("Unexpected token ..."): the place comes from
  // our own scan, which agrees with V8 wherever V8 names one (test/import/json-place.test.ts).
  const message = firstLine(err.message).replace(/ in JSON at position \d+(\s*\(line \d+ column \d+\))?/, '');
  const v8 = /position (\d+)/.exec(err.message);
  const offset = jsonErrorOffset(text) ?? (v8 ? Number(v8[1]) : text.length);
  const { line, column } = lineColumn(text, offset);
  return { code: 'json-syntax', message: `JSON syntax error: ${message}`, line, column, hint: 'Fix the JSON at that place (a JSON validator shows it).' };
}

/** 1-based line and column of a string offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function firstNonSpace(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') return c;
  }
  return '';
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i === -1 ? s : s.slice(0, i);
}

/**
 * Cheap text scan: does the document contain any `$ref` whose value is a string not starting with `#`?
 * False positives (a `$ref` mentioned in prose) only cost an external-ref crawl; single-file specs
 * with local refs only never pay for one. A `$ref` whose value is an object (a schema property
 * named `$ref`, as in Kubernetes' JSONSchemaProps) is not a reference.
 */
export function hasExternalRefs(text: string): boolean {
  for (let i = text.indexOf('$ref'); i !== -1; i = text.indexOf('$ref', i + 4)) {
    let j = i + 4;
    if (text[j] === '"' || text[j] === "'") j++;
    while (text[j] === ' ' || text[j] === '\t') j++;
    if (text[j] !== ':') continue;
    j++;
    while (text[j] === ' ' || text[j] === '\t' || text[j] === '\r' || text[j] === '\n') j++;
    const c = text[j];
    if (c === '"' || c === "'") {
      if (text[j + 1] !== '#') return true;
      continue;
    }
    if (c === undefined || c === '{' || c === '[' || c === '#' || c === '-') continue;
    // A plain YAML scalar: a reference, unless it is the key of a nested mapping (`$ref:\n  type: x`).
    let k = j;
    while (k < text.length && text[k] !== '\n' && text[k] !== ' ' && text[k] !== '\r') k++;
    if (text[k - 1] !== ':') return true;
  }
  return false;
}

/**
 * Hands the memory of `bytes` back at once rather than at the next full collection, which may come
 * after the import's peak (13 MB for GitHub's description). Only a buffer of its own (not a slice
 * of Node's pool or of another buffer), which nothing else may use afterwards: it is left empty.
 */
export function releaseBytes(bytes: Buffer): void {
  // ES2024's transfer (every Node svc runs on has it), which the project's lib setting predates.
  const buffer = bytes.buffer as ArrayBuffer & { readonly detached?: boolean; transfer?(length: number): ArrayBuffer };
  if (bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength && buffer instanceof ArrayBuffer && buffer.detached === false) buffer.transfer?.(0);
}
