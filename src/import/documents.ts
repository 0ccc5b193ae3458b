// The set of parsed documents one spec is made of (root + externally referenced files), and `$ref`
// lookup across them. Local pointers are looked up here directly: the import never dereferences a
// whole document. External files are loaded once, up front, by json-schema-ref-parser's crawler
// with our own resolver (folder rule, remote refusal, size limit) and parser (BOM, line:column errors).
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParserError, ResolverError } from '@apidevtools/json-schema-ref-parser';
import type { Diagnostic } from '../model/diagnostic.ts';
import { decodeUtf8, FILE_MISSING_HINT, parseText, readSpecFileSync } from './read.ts';
import { joinPointer, lookupPointer } from './pointer.ts';

export interface RefTarget {
  readonly ok: true;
  /** Absolute path (or URL) of the document the target lives in. */
  readonly file: string;
  /** Pointer of the target inside that document. */
  readonly pointer: string;
  readonly node: unknown;
}

export interface RefFailure {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
}

/**
 * A problem met while loading external files, placed at the `$ref` that asked for the file.
 * A Diagnostic without severity: the caller decides how bad it is.
 */
export type LoadProblem = Omit<Diagnostic, 'severity'>;

export interface LoadOptions {
  readonly allowRemoteRefs: boolean;
  /** Absolute folders (besides the root file's folder tree) refs may read. */
  readonly allowRefsFrom: readonly string[];
  readonly maxBytes: number;
}

const REMOTE = /^https?:\/\//i;
const SCHEME = /^[a-z][a-z0-9+.-]+:/i;
const MAX_HOPS = 32;

export class DocumentSet {
  readonly root: string;
  readonly #docs = new Map<string, unknown>();
  readonly #digests = new Map<string, string>();
  readonly #failed = new Map<string, RefFailure>();
  /** Made by `fromDocs`: holds what an import read, without what it could not. */
  #rebuilt = false;
  readonly #lookups = new Map<string, Map<string, RefTarget | RefFailure>>();

  constructor(root: string, doc: unknown, bytes: Buffer) {
    this.root = root;
    this.#docs.set(root, doc);
    this.#digests.set(root, sha256(bytes));
  }

  /** Documents parsed earlier (root first), for `$ref` look-ups only: `hash` is not meaningful on it. */
  static fromDocs(docs: ReadonlyMap<string, unknown>): DocumentSet {
    const [root, doc] = docs.entries().next().value as [string, unknown];
    const set = new DocumentSet(root, doc, Buffer.alloc(0));
    set.#rebuilt = true;
    for (const [file, d] of docs) set.#docs.set(file, d);
    return set;
  }

  /** Every file read, root first, the others sorted (stable across runs). */
  get files(): string[] {
    const rest = [...this.#docs.keys()].filter((f) => f !== this.root).sort();
    return [this.root, ...rest];
  }

  /** sha256 over the files' contents (per-file digests, in `files` order). */
  get hash(): string {
    const h = createHash('sha256');
    for (const f of this.files) h.update(this.#digests.get(f) ?? '');
    return h.digest('hex');
  }

  doc(file: string): unknown {
    return this.#docs.get(file);
  }

  /** sha256 hex of the bytes read for `file` (undefined for a file not read). */
  digest(file: string): string | undefined {
    return this.#digests.get(file);
  }

  /** Looks up one `$ref` string written in `fromFile`. Never throws. Results are memoized: big specs repeat refs a lot. */
  lookup(ref: string, fromFile: string): RefTarget | RefFailure {
    let perFile = this.#lookups.get(fromFile);
    if (!perFile) {
      perFile = new Map();
      this.#lookups.set(fromFile, perFile);
    }
    let found = perFile.get(ref);
    if (!found) {
      found = this.#lookup(ref, fromFile);
      perFile.set(ref, found);
    }
    return found;
  }

  #lookup(ref: string, fromFile: string): RefTarget | RefFailure {
    const hashAt = ref.indexOf('#');
    const filePart = hashAt === -1 ? ref : ref.slice(0, hashAt);
    const fragment = hashAt === -1 ? '' : ref.slice(hashAt + 1);
    let file = fromFile;
    if (filePart !== '') {
      const target = this.#targetFile(filePart, fromFile);
      if (!target.ok) return target;
      file = target.file;
    }
    const failed = this.#failed.get(file);
    if (failed) return failed;
    if (!this.#docs.has(file)) return this.#notHeld(ref, file);
    const found = lookupPointer(this.#docs.get(file), fragment);
    if (!found.found) {
      return {
        ok: false,
        code: 'ref-missing',
        message: `$ref "${ref}": nothing at #${fragment} in ${file} (found up to "#${found.at}")`,
        hint: 'Fix the pointer after # or add the missing definition.',
      };
    }
    // A reference stands for a schema or an object: a string, number or null there is refused, and
    // the message names its type only (the value could be any text of any file the spec may read).
    const value = found.value;
    if (value === null || (typeof value !== 'object' && typeof value !== 'boolean')) {
      return {
        ok: false,
        code: 'ref-not-object',
        message: `$ref "${ref}": the value at #${fragment} in ${file} is ${valueKind(value)}, not an object (a schema or an object is expected here)`,
        hint: 'Point the $ref at a schema or an object definition.',
      };
    }
    return { ok: true, file, pointer: found.pointer, node: value };
  }

  /**
   * Follows `$ref`s at the top of `node` (chains included) and returns what they point to,
   * with the file and pointer it lives at. A node without `$ref` comes back as is.
   */
  deref(node: unknown, file: string, pointer: string): RefTarget | RefFailure {
    let cur: RefTarget = { ok: true, file, pointer, node };
    // MAX_HOPS look-ups, then one more look at where the last one landed.
    for (let hops = 0; hops <= MAX_HOPS; hops++) {
      const ref = refOf(cur.node);
      if (ref === undefined) return cur;
      const next = this.lookup(ref, cur.file);
      if (!next.ok) return next;
      cur = next;
    }
    return { ok: false, code: 'ref-loop', message: `$ref chain longer than ${MAX_HOPS} hops (a loop?) at ${file}#${pointer}`, hint: 'Make the $ref point at a definition, not at another $ref that loops back.' };
  }

  /**
   * A `$ref` to a file this set does not hold. A set rebuilt from a snapshot's documents (`fromDocs`)
   * holds only the files the import could read: one that is gone is named as a fresh import names
   * it, so the advice is the same whichever way the spec was loaded.
   */
  #notHeld(ref: string, file: string): RefFailure {
    if (this.#rebuilt && !REMOTE.test(file) && !existsSync(file)) {
      return { ok: false, code: 'ref-file-missing', message: `$ref to ${file}: file not found`, hint: FILE_MISSING_HINT };
    }
    return {
      ok: false,
      code: 'ref-file-not-loaded',
      message: `$ref "${ref}": file ${file} was not loaded`,
      hint: 'Write the $ref as a plain relative path so svc can find it.',
    };
  }

  #targetFile(filePart: string, fromFile: string): { ok: true; file: string } | RefFailure {
    if (REMOTE.test(filePart) || REMOTE.test(fromFile)) {
      const url = new URL(filePart, REMOTE.test(fromFile) ? fromFile : undefined).href;
      return { ok: true, file: url };
    }
    if (/^file:/i.test(filePart)) return { ok: true, file: fileURLToPath(filePart) };
    if (SCHEME.test(filePart)) {
      return { ok: false, code: 'ref-unsupported', message: `$ref "${filePart}": unsupported scheme`, hint: 'Use a relative file path.' };
    }
    return { ok: true, file: path.resolve(path.dirname(fromFile), safeDecode(filePart)) };
  }

  /**
   * Loads every externally referenced file (transitively) with json-schema-ref-parser's crawler.
   * Problems come back as a list; the files that did load are usable either way.
   */
  async loadExternal(options: LoadOptions): Promise<LoadProblem[]> {
    // Loaded here, not at the top: single-file specs (most, and the largest) never need it.
    const { $RefParser, ParserError, ResolverError } = await import('@apidevtools/json-schema-ref-parser');
    const rootDir = path.dirname(this.root);
    const roots = await Promise.all([rootDir, ...options.allowRefsFrom].map(realOrSelf));
    const docs = this.#docs;
    const digests = this.#digests;
    const failed = this.#failed;
    const rootFile = this.root;
    const thrown: (ResolverError | ParserError)[] = [];

    const fail = (code: string, target: string, message: string, hint: string | undefined, err: ResolverError | ParserError): never => {
      const failure: RefFailure = hint === undefined ? { ok: false, code, message } : { ok: false, code, message, hint };
      failed.set(target, failure);
      Object.assign(err, { svcCode: code, svcHint: hint, svcTarget: target });
      // With continueOnError the crawler swallows resolver errors (it only stamps `source` and `path`
      // on them), so keep them here and report them after the crawl.
      thrown.push(err);
      throw err;
    };

    const fileResolver = {
      name: 'svc-file',
      order: 1,
      canRead: (file: { url: string }) => !REMOTE.test(file.url),
      // Synchronous on purpose: a spec of thousands of small files (DigitalOcean: 2,850) spent more
      // time in thread-pool round trips (realpath, stat, open, read, close) than in reading.
      read: (file: { url: string }): Buffer => {
        const target = toFsPath(file.url);
        const real = realOrSelfSync(target);
        const root = roots.find((r) => isInside(real, r));
        if (root === undefined) {
          const message = `$ref to ${target} refused: it is outside the spec's folder ${rootDir}`;
          fail('ref-outside-folder', target, message, 'Move the file into the spec folder, or list its folder under refs.allowFrom for this spec in svc.yaml.', new ResolverError(new Error(message), file.url));
        }
        // Only API description files: a spec must not make svc read `.env`, keys or any other file
        // next to it. Both the name as written and the file it resolves to must pass.
        if (!isDescriptionFile(target, rootDir) || !isDescriptionFile(real, root!)) {
          const message = `$ref to ${target} refused: only JSON or YAML description files may be referenced`;
          fail('ref-not-description-file', target, message, 'Reference a file named *.json, *.yaml or *.yml; dotfiles (.env, .npmrc, ...) and files in dot-folders are never read.', new ResolverError(new Error(message), file.url));
        }
        const read = readSpecFileSync(target, options.maxBytes);
        if (!read.ok) {
          const message = `$ref to ${target}: ${read.problem.message}`;
          const code = read.problem.code === 'file-missing' ? 'ref-file-missing' : `ref-${read.problem.code}`;
          fail(code, target, message, read.problem.hint ?? 'Check the $ref path.', new ResolverError(new Error(message), file.url));
        }
        return (read as { bytes: Buffer }).bytes;
      },
    };

    const remoteRefuser = {
      name: 'svc-remote-refused',
      order: 2,
      canRead: (file: { url: string }) => REMOTE.test(file.url),
      read: (file: { url: string }): never => {
        const target = file.url.replace(/#.*$/, '');
        const message = `remote $ref to ${target} refused`;
        return fail('ref-remote-refused', target, message, 'Download the file next to the spec and reference it by relative path, or set refs.remote: true for this spec in svc.yaml.', new ResolverError(new Error(message), file.url));
      },
    };

    const remoteFallback = {
      name: 'svc-remote-fallback',
      order: 300,
      canRead: (file: { url: string }) => REMOTE.test(file.url),
      read: (file: { url: string }): never => {
        const target = file.url.replace(/#.*$/, '');
        const message = `remote $ref to ${target} could not be read (addresses on private networks and loopback are refused, and the host must answer)`;
        return fail('ref-remote-failed', target, message, 'Check the URL, or download the file next to the spec and reference it by relative path.', new ResolverError(new Error(message), file.url));
      },
    };

    const parser = {
      name: 'svc-parse',
      order: 1,
      canParse: true,
      allowEmpty: true,
      parse: (file: { url: string; data: string | Buffer }): unknown => {
        const target = REMOTE.test(file.url) ? file.url.replace(/#.*$/, '') : toFsPath(file.url);
        const bytes = typeof file.data === 'string' ? Buffer.from(file.data) : file.data;
        const parsed = parseText(decodeUtf8(bytes));
        if (!parsed.ok) {
          const p = parsed.problem;
          const where = p.line !== undefined ? ` at line ${p.line}${p.column !== undefined ? `, column ${p.column}` : ''}` : '';
          const message = `${target}${where}: ${p.message}`;
          return fail('ref-file-invalid', target, message, p.hint, new ParserError(message, file.url));
        }
        docs.set(target, parsed.value);
        digests.set(target, sha256(bytes));
        return parsed.value;
      },
    };

    this.#lookups.clear();
    const refParser = new $RefParser();
    const problems: LoadProblem[] = [];
    try {
      await refParser.resolve(rootFile, this.#docs.get(rootFile) as object, {
        continueOnError: true,
        parse: { json: false, yaml: false, text: false, binary: false, svc: parser },
        resolve: {
          external: true,
          file: false,
          http: options.allowRemoteRefs ? { timeout: 15_000, redirects: 3, maxContentLength: options.maxBytes } : false,
          svcFile: fileResolver,
          // When remote refs are allowed, the http resolver still refuses private and loopback
          // addresses (its safeUrlResolver default); this one then explains why.
          ...(options.allowRemoteRefs ? { svcRemote: remoteFallback } : { svcRemote: remoteRefuser }),
        },
      } as never);
    } catch (err) {
      const errors: unknown[] = Array.isArray((err as { errors?: unknown }).errors) ? (err as { errors: unknown[] }).errors : [err];
      for (const e of errors) if (!thrown.includes(e as ResolverError)) problems.push(toProblem(e, rootFile));
    }
    for (const e of thrown) problems.push(toProblem(e, rootFile));
    return problems;
  }
}

function toProblem(e: unknown, rootFile: string): LoadProblem {
  const err = e as { message?: string; source?: string; path?: unknown; svcCode?: string; svcHint?: string };
  const source = typeof err.source === 'string' && err.source !== '' ? (REMOTE.test(err.source) ? err.source : toFsPath(err.source)) : rootFile;
  const tokens = Array.isArray(err.path) ? (err.path as unknown[]).map(String) : undefined;
  const base: LoadProblem = {
    code: err.svcCode ?? 'ref-unresolved',
    message: err.message ?? String(e),
    file: source,
    ...(tokens ? { pointer: joinPointer('', ...tokens) } : {}),
    ...(err.svcHint !== undefined ? { hint: err.svcHint } : {}),
  };
  return base;
}

/** The node's `$ref` string, if it is a reference object. */
export function refOf(node: unknown): string | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  const ref = (node as { $ref?: unknown }).$ref;
  return typeof ref === 'string' ? ref : undefined;
}

function toFsPath(url: string): string {
  const bare = url.replace(/#.*$/, '');
  if (/^file:/i.test(bare)) return fileURLToPath(bare);
  return path.resolve(safeDecode(bare));
}

function safeDecode(s: string): string {
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

async function realOrSelf(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    return path.resolve(p);
  }
}

function realOrSelfSync(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

const DESCRIPTION_EXTENSION = /\.(json|ya?ml)$/i;

/** A .json/.yaml/.yml file with no dot-named part below `root` (no dotfile, no dot-folder). */
export function isDescriptionFile(file: string, root: string): boolean {
  if (!DESCRIPTION_EXTENSION.test(path.basename(file))) return false;
  const below = isInside(file, root) ? path.relative(root, file) : path.basename(file);
  return below.split(path.sep).every((part) => !part.startsWith('.'));
}

function valueKind(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  return `a ${typeof value}`;
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
